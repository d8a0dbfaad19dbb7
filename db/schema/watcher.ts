import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Horizon paging tokens the ledger watcher has processed up to, per network. */
export const watcherCursors = pgTable("watcher_cursors", {
  network: text("network").primaryKey(),
  cursor: text("cursor").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
});
