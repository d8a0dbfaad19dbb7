import type { DatabaseHandle } from "@/db/client";
import { type RateLimiter, type RateLimitPolicy, windowStart } from "./types";

/**
 * Fixed window, one atomic upsert per hit. A counter from an older window restarts at 1;
 * an instance whose clock lags cannot reset a newer window (greatest()). It runs on every
 * request, so it goes straight through the driver as one prepared statement (profiles showed
 * the query builder's per-call cost; see bench/results.md).
 */
const UPSERT = `insert into rate_limit_counters (key, window_start, count) values ($1, $2, 1)
  on conflict (key) do update set
    count = case when excluded.window_start > rate_limit_counters.window_start then 1
                 else rate_limit_counters.count + 1 end,
    window_start = greatest(excluded.window_start, rate_limit_counters.window_start)
  returning count, window_start`;

export function createPostgresRateLimiter(database: Pick<DatabaseHandle, "raw">): RateLimiter {
  return {
    async hit(policy: RateLimitPolicy, subject: string, now: Date) {
      const start = windowStart(now, policy.windowSeconds);
      const [row] = await database.raw<{ count: number; window_start: Date | string }>(UPSERT, [
        `${policy.name}:${subject}`,
        start.toISOString(),
      ]);
      const resetAt = new Date(new Date(row.window_start).getTime() + policy.windowSeconds * 1000);
      return {
        policy,
        allowed: row.count <= policy.limit,
        remaining: Math.max(0, policy.limit - row.count),
        resetAt,
      };
    },
  };
}
