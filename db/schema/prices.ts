import { numeric, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";

/** Last known prices, shared by every instance (docs/decisions.md, Price feed). */
export const priceCache = pgTable("price_cache", {
  /** e.g. `XLM-USD` */
  pair: text("pair").primaryKey(),
  price: numeric("price", { precision: 30, scale: 12 }).notNull(),
  fetchedAt: ts("fetched_at").notNull(),
  /** Last time a fetch was attempted (success or not): spaces out retries while the source is down. */
  attemptedAt: ts("attempted_at").notNull(),
});
