import { bigint, date, index, numeric, pgTable, text } from "drizzle-orm/pg-core";
import { INVOICE_STATUSES } from "../../lib/domain/invoice-state";
import { CURRENCIES } from "../../lib/domain/money";

/**
 * The statistics kept as the books change (GET /api/invoices/stats; docs/decisions.md,
 * Statistics at scale). Append-only deltas: triggers on `invoices` and `payments` (migration
 * 0036) add, in the writing statement's own transaction, one row per group the statement
 * changed with what it changed (signed); the statistics read the sum of a wallet's rows, and
 * `compact_invoice_stats(wallet)` folds them into one row per group. No row is ever updated,
 * so concurrent writers never wait for each other here. `rebuild_invoice_stats(wallet)`
 * recomputes a wallet's rows from the invoices and payments (scripts/rebuild-stats.ts).
 * A group's price currency is '' when the invoice is priced in its asset.
 */
export const invoiceStats = pgTable(
  "invoice_stats",
  {
    freelancerWallet: text("freelancer_wallet").notNull(),
    networkPassphrase: text("network_passphrase").notNull(),
    kind: text("kind", { enum: ["INVOICE", "LINK"] }).notNull(),
    currency: text("currency", { enum: CURRENCIES }).notNull(),
    priceCurrency: text("price_currency", { enum: ["", "USD", "EUR"] }).notNull(),
    status: text("status", { enum: INVOICE_STATUSES }).notNull(),
    /** Live (not deleted) invoices in the group. */
    invoices: bigint("invoices", { mode: "number" }).notNull(),
    /** Sum of total - amountCredited. */
    net: numeric("net").notNull(),
    /** Sum of what is still due (a fiat-priced invoice's amountPaid in cents). */
    due: numeric("due").notNull(),
    /** Sum of what credit notes took back beyond what was still due (credited against money received). */
    creditedOver: numeric("credited_over").notNull(),
  },
  (t) => [index("invoice_stats_wallet_idx").on(t.freelancerWallet)],
);

/**
 * The applied payments of live invoices, per invoice group as above, UTC month of
 * confirmation and the payment's fiat currency ('' when it has no fiat value).
 */
export const paymentStats = pgTable(
  "payment_stats",
  {
    freelancerWallet: text("freelancer_wallet").notNull(),
    networkPassphrase: text("network_passphrase").notNull(),
    kind: text("kind", { enum: ["INVOICE", "LINK"] }).notNull(),
    currency: text("currency", { enum: CURRENCIES }).notNull(),
    priceCurrency: text("price_currency", { enum: ["", "USD", "EUR"] }).notNull(),
    month: date("month", { mode: "string" }).notNull(),
    fiatCurrency: text("fiat_currency", { enum: ["", "USD", "EUR"] }).notNull(),
    /** Applied payments counted. */
    payments: bigint("payments", { mode: "number" }).notNull(),
    /** Sum of amount - amountRefunded, whatever the asset. */
    kept: numeric("kept").notNull(),
    /** The same, of payments in the invoice's own asset. */
    keptInAsset: numeric("kept_in_asset").notNull(),
    /** Sum of priceValue x kept / amount (fiat-priced invoices' payments with a priceValue). */
    keptValue: numeric("kept_value").notNull(),
    /** Sum of round(fiatValue x kept / amount, 2) (payments with a fiat value). */
    fiatKept: numeric("fiat_kept").notNull(),
  },
  (t) => [index("payment_stats_wallet_idx").on(t.freelancerWallet)],
);
