import { numeric, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Last known prices, shared by every instance (spec 4.6: 60-second cache, stale fallback). */
export const priceCache = pgTable("price_cache", {
  /** e.g. `XLM-USD` */
  pair: text("pair").primaryKey(),
  price: numeric("price", { precision: 30, scale: 12 }).notNull(),
  fetchedAt: timestamp("fetched_at", { withTimezone: true, mode: "date" }).notNull(),
  /** Last time a fetch was attempted (success or not): spaces out retries while the source is down. */
  attemptedAt: timestamp("attempted_at", { withTimezone: true, mode: "date" }).notNull(),
});
