import { sql } from "drizzle-orm";
import { bigserial, index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { idColumn, ts } from "./columns";

/**
 * The outbox: one row per event (docs/decisions.md, Webhooks), written in the same
 * transaction as its cause and delivered later by the webhook worker. `seq` orders events
 * (per invoice too).
 */
export const events = pgTable(
  "events",
  {
    id: idColumn(),
    seq: bigserial("seq", { mode: "bigint" }).notNull(),
    type: text("type").notNull(),
    /** The wallet whose subscriptions receive it. */
    wallet: text("wallet").notNull(),
    invoiceId: text("invoice_id"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: ts("created_at").notNull(),
    /** Set once delivery rows exist for every subscription that wants this event. */
    fannedOutAt: ts("fanned_out_at"),
  },
  (t) => [
    index("events_seq_idx").on(t.seq),
    index("events_invoice_idx").on(t.invoiceId, t.seq),
    index("events_wallet_idx").on(t.wallet, t.seq),
    index("events_fan_out_idx").on(t.seq).where(sql`${t.fannedOutAt} is null`),
    // Retention (lib/services/webhooks/retention.ts) finds old events by age.
    index("events_created_idx").on(t.createdAt),
  ],
);
