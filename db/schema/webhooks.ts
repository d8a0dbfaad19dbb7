import { sql } from "drizzle-orm";
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/** Self-service webhook endpoints of a wallet (decisions.md, Webhooks). */
export const webhookSubscriptions = pgTable(
  "webhook_subscriptions",
  {
    id: text("id").primaryKey(),
    /** Owner; `*` for the endpoint configured by WEBHOOK_URL (receives every wallet's events). */
    wallet: text("wallet").notNull(),
    url: text("url").notNull(),
    /** Event types, e.g. ["invoice.paid"]; ["*"] for all. */
    events: jsonb("events").$type<string[]>().notNull(),
    secret: text("secret").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    /** Set when deliveries have failed continuously for days; no more deliveries. */
    disabledAt: timestamp("disabled_at", { withTimezone: true, mode: "date" }),
    /** Start of the current run of failed attempts (null after any success). */
    failingSince: timestamp("failing_since", { withTimezone: true, mode: "date" }),
    deletedAt: timestamp("deleted_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("webhook_subscriptions_wallet_idx").on(t.wallet)],
);

/** One delivery of one event to one subscription, with its attempts. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    subscriptionId: text("subscription_id")
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    /** Copied from the event: deliveries of one invoice go out in this order. */
    eventSeq: bigint("event_seq", { mode: "bigint" }).notNull(),
    invoiceId: text("invoice_id"),
    status: text("status", { enum: ["pending", "delivered", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }).notNull(),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true, mode: "date" }),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    deliveredAt: timestamp("delivered_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_subscription_event_key").on(t.subscriptionId, t.eventId),
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_order_idx").on(t.subscriptionId, t.invoiceId, t.eventSeq),
    index("webhook_deliveries_log_idx").on(t.subscriptionId, t.createdAt.desc()),
    // Retention: finished deliveries by age, and "does any delivery still need this event".
    index("webhook_deliveries_finished_idx").on(t.createdAt).where(sql`${t.status} <> 'pending'`),
    index("webhook_deliveries_event_idx").on(t.eventId),
  ],
);
