import { boolean, index, integer, numeric, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { type Currency, PRICE_CURRENCIES } from "../../lib/domain/money";
import { UNAPPLIED_REASONS } from "../../lib/domain/unapplied";
import { amount, idColumn, ts } from "./columns";
import { invoiceIdRef } from "./invoices";

/** Why a recorded payment does not count (lib/domain/unapplied.ts). */
export { UNAPPLIED_REASONS };

/**
 * One payment operation that reached an invoice's freelancer wallet with its memo: one row per
 * (transaction hash, operation index). A transaction's operations to one wallet belong to one
 * invoice and are recorded together (docs/decisions.md, Partial payments).
 */
export const payments = pgTable(
  "payments",
  {
    id: idColumn(),
    invoiceId: invoiceIdRef(),
    /** The ledger's hash of the transaction: the outer hash of a fee-bump transaction. */
    transactionHash: text("transaction_hash").notNull(),
    /** A fee-bump transaction's inner hash (either hash finds the payment); null otherwise. */
    innerTransactionHash: text("inner_transaction_hash"),
    /**
     * The operation's network-wide id (Horizon's operation id, a TOID): one payment operation
     * is one row whatever hash or path reached it (docs/decisions.md, Fee-bump transactions).
     * Null on rows recorded before it was kept.
     */
    operationId: text("operation_id"),
    ledgerNumber: integer("ledger_number").notNull(),
    fromWallet: text("from_wallet").notNull(),
    toWallet: text("to_wallet").notNull(),
    amount: amount("amount").notNull(),
    /** Index of the operation in its transaction (0 for rows recorded before partial payments). */
    operationIndex: integer("operation_index").notNull().default(0),
    /** The asset code received: the invoice currency, or another asset (unapplied, wrong_asset). */
    asset: text("asset").$type<Currency | (string & {})>().notNull(),
    /** Issuer of a non-native asset as received (null for XLM). */
    assetIssuer: text("asset_issuer"),
    /** Counts towards the invoice's amountPaid; otherwise `unappliedReason` says why not. */
    applied: boolean("applied").notNull().default(true),
    unappliedReason: text("unapplied_reason", { enum: UNAPPLIED_REASONS }),
    /** Sent back to the payer so far (refunds). */
    amountRefunded: amount("amount_refunded").notNull().default("0"),
    status: text("status", { enum: ["CONFIRMED", "FAILED", "REFUNDED"] })
      .notNull()
      .default("CONFIRMED"),
    confirmedAt: ts("confirmed_at").notNull(),
    /**
     * The value in the freelancer's reporting currency when received (docs/decisions.md,
     * Fiat pricing): `amount` x `rate` (2 decimals, half up), the rate's source and time.
     * Null when no price was known when it was recorded.
     */
    fiatCurrency: text("fiat_currency", { enum: PRICE_CURRENCIES }),
    fiatValue: numeric("fiat_value", { precision: 18, scale: 2 }),
    rate: numeric("rate", { precision: 30, scale: 12 }),
    rateSource: text("rate_source"),
    rateAt: ts("rate_at"),
    /**
     * Fiat-priced invoices: what the payment counts for in the invoice's priceCurrency, to 7
     * decimals (never rounded to the cent per payment: many small payments must not each
     * round up; docs/decisions.md, Fiat pricing).
     */
    priceValue: amount("price_value"),
    /** The rate priceValue was computed at (the quote's, or the current one when late). */
    priceRate: numeric("price_rate", { precision: 30, scale: 12 }),
    /** The quote live when its ledger closed; null when none was (then `paidLate`). */
    quoteId: text("quote_id"),
    paidLate: boolean("paid_late").notNull().default(false),
  },
  (t) => [
    uniqueIndex("payments_transaction_operation_key").on(t.transactionHash, t.operationIndex),
    uniqueIndex("payments_operation_id_key").on(t.operationId),
    index("payments_transaction_hash_idx").on(t.transactionHash),
    index("payments_invoice_idx").on(t.invoiceId),
    // Exports page through a wallet's payments by time (lib/services/exports).
    index("payments_wallet_confirmed_idx").on(t.toWallet, t.confirmedAt, t.id),
  ],
);
