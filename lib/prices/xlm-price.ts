import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "@/db/client";
import { priceCache } from "@/db/schema";
import { UnavailableError } from "@/lib/domain/errors";
import type { ServiceContext } from "@/lib/services/context";
import { rowsOf } from "@/lib/services/db";

/**
 * XLM/USD price (docs/decisions.md, Price feed) behind a 60-second cache in PostgreSQL that
 * every instance shares.
 *
 * One outbound fetch at a time, however many requests arrive together:
 * - in one process, concurrent callers share one in-flight promise (`getXlmPrice`);
 * - across processes, the fetcher holds a transaction-scoped advisory lock while it fetches
 *   and stores. The lock is released by the same commit that makes the new row visible, so a
 *   request that did not get the lock polls the row until the lock is free (or the fetch
 *   timeout plus a margin has passed) and then serves whatever the winner left: the fresh
 *   price (cached true), the last known one (stale), or 503 when there has never been one.
 */

export const PRICE_UNAVAILABLE = "Price feed temporarily unavailable";
export const XLM_USD = "XLM-USD";
/** A price younger than this is served from the cache. */
export const CACHE_TTL_MS = 60_000;
/**
 * After a failed fetch the last known price is served as stale for this long without asking
 * the source again, so a source that is down is not hit by every request (one attempt per
 * window, cluster-wide, through `attempted_at`).
 */
export const RETRY_AFTER_FAILURE_MS = 10_000;
/** How often a request that lost the lock looks at the row again. */
const POLL_INTERVAL_MS = 100;
/** Waiters give the winner its fetch timeout plus this for the database round trips. */
const WAIT_MARGIN_MS = 500;
/** Arbitrary constant (the migration lock is 72_210_001); below 2^31, so pg_locks shows it as classid 0. */
const FETCH_LOCK_KEY = 72_210_002;

export type PriceContext = Pick<ServiceContext, "db" | "config" | "now" | "logger">;

/** `usd` is the exact decimal string stored in PostgreSQL; only the JSON edge makes it a number. */
export type XlmPrice = { usd: string; cached: boolean; stale: boolean };

export type CachedPrice = { price: string; fetchedAt: Date; attemptedAt: Date };

/**
 * What to do with the cached row at `now`:
 * - `fresh`: younger than the TTL, serve it (cached true);
 * - `stale`: a fetch failed moments ago, serve the last known price without retrying yet;
 * - `fetch`: ask the source.
 */
export type CacheDecision = "fresh" | "stale" | "fetch";

export function decideCache(row: CachedPrice | undefined, now: Date): CacheDecision {
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

function serve(row: CachedPrice, decision: "fresh" | "stale"): XlmPrice {
  return { usd: row.price, cached: true, stale: decision === "stale" };
}

// One in-flight resolution per database handle, on globalThis because Next.js may load this
// module in several bundles of one process (the same reason lib/runtime.ts keeps its handle there).
const FLIGHTS = Symbol.for("stellar-invoicing.xlm-price.in-flight");
type Holder = { [FLIGHTS]?: WeakMap<object, Promise<XlmPrice>> };

/**
 * The current XLM price in USD. Concurrent callers in this process share one resolution (and
 * so at most one outbound fetch); they all receive its answer, including a 503.
 * Throws UnavailableError when the source fails and no price was ever stored.
 */
export function getXlmPrice(ctx: PriceContext): Promise<XlmPrice> {
  const g = globalThis as Holder;
  g[FLIGHTS] ??= new WeakMap();
  const flights = g[FLIGHTS];
  const running = flights.get(ctx.db);
  if (running) return running;
  const flight = resolvePrice(ctx).finally(() => {
    if (flights.get(ctx.db) === flight) flights.delete(ctx.db);
  });
  flights.set(ctx.db, flight);
  return flight;
}

async function resolvePrice(ctx: PriceContext): Promise<XlmPrice> {
  const row = await readCached(ctx.db);
  const decision = decideCache(row, ctx.now());
  if (row && decision !== "fetch") return serve(row, decision);

  const outcome = await underFetchLock(ctx, async (db) => {
    // Another instance may have finished a fetch between our read and taking the lock.
    const current = await readCached(db);
    const again = decideCache(current, ctx.now());
    if (current && again !== "fetch") return serve(current, again);
    return refresh(ctx, db, current);
  });
  return outcome.kind === "done" ? outcome.value : waitForWinner(ctx);
}

type LockOutcome = { kind: "done"; value: XlmPrice } | { kind: "busy" };

async function underFetchLock(
  ctx: PriceContext,
  fn: (db: DbOrTx) => Promise<XlmPrice>,
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
        sql`select pg_try_advisory_xact_lock(${sql.raw(String(FETCH_LOCK_KEY))}) as locked`,
      ),
    );
    if (!first?.locked) return { kind: "busy" };
    return { kind: "done", value: await fn(tx) };
  });
}

