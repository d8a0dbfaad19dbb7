import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  date,
  index,
  jsonb,
  numeric,
  pgTable,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { CURRENCIES, PRICE_CURRENCIES } from "../../lib/domain/money";
import { QUOTE_AUDIT_ACTIONS, QUOTE_ON_ACCEPT, QUOTE_STATUSES } from "../../lib/domain/quote-state";
import type { TaxBreakdownRow, TaxCategory } from "../../lib/domain/tax-categories";
import { LANGUAGES } from "../../lib/i18n/languages";
import { amount, idColumn, searchKeys, ts } from "./columns";
import { invoices } from "./invoices";

// Quotes (estimates) a client accepts online (docs/decisions.md, Quotes). The table is
// `sales_quotes`: `quotes` holds the locked exchange rates of fiat-priced invoices.

/**
 * Each wallet's last quote number (QT-0001, ... per wallet): taken like the invoice counter,
 * `insert ... on conflict do update ... returning` in the create's own transaction, so numbers
 * never skip and never repeat.
 */
export const quoteNumberCounters = pgTable("quote_number_counters", {
  wallet: text("wallet").primaryKey(),
  last: bigint("last", { mode: "bigint" }).notNull(),
});

/** A priced line of a quote: the invoice line's fields (lib/services/invoices/create-invoice.ts). */
export type QuoteLine = {
  id: string;
  description: string;
  quantity: string;
  rate: string;
  amount: string;
  taxRate: string | null;
  taxCategory: TaxCategory | null;
  exemptionReason: string | null;
  exemptionReasonCode: string | null;
};

export const salesQuotes = pgTable(
  "sales_quotes",
  {
    id: idColumn(),
    wallet: text("wallet").notNull(),
    number: text("number").notNull(),
    status: text("status", { enum: QUOTE_STATUSES }).notNull().default("DRAFT"),
    /**
     * The create-invoice body the invoice is made from on acceptance (lib/schemas/quotes.ts,
     * `quoteInvoiceBodySchema`): client details resolved, line items under `lineItems`, the
     * network's passphrase and the language chosen. Everything the quote shows is read from it.
     */
    body: jsonb("body").$type<Record<string, unknown>>().notNull(),
    // Copies of the body's fields that lists filter, sort and show, and the totals.
    clientName: text("client_name").notNull(),
    clientEmail: text("client_email").notNull(),
    title: text("title").notNull(),
    language: text("language", { enum: LANGUAGES }).notNull(),
    currency: text("currency", { enum: CURRENCIES }).notNull(),
    priceCurrency: text("price_currency", { enum: PRICE_CURRENCIES }),
    networkPassphrase: text("network_passphrase").notNull(),
    lineItems: jsonb("line_items").$type<QuoteLine[]>().notNull(),
    subtotal: amount("subtotal").notNull(),
    taxRate: numeric("tax_rate", { precision: 5, scale: 2 }).notNull(),
    taxAmount: amount("tax_amount").notNull(),
    discount: amount("discount").notNull(),
    total: amount("total").notNull(),
    taxBreakdown: jsonb("tax_breakdown").$type<TaxBreakdownRow[]>(),
    /** The last day (UTC) the client may accept it. */
    validUntil: date("valid_until", { mode: "string" }).notNull(),
    onAccept: text("on_accept", { enum: QUOTE_ON_ACCEPT }).notNull().default("draft"),
    sentAt: ts("sent_at"),
    acceptedAt: ts("accepted_at"),
    acceptedName: text("accepted_name"),
    acceptedIp: text("accepted_ip"),
    declinedAt: ts("declined_at"),
    declineReason: text("decline_reason"),
    expiredAt: ts("expired_at"),
    /** The invoice made from it on acceptance; that invoice's `quoteId` names this quote. */
    invoiceId: text("invoice_id").references(() => invoices.id, { onDelete: "set null" }),
    /** What `q` searches, as `invoices.search_text` (docs/decisions.md, Search); set by a trigger. */
    searchText: text("search_text"),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
    deletedAt: ts("deleted_at"),
  },
  (t) => [
    uniqueIndex("sales_quotes_wallet_number_key").on(t.wallet, t.number),
    uniqueIndex("sales_quotes_invoice_key").on(t.invoiceId).where(sql`${t.invoiceId} is not null`),
    index("sales_quotes_owner_created_idx")
      .on(t.wallet, t.createdAt, t.id)
      .where(sql`${t.deletedAt} is null`),
    index("sales_quotes_search_keys_idx")
      .using("gin", searchKeys(t.wallet, t.searchText))
      .where(sql`${t.deletedAt} is null`),
    // Expiry: SENT quotes by their last day.
    index("sales_quotes_expiry_idx")
      .on(t.validUntil)
      .where(sql`${t.status} = 'SENT' and ${t.deletedAt} is null`),
  ],
);

export const quoteAuditLogs = pgTable(
  "quote_audit_logs",
  {
    id: idColumn(),
    /** The trail's order: several entries may share a time (ACCEPTED and CONVERTED do). */
    seq: bigserial("seq", { mode: "bigint" }).notNull(),
    quoteId: text("quote_id")
      .notNull()
      .references(() => salesQuotes.id, { onDelete: "cascade" }),
    action: text("action", { enum: QUOTE_AUDIT_ACTIONS }).notNull(),
    /** The wallet, `key:<prefix>` for an API key, `CLIENT` for the client, `SYSTEM` for jobs. */
    actorWallet: text("actor_wallet").notNull(),
    changes: jsonb("changes").$type<Record<string, unknown> | null>(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("quote_audit_logs_quote_idx").on(t.quoteId, t.createdAt)],
);
