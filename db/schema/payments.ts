import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { PAYMENT_METHODS } from "../../lib/domain/manual-payment";
import { type Currency, PRICE_CURRENCIES } from "../../lib/domain/money";
import { UNAPPLIED_REASONS } from "../../lib/domain/unapplied";
import { amount, idColumn, ts } from "./columns";
import { invoiceIdRef } from "./invoices";

/** Why a recorded payment does not count (lib/domain/unapplied.ts). */
/**
 * How a payment reached the freelancer: `stellar` (a ledger operation) or one the owner
 * recorded by hand (lib/domain/manual-payment.ts; docs/decisions.md, Payments received
 * outside Stellar), which has no transaction hash, ledger or sender wallet.
 */
export { PAYMENT_METHODS, UNAPPLIED_REASONS };

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
    /**
     * The ledger's hash of the transaction: the outer hash of a fee-bump transaction. Null
     * for a payment received outside Stellar (`method` other than `stellar`).
     */
    transactionHash: text("transaction_hash"),
    /** A fee-bump transaction's inner hash (either hash finds the payment); null otherwise. */
    innerTransactionHash: text("inner_transaction_hash"),
    /**
     * The operation's network-wide id (Horizon's operation id, a TOID): one payment operation
     * is one row whatever hash or path reached it (docs/decisions.md, Fee-bump transactions).
     * Null on rows recorded before it was kept.
     */
    operationId: text("operation_id"),
    /** Null for a payment received outside Stellar, as is the sender. */
    ledgerNumber: integer("ledger_number"),
    fromWallet: text("from_wallet"),
    /**
     * The sender's full address when it is not `fromWallet` itself: the `M...` muxed account
     * the payer sent from (its refund goes back there; docs/decisions.md, Muxed addresses).
     * Null otherwise.
     */
    fromAddress: text("from_address"),
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
    /** VOIDED: a payment recorded by hand that the owner withdrew (it no longer counts). */
    status: text("status", { enum: ["CONFIRMED", "FAILED", "REFUNDED", "VOIDED"] })
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
    /** `stellar`, or how a payment recorded by hand was received. */
    method: text("method", { enum: PAYMENT_METHODS }).notNull().default("stellar"),
    /** A payment recorded by hand: the owner's reference (bank reference, receipt number). */
    reference: text("reference"),
    /** A payment recorded by hand: who recorded it (the audit actor) and when. */
    recordedBy: text("recorded_by"),
    recordedAt: ts("recorded_at"),
    /** A payment recorded by hand and withdrawn: when, and by whom. */
    voidedAt: ts("voided_at"),
    voidedBy: text("voided_by"),
  },
  (t) => [
    uniqueIndex("payments_transaction_operation_key").on(t.transactionHash, t.operationIndex),
    uniqueIndex("payments_operation_id_key").on(t.operationId),
    index("payments_transaction_hash_idx").on(t.transactionHash),
    index("payments_invoice_idx").on(t.invoiceId),
    // Exports page through a wallet's payments by time (lib/services/exports).
    index("payments_wallet_confirmed_idx").on(t.toWallet, t.confirmedAt, t.id),
    // A ledger payment has its transaction, ledger and sender; one recorded by hand has none.
    check(
      "payments_ledger_facts_by_method",
      sql`(${t.method} = 'stellar') = (${t.transactionHash} IS NOT NULL AND ${t.ledgerNumber} IS NOT NULL AND ${t.fromWallet} IS NOT NULL)`,
    ),
  ],
);