/** Fetches, stores and answers; on a failed fetch answers the last known price as stale. */
async function refresh(
  ctx: PriceContext,
  db: DbOrTx,
  current: CachedPrice | undefined,
): Promise<XlmPrice> {
  let usd: string;
  try {
    usd = await fetchXlmUsd(ctx.config.prices);
  } catch (err) {
    // The URL is not logged: a paid price API may carry its key in the query string.
    ctx.logger.warn("XLM price source failed", {
      error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      lastKnown: current ? current.fetchedAt.toISOString() : null,
    });
    if (!current) throw new UnavailableError(PRICE_UNAVAILABLE);
    await db.update(priceCache).set({ attemptedAt: ctx.now() }).where(eq(priceCache.pair, XLM_USD));
    return serve(current, "stale");
  }
  const now = ctx.now();
  const [saved] = await db
    .insert(priceCache)
    .values({ pair: XLM_USD, price: usd, fetchedAt: now, attemptedAt: now })
    .onConflictDoUpdate({
      target: priceCache.pair,
      set: { price: usd, fetchedAt: now, attemptedAt: now },
    })
    .returning({ price: priceCache.price });
  return { usd: saved.price, cached: false, stale: false };
}

/**
 * Another instance holds the fetch lock: poll until its commit lands (the row turns fresh) or
 * the lock is released, then serve what it left. Never fetches itself, so a source that fails
 * costs one outbound request per wave of requests, not one per waiting instance.
 */
async function waitForWinner(ctx: PriceContext): Promise<XlmPrice> {
  const deadline = ctx.now().getTime() + ctx.config.prices.timeoutMs + WAIT_MARGIN_MS;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    const row = await readCached(ctx.db);
    if (row && decideCache(row, ctx.now()) === "fresh") return serve(row, "fresh");
    const over = !(await fetchLockHeld(ctx.db)) || ctx.now().getTime() >= deadline;
    if (!over) continue;
    // Read again: the winner's commit may have landed between the two queries above.
    const last = await readCached(ctx.db);
    if (!last) throw new UnavailableError(PRICE_UNAVAILABLE);
    return serve(last, decideCache(last, ctx.now()) === "fresh" ? "fresh" : "stale");
  }
}

async function readCached(db: DbOrTx): Promise<CachedPrice | undefined> {
  const [row] = await db
    .select({
      price: priceCache.price,
      fetchedAt: priceCache.fetchedAt,
      attemptedAt: priceCache.attemptedAt,
    })
    .from(priceCache)
    .where(eq(priceCache.pair, XLM_USD));
  return row;
}

/**
 * Whether some session of this database holds the fetch lock. Read from pg_locks rather than
 * by trying the lock, so that looking never makes a newcomer believe a fetch is under way.
 */
async function fetchLockHeld(db: DbOrTx): Promise<boolean> {
  const [row] = rowsOf<{ held: boolean }>(
    await db.execute(sql`
      select exists (
        select 1 from pg_locks
        where locktype = 'advisory'
          and database = (select oid from pg_database where datname = current_database())
          and classid = 0
          and objid = ${sql.raw(String(FETCH_LOCK_KEY))}
          and objsubid = 1
          and granted
      ) as held`),
  );
  return row?.held === true;
}

// ---------------------------------------------------------------------------------------------
// The external source

/** Why a fetch failed; logged only, the caller answers stale or 503. */
export class PriceSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PriceSourceError";
  }
}

/**
 * CoinGecko's simple price shape. The bounds keep what `numeric(30,12)` can hold without
 * rounding the price to zero or overflowing.
 */
const sourceBody = z.object({
  stellar: z.object({ usd: z.number().min(1e-12).lt(1e18) }),
});

/** The price in a source answer as a decimal string; throws PriceSourceError otherwise. */
export function parseSourceBody(body: unknown): string {
  const parsed = sourceBody.safeParse(body);
  if (!parsed.success) throw new PriceSourceError("unexpected price source body");
  // String() is exact for the double received (PostgreSQL also accepts its exponent form).
  return String(parsed.data.stellar.usd);
}

/** One GET of the source with a hard timeout; redirects are refused rather than followed. */
export async function fetchXlmUsd(source: {
  sourceUrl: string;
  timeoutMs: number;
}): Promise<string> {
  const res = await fetch(source.sourceUrl, {
    signal: AbortSignal.timeout(source.timeoutMs),
    redirect: "error",
    headers: { accept: "application/json" },
  });
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw new PriceSourceError(`price source answered ${res.status}`);
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch (err) {
    // A timeout while reading the body is reported as such, not as bad JSON.
    if (err instanceof Error && err.name === "TimeoutError") throw err;
    throw new PriceSourceError("price source answered something other than JSON");
  }
  return parseSourceBody(body);
}
