import { integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";

/**
 * How far the ledger watcher has read, per network and ledger source (`horizon`: a Horizon
 * paging token; `rpc`: a ledger number or a Stellar RPC event cursor). Both sources may run at
 * once on one network for a migration window, each on its own row (docs/decisions.md,
 * Watcher). `gap_*`: ledgers the source no longer held when the cursor reached them (Stellar
 * RPC's retention), shown on /api/health until read through Horizon (`gap_backfill` is its
 * Horizon cursor meanwhile; `skipped` when they could not be).
 */
export const watcherCursors = pgTable(
  "watcher_cursors",
  {
    network: text("network").notNull(),
    source: text("source").notNull().default("horizon"),
    cursor: text("cursor").notNull(),
    updatedAt: ts("updated_at").notNull(),
    gapFromLedger: integer("gap_from_ledger"),
    gapToLedger: integer("gap_to_ledger"),
    gapSince: ts("gap_since"),
    gapBackfill: text("gap_backfill"),
  },
  (t) => [primaryKey({ columns: [t.network, t.source] })],
);
