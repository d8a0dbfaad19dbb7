import type { DatabaseHandle } from "@/db/client";
import { UnavailableError } from "@/lib/domain/errors";
import { DATABASE_UNAVAILABLE } from "@/lib/http/errors";
import { withTimeout } from "@/lib/timeout";
import { type RateLimiter, type RateLimitPolicy, type RateLimitResult, windowStart } from "./types";

/**
 * Fixed windows, counted in PostgreSQL so every app instance shares them, with group commit:
 * hits that arrive while this instance's previous statement is still running wait for it and
 * then go together, one upsert that adds n to each counter. Each hit gets the count it would
 * have got alone (the batch's counts are handed out in arrival order), so the limit is exact
 * across instances; under load a burst costs one statement per round trip instead of one per
 * request, and no two statements of one instance queue on the same row lock (bench/results.md
 * has the figures).
 *
 * A counter from an older window restarts; an instance whose clock lags cannot reset a newer
 * window (greatest()). Keys go in sorted order so two instances' batches cannot deadlock.
 */
const UPSERT = `insert into rate_limit_counters (key, window_start, count)
  select key, window_start, n from json_to_recordset($1::json) as t(key text, window_start timestamptz, n int)
  on conflict (key) do update set
    count = case when excluded.window_start > rate_limit_counters.window_start then excluded.count
                 else rate_limit_counters.count + excluded.count end,
    window_start = greatest(excluded.window_start, rate_limit_counters.window_start)
  returning key, count, window_start`;

/** One hit handed back, in the same window only (a newer window has restarted the count). */
const RELEASE = `update rate_limit_counters set count = count - 1
  where key = $1 and window_start = $2 and count > 0`;

type Waiter = {
  policy: RateLimitPolicy;
  resolve: (r: RateLimitResult) => void;
  reject: (e: unknown) => void;
};
type Batch = { key: string; start: Date; waiters: Waiter[] };

/**
 * How long a statement may take before its callers get a 503 and the next batch goes: one
 * statement stuck on a dead connection must not hold up every request of the instance.
 */
const STATEMENT_TIMEOUT_MS = 5_000;
const unavailable = () => new UnavailableError(DATABASE_UNAVAILABLE);

export function createPostgresRateLimiter(
  database: Pick<DatabaseHandle, "raw">,
  options: { timeoutMs?: number } = {},
): RateLimiter {
  const timeoutMs = options.timeoutMs ?? STATEMENT_TIMEOUT_MS;
  // Hits not yet sent, per key in window order (almost always one window); one statement
  // runs at a time.
  const pending = new Map<string, Batch[]>();
  let running = false;

  const send = async (batches: Batch[]) => {
    try {
      const rows = await database.raw<{ key: string; count: number; window_start: Date | string }>(
        UPSERT,
        // One JSON parameter: both drivers pass it as is (postgres.js does not bind arrays here).
        [
          JSON.stringify(
            batches.map((b) => ({
              key: b.key,
              window_start: b.start.toISOString(),
              n: b.waiters.length,
            })),
          ),
        ],
      );
      const byKey = new Map(rows.map((r) => [r.key, r]));
      for (const batch of batches) {
        const row = byKey.get(batch.key);
        if (!row) throw new Error(`rate limit counter ${batch.key} not returned`);
        const windowMs = new Date(row.window_start).getTime();
        // The batch's hits are the counter's last n, in arrival order.
        const first = Number(row.count) - batch.waiters.length + 1;
        batch.waiters.forEach((w, i) => {
          const count = first + i;
          w.resolve({
            policy: w.policy,
            allowed: count <= w.policy.limit,
            remaining: Math.max(0, w.policy.limit - count),
            resetAt: new Date(windowMs + w.policy.windowSeconds * 1000),
          });
        });
      }
    } catch (err) {
      for (const batch of batches) for (const w of batch.waiters) w.reject(err);
    }
  };

  const run = async () => {
    running = true;
    while (pending.size) {
      // One row per key per statement (ON CONFLICT cannot touch a row twice); sorted keys.
      const batches: Batch[] = [];
      for (const [key, list] of pending) {
        batches.push(list.shift() as Batch);
        if (!list.length) pending.delete(key);
      }
      batches.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      // send() settles its callers itself and never rejects: a rejection here is the timeout.
      // Its callers fail now; if it completes later, its counts still stand (they only make
      // the limit stricter) and settling them again does nothing.
      await withTimeout(send(batches), timeoutMs, unavailable).catch((err) => {
        for (const batch of batches) for (const w of batch.waiters) w.reject(err);
      });
    }
    running = false;
  };

  return {
    async release(result, subject) {
      const start = result.resetAt.getTime() - result.policy.windowSeconds * 1000;
      await withTimeout(
        database.raw(RELEASE, [`${result.policy.name}:${subject}`, new Date(start).toISOString()]),
        timeoutMs,
        unavailable,
      );
    },
    hit(policy: RateLimitPolicy, subject: string, now: Date) {
      return new Promise<RateLimitResult>((resolve, reject) => {
        const key = `${policy.name}:${subject}`;
        const start = windowStart(now, policy.windowSeconds);
        const waiter = { policy, resolve, reject };
        const list = pending.get(key);
        const last = list?.[list.length - 1];
        if (last && last.start.getTime() === start.getTime()) last.waiters.push(waiter);
        else if (list) list.push({ key, start, waiters: [waiter] });
        else pending.set(key, [{ key, start, waiters: [waiter] }]);
        if (!running) void run();
      });
    },
  };
}
