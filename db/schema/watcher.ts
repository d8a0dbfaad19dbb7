import { pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";

/** Horizon paging tokens the ledger watcher has processed up to, per network. */
export const watcherCursors = pgTable("watcher_cursors", {
  network: text("network").primaryKey(),
  cursor: text("cursor").notNull(),
  updatedAt: ts("updated_at").notNull(),
});
