import { inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { priceCache } from "@/db/schema";
import { UnavailableError } from "@/lib/domain/errors";
import type { ServiceContext } from "@/lib/services/context";
import { rowsOf } from "@/lib/services/db";
import type { FetchedPair } from "./pairs";
import { fetchPrices, type PriceSource } from "./source";

/**
 * Prices behind a 60-second cache in PostgreSQL that every instance shares (docs/decisions.md,
 * Price feed), one row of price_cache per fetched pair. A source's pairs are fetched and
 * written together, so they share `fetched_at` and `attempted_at`.
 *
 * One outbound fetch per source at a time, however many requests arrive together:
 * - in one process, concurrent callers share one in-flight promise (`resolveSource`);
 * - across processes, the fetcher holds a transaction-scoped advisory lock (the source's
 *   `lockKey`) while it fetches and stores. The lock is released by the same commit that
 *   makes the new rows visible, so a request that did not get the lock polls the rows until
 *   the lock is free (or the fetch timeout plus a margin has passed) and then serves whatever
 *   the winner left: the fresh prices (cached true), the last known ones (stale), or 503 when
 *   there have never been any.
 */

export const PRICE_UNAVAILABLE = "Price feed temporarily unavailable";
/** A price younger than this is served from the cache. */
export const CACHE_TTL_MS = 60_000;
/**
 * After a failed fetch the last known price is served as stale for this long without asking
 * the source again, so a source that is down is not hit by every request (one attempt per
 * window, cluster-wide, through `attempted_at`).
 */
export const RETRY_AFTER_FAILURE_MS = 10_000;
/** How often a request that lost the lock looks at the rows again. */
const POLL_INTERVAL_MS = 100;
/** Waiters give the winner its fetch timeout plus this for the database round trips. */
const WAIT_MARGIN_MS = 500;

export type PriceContext = Pick<ServiceContext, "db" | "config" | "now" | "logger">;

export type CacheTimes = { fetchedAt: Date; attemptedAt: Date };

/** A source's last known prices (exact decimal strings, as stored). */
export type CachedPrices = CacheTimes & { prices: Partial<Record<FetchedPair, string>> };

/** What a resolution answers: the prices, when they were fetched, and how they were served. */
export type SourcePrices = CachedPrices & { cached: boolean; stale: boolean };

/**
 * What to do with the cached prices at `now`:
 * - `fresh`: younger than the TTL, serve them (cached true);
 * - `stale`: a fetch failed moments ago, serve the last known prices without retrying yet;
 * - `fetch`: ask the source.
 */
export type CacheDecision = "fresh" | "stale" | "fetch";

export function decideCache(row: CacheTimes | undefined, now: Date): CacheDecision {
  if (!row) return "fetch";
  const age = now.getTime() - row.fetchedAt.getTime();
  // A timestamp from an instance whose clock runs ahead reads as slightly negative; one
  // implausibly far in the future must not pin the price forever.
  if (age < CACHE_TTL_MS && age > -CACHE_TTL_MS) return "fresh";
  const lastAttemptFailed = row.attemptedAt.getTime() > row.fetchedAt.getTime();
  const sinceAttempt = now.getTime() - row.attemptedAt.getTime();
  if (lastAttemptFailed && sinceAttempt < RETRY_AFTER_FAILURE_MS && sinceAttempt > -CACHE_TTL_MS) {
    return "stale";
  }
  return "fetch";
}

function serve(row: CachedPrices, decision: "fresh" | "stale"): SourcePrices {
  return { ...row, cached: true, stale: decision === "stale" };
}

// In-flight resolutions per database handle and source, on globalThis because Next.js may
// load this module in several bundles of one process (the same reason lib/runtime.ts keeps
// its handle there).
const FLIGHTS = Symbol.for("stellar-invoicing.prices.in-flight");
type Holder = { [FLIGHTS]?: WeakMap<object, Map<string, Promise<SourcePrices>>> };

/**
 * The source's current prices. Concurrent callers in this process share one resolution (and
 * so at most one outbound fetch); they all receive its answer, including a 503.
 * Throws UnavailableError when the source fails and its prices were never stored.
 */
export function resolveSource(ctx: PriceContext, source: PriceSource): Promise<SourcePrices> {
  const g = globalThis as Holder;
  g[FLIGHTS] ??= new WeakMap();
  let flights = g[FLIGHTS].get(ctx.db);
  if (!flights) {
    flights = new Map();
    g[FLIGHTS].set(ctx.db, flights);
  }
  const running = flights.get(source.id);
  if (running) return running;
  const mine = flights;
  const flight = resolve(ctx, source).finally(() => {
    if (mine.get(source.id) === flight) mine.delete(source.id);
  });
  flights.set(source.id, flight);
  return flight;
}

async function resolve(ctx: PriceContext, source: PriceSource): Promise<SourcePrices> {
  const row = await readCached(ctx.db, source);
  const decision = decideCache(row, ctx.now());
  if (row && decision !== "fetch") return serve(row, decision);

  const outcome = await underFetchLock(ctx, source, async (db) => {
    // Another instance may have finished a fetch between our read and taking the lock.
    const current = await readCached(db, source);
    const again = decideCache(current, ctx.now());
    if (current && again !== "fetch") return serve(current, again);
    return refresh(ctx, db, source, current);
  });
  return outcome.kind === "done" ? outcome.value : waitForWinner(ctx, source);
}

type LockOutcome = { kind: "done"; value: SourcePrices } | { kind: "busy" };

async function underFetchLock(
  ctx: PriceContext,
  source: PriceSource,
  fn: (db: DbOrTx) => Promise<SourcePrices>,
): Promise<LockOutcome> {
  if (ctx.config.databaseUrl === undefined) {
    // Embedded PGlite serves one process only (README), where the in-process single flight
    // already makes this the only fetch; and a PGlite transaction held open during the fetch
    // would stall every other query of the app.
    return { kind: "done", value: await fn(ctx.db) };
  }
  // The transaction (and so the lock) lasts at most the fetch timeout plus two statements.
  return ctx.db.transaction(async (tx): Promise<LockOutcome> => {
    const [first] = rowsOf<{ locked: boolean }>(
      await tx.execute(
        sql`select pg_try_advisory_xact_lock(${sql.raw(String(source.lockKey))}) as locked`,
      ),
    );
    if (!first?.locked) return { kind: "busy" };
    return { kind: "done", value: await fn(tx) };
  });
}

/** Fetches, stores and answers; on a failed fetch answers the last known prices as stale. */
async function refresh(
  ctx: PriceContext,
  db: DbOrTx,
  source: PriceSource,
  current: CachedPrices | undefined,
): Promise<SourcePrices> {
  let prices: Partial<Record<FetchedPair, string>>;
  try {
    prices = await fetchPrices(source);
  } catch (err) {
    // The URL is not logged: a paid price API may carry its key in the query string.
    ctx.logger.warn(source.id === "xlm" ? "XLM price source failed" : "EUR price source failed", {
      error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      lastKnown: current ? current.fetchedAt.toISOString() : null,
    });
    if (!current) throw new UnavailableError(PRICE_UNAVAILABLE);
    await db
      .update(priceCache)
      .set({ attemptedAt: ctx.now() })
      .where(inArray(priceCache.pair, pairsOf(source)));
    return serve(current, "stale");
  }
  const now = ctx.now();
  const saved = await db
    .insert(priceCache)
    .values(
      Object.entries(prices).map(([pair, price]) => ({
        pair,
        price,
        fetchedAt: now,
        attemptedAt: now,
      })),
    )
    .onConflictDoUpdate({
      target: priceCache.pair,
      set: { price: sql`excluded.price`, fetchedAt: now, attemptedAt: now },
    })
    .returning({ pair: priceCache.pair, price: priceCache.price });
  // The stored (rounded to the column's scale) values, not the fetched ones.
  const stored = Object.fromEntries(saved.map((r) => [r.pair, r.price]));
  return { prices: stored, fetchedAt: now, attemptedAt: now, cached: false, stale: false };
}

/**
 * Another instance holds the fetch lock: poll until its commit lands (the rows turn fresh) or
 * the lock is released, then serve what it left. Never fetches itself, so a source that fails
 * costs one outbound request per wave of requests, not one per waiting instance.
 */
async function waitForWinner(ctx: PriceContext, source: PriceSource): Promise<SourcePrices> {
  const deadline = ctx.now().getTime() + source.timeoutMs + WAIT_MARGIN_MS;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    const row = await readCached(ctx.db, source);
    if (row && decideCache(row, ctx.now()) === "fresh") return serve(row, "fresh");
    const over = !(await fetchLockHeld(ctx.db, source)) || ctx.now().getTime() >= deadline;
    if (!over) continue;
    // Read again: the winner's commit may have landed between the two queries above.
    const last = await readCached(ctx.db, source);
    if (!last) throw new UnavailableError(PRICE_UNAVAILABLE);
    return serve(last, decideCache(last, ctx.now()) === "fresh" ? "fresh" : "stale");
  }
}

