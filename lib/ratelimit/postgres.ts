import { sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { rateLimitCounters } from "@/db/schema";
import { type RateLimiter, type RateLimitPolicy, windowStart } from "./types";

/**
 * Fixed window, one atomic upsert per hit. A counter from an older window restarts at 1;
 * an instance whose clock lags cannot reset a newer window (greatest()).
 */
export function createPostgresRateLimiter(db: Database): RateLimiter {
  // Built once, executed with parameters: this runs on every request.
  const upsert = db
    .insert(rateLimitCounters)
    .values({ key: sql.placeholder("key"), windowStart: sql.placeholder("start"), count: 1 })
    .onConflictDoUpdate({
      target: rateLimitCounters.key,
      set: {
        count: sql`case when excluded.window_start > ${rateLimitCounters.windowStart} then 1 else ${rateLimitCounters.count} + 1 end`,
        windowStart: sql`greatest(excluded.window_start, ${rateLimitCounters.windowStart})`,
      },
    })
    .returning({ count: rateLimitCounters.count, windowStart: rateLimitCounters.windowStart })
    .prepare("rate_limit_hit");
  return {
    async hit(policy: RateLimitPolicy, subject: string, now: Date) {
      const start = windowStart(now, policy.windowSeconds);
      const key = `${policy.name}:${subject}`;
      const rows = await upsert.execute({ key, start });
      const row = rows[0];
      const resetAt = new Date(row.windowStart.getTime() + policy.windowSeconds * 1000);
      return {
        policy,
        allowed: row.count <= policy.limit,
        remaining: Math.max(0, policy.limit - row.count),
        resetAt,
      };
    },
  };
}
