import { index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { CURRENCIES } from "../../lib/domain/money";
import { amount, idColumn, ts } from "./columns";
import { invoiceIdRef } from "./invoices";

/** A confirmed ledger payment of an invoice. A transaction hash pays at most one invoice. */
export const payments = pgTable(
  "payments",
  {
    id: idColumn(),
    invoiceId: invoiceIdRef(),
    transactionHash: text("transaction_hash").notNull(),
    ledgerNumber: integer("ledger_number").notNull(),
    fromWallet: text("from_wallet").notNull(),
    toWallet: text("to_wallet").notNull(),
    amount: amount("amount").notNull(),
    asset: text("asset", { enum: CURRENCIES }).notNull(),
    status: text("status", { enum: ["CONFIRMED", "FAILED", "REFUNDED"] })
      .notNull()
      .default("CONFIRMED"),
    confirmedAt: ts("confirmed_at").notNull(),
  },
  (t) => [
    uniqueIndex("payments_transaction_hash_key").on(t.transactionHash),
    index("payments_invoice_idx").on(t.invoiceId),
  ],
);
