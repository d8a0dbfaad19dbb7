import { sql } from "drizzle-orm";
import { bigint, index, jsonb, numeric, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { CREDIT_NOTE_KINDS, type CreditLine } from "../../lib/domain/credit-note";
import type { TaxBreakdownRow } from "../../lib/domain/tax-categories";
import { amount, idColumn, searchKeys, ts } from "./columns";
import { invoiceIdRef } from "./invoices";
import { refunds } from "./refunds";

/**
 * Each wallet's last credit note number (CN-0001, ... per wallet; docs/decisions.md, Credit
 * notes): taken like the invoice counter, `insert ... on conflict do update ... returning` in the
 * credit note's own transaction, so numbers never skip and never repeat.
 */
export const creditNoteCounters = pgTable("credit_note_counters", {
  wallet: text("wallet").primaryKey(),
  last: bigint("last", { mode: "bigint" }).notNull(),
});

/**
 * A credit note: a correction of one sent invoice (docs/decisions.md, Credit notes). Immutable
 * once written. Amounts are in the invoice's unit (its price currency, else its asset).
 */
export const creditNotes = pgTable(
  "credit_notes",
  {
    id: idColumn(),
    wallet: text("wallet").notNull(),
    number: text("number").notNull(),
    invoiceId: invoiceIdRef(),
    kind: text("kind", { enum: CREDIT_NOTE_KINDS }).notNull(),
    reason: text("reason").notNull(),
    lines: jsonb("lines").$type<CreditLine[]>().notNull(),
    subtotal: amount("subtotal").notNull(),
    discount: amount("discount").notNull().default("0"),
    taxBreakdown: jsonb("tax_breakdown").$type<TaxBreakdownRow[]>().notNull(),
    taxAmount: amount("tax_amount").notNull(),
    total: amount("total").notNull(),
    /** The invoice's unit: its price currency (USD, EUR), else its asset. */
    unit: text("unit").notNull(),
    /** The tax in the invoice's tax currency at the rate it fixed when sent, if it has one. */
    taxCurrency: text("tax_currency"),
    taxExchangeRate: numeric("tax_exchange_rate", { precision: 30, scale: 12 }),
    taxAmountInTaxCurrency: numeric("tax_amount_in_tax_currency", { precision: 20, scale: 2 }),
    taxBreakdownInTaxCurrency: jsonb("tax_breakdown_in_tax_currency").$type<
      Pick<TaxBreakdownRow, "category" | "rate" | "taxableAmount" | "taxAmount">[]
    >(),
    /** The refund it goes with (a refund of a paid invoice); a refund has at most one. */
    refundId: text("refund_id").references(() => refunds.id, { onDelete: "set null" }),
    /**
     * What `q` searches (docs/decisions.md, Search): its number, its invoice's client and title,
     * its reason, lines and invoice number; set by a trigger at the insert (it never changes).
     */
    searchText: text("search_text"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("credit_notes_wallet_number_key").on(t.wallet, t.number),
    uniqueIndex("credit_notes_refund_key").on(t.refundId).where(sql`${t.refundId} is not null`),
    index("credit_notes_invoice_idx").on(t.invoiceId, t.createdAt),
    index("credit_notes_owner_created_idx").on(t.wallet, t.createdAt, t.id),
    index("credit_notes_search_keys_idx").using("gin", searchKeys(t.wallet, t.searchText)),
  ],
);