const pairsOf = (source: PriceSource) => Object.keys(source.fields) as FetchedPair[];

/** The source's rows; undefined unless every pair it carries has one. */
async function readCached(db: DbOrTx, source: PriceSource): Promise<CachedPrices | undefined> {
  const pairs = pairsOf(source);
  const rows = await db
    .select({
      pair: priceCache.pair,
      price: priceCache.price,
      fetchedAt: priceCache.fetchedAt,
      attemptedAt: priceCache.attemptedAt,
    })
    .from(priceCache)
    .where(inArray(priceCache.pair, pairs));
  if (rows.length < pairs.length) return undefined;
  // Written together; should they ever differ, the oldest fetch and the latest attempt count.
  return {
    prices: Object.fromEntries(rows.map((r) => [r.pair, r.price])),
    fetchedAt: new Date(Math.min(...rows.map((r) => r.fetchedAt.getTime()))),
    attemptedAt: new Date(Math.max(...rows.map((r) => r.attemptedAt.getTime()))),
  };
}

/**
 * Whether some session of this database holds the source's fetch lock. Read from pg_locks
 * rather than by trying the lock, so that looking never makes a newcomer believe a fetch is
 * under way.
 */
async function fetchLockHeld(db: DbOrTx, source: PriceSource): Promise<boolean> {
  const [row] = rowsOf<{ held: boolean }>(
    await db.execute(sql`
      select exists (
        select 1 from pg_locks
        where locktype = 'advisory'
          and database = (select oid from pg_database where datname = current_database())
          and classid = 0
          and objid = ${sql.raw(String(source.lockKey))}
          and objsubid = 1
          and granted
      ) as held`),
  );
  return row?.held === true;
}
