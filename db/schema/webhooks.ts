import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { idColumn, ts } from "./columns";

/** Self-service webhook endpoints of a wallet (docs/decisions.md, Webhooks). */
export const webhookSubscriptions = pgTable(
  "webhook_subscriptions",
  {
    id: idColumn(),
    /** Owner; `*` for the endpoint configured by WEBHOOK_URL (receives every wallet's events). */
    wallet: text("wallet").notNull(),
    url: text("url").notNull(),
    /** Event types, e.g. ["invoice.paid"]; ["*"] for all. */
    events: jsonb("events").$type<string[]>().notNull(),
    /**
     * Made by an API key: only events of invoices and links on its network (docs/decisions.md,
     * API keys). Null (made by the signed-in wallet): every network.
     */
    network: text("network", { enum: ["testnet", "mainnet"] }),
    secret: text("secret").notNull(),
    /** The secret before the last rotation: deliveries are signed with both until it expires. */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: ts("previous_secret_expires_at"),
    createdAt: ts("created_at").notNull(),
    /** Set when deliveries have failed continuously for days; no more deliveries. */
    disabledAt: ts("disabled_at"),
    /** Start of the current run of failed attempts (null after any success). */
    failingSince: ts("failing_since"),
    deletedAt: ts("deleted_at"),
  },
  (t) => [index("webhook_subscriptions_wallet_idx").on(t.wallet)],
);

/** One delivery of one event to one subscription, with its attempts. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: idColumn(),
    subscriptionId: text("subscription_id")
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    /** Copied from the event: deliveries of one invoice go out in this order. */
    eventSeq: bigint("event_seq", { mode: "bigint" }).notNull(),
    invoiceId: text("invoice_id"),
    status: text("status", { enum: ["pending", "delivered", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at").notNull(),
    lastAttemptAt: ts("last_attempt_at"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    deliveredAt: ts("delivered_at"),
    createdAt: ts("created_at").notNull(),
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
