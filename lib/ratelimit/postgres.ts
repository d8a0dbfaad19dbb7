import { sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { rateLimitCounters } from "@/db/schema";
import { type RateLimiter, type RateLimitPolicy, windowStart } from "./types";

/**
 * Fixed window, one atomic upsert per hit. A counter from an older window restarts at 1;
 * an instance whose clock lags cannot reset a newer window (greatest()).
 */
export function createPostgresRateLimiter(db: Database): RateLimiter {
  return {
    async hit(policy: RateLimitPolicy, subject: string, now: Date) {
      const start = windowStart(now, policy.windowSeconds);
      const key = `${policy.name}:${subject}`;
      const rows = await db
        .insert(rateLimitCounters)
        .values({ key, windowStart: start, count: 1 })
        .onConflictDoUpdate({
          target: rateLimitCounters.key,
          set: {
            count: sql`case when excluded.window_start > ${rateLimitCounters.windowStart} then 1 else ${rateLimitCounters.count} + 1 end`,
            windowStart: sql`greatest(excluded.window_start, ${rateLimitCounters.windowStart})`,
          },
        })
        .returning({ count: rateLimitCounters.count, windowStart: rateLimitCounters.windowStart });
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
