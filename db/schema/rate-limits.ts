import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";

/**
 * Fixed-window counters shared by every app instance. One row per (policy, subject);
 * a hit is one atomic upsert (see lib/ratelimit/postgres.ts).
 */
export const rateLimitCounters = pgTable("rate_limit_counters", {
  key: text("key").primaryKey(),
  windowStart: ts("window_start").notNull(),
  count: integer("count").notNull(),
});
