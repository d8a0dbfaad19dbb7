import { index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { amount, idColumn, ts } from "./columns";
import { invoiceIdRef } from "./invoices";
import { payments } from "./payments";

/** A refund's life: built (PENDING), sent (SUBMITTED), on the ledger (CONFIRMED), or not. */
export const REFUND_STATUSES = ["PENDING", "SUBMITTED", "CONFIRMED", "FAILED", "EXPIRED"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/**
 * Money sent back from the freelancer's wallet to the sender of a recorded payment
 * (docs/decisions.md, Refunds). The row is created with the unsigned transaction; it is
 * confirmed once, by the submit endpoint or by the watcher seeing its memo on the ledger.
 */
export const refunds = pgTable(
  "refunds",
  {
    id: idColumn(),
    paymentId: text("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    invoiceId: invoiceIdRef(),
    /** The freelancer's wallet: the refund transaction's source. */
    wallet: text("wallet").notNull(),
    amount: amount("amount").notNull(),
    /** The asset the payment was received in (code and issuer; no issuer for XLM). */
    asset: text("asset").notNull(),
    assetIssuer: text("asset_issuer"),
    /** The payment's sender. */
    destination: text("destination").notNull(),
    /** Text memo `RF-<id>` (at most 28 bytes): how the watcher recognises the refund. */
    memo: text("memo").notNull(),
    status: text("status", { enum: REFUND_STATUSES }).notNull().default("PENDING"),
    /** The unsigned transaction handed to the freelancer's wallet. */
    transactionXdr: text("transaction_xdr").notNull(),
    transactionHash: text("transaction_hash"),
    ledgerNumber: integer("ledger_number"),
    createdAt: ts("created_at").notNull(),
    /** End of the transaction's time bounds (300 s after it was built). */
    expiresAt: ts("expires_at").notNull(),
    confirmedAt: ts("confirmed_at"),
  },
  (t) => [
    uniqueIndex("refunds_memo_key").on(t.memo),
    uniqueIndex("refunds_transaction_hash_key").on(t.transactionHash),
    index("refunds_payment_idx").on(t.paymentId, t.status),
    index("refunds_invoice_idx").on(t.invoiceId),
  ],
);
