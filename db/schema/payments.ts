import {
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { invoices } from "./invoices";

/** A confirmed ledger payment of an invoice. A transaction hash pays at most one invoice. */
export const payments = pgTable(
  "payments",
  {
    id: text("id").primaryKey(),
    invoiceId: text("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    transactionHash: text("transaction_hash").notNull(),
    ledgerNumber: integer("ledger_number").notNull(),
    fromWallet: text("from_wallet").notNull(),
    toWallet: text("to_wallet").notNull(),
    amount: numeric("amount", { precision: 18, scale: 7 }).notNull(),
    asset: text("asset", { enum: ["XLM", "USDC", "EURC"] }).notNull(),
    status: text("status", { enum: ["CONFIRMED", "FAILED", "REFUNDED"] })
      .notNull()
      .default("CONFIRMED"),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    uniqueIndex("payments_transaction_hash_key").on(t.transactionHash),
    index("payments_invoice_idx").on(t.invoiceId),
  ],
);
