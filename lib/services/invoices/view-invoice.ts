import { asc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { isRootDatabase, prepared } from "@/db/prepared";
import { payments } from "@/db/schema";
import type { AuthedContext, ServiceContext } from "../context";
import {
  assertOwner,
  getLiveInvoice,
  getLiveInvoiceWithItems,
  type InvoiceWithItems,
  loadOwnerView,
  type OwnerInvoice,
  type PaymentRow,
} from "./store";

/** The payer's view: the invoice, its line items and the payments received for it. */
export type PublicInvoice = InvoiceWithItems & { payments: PaymentRow[] };

const paymentsQuery = (db: DbOrTx) =>
  db
    .select()
    .from(payments)
    .where(eq(payments.invoiceId, sql.placeholder("invoiceId")))
    .orderBy(
      asc(payments.confirmedAt),
      asc(payments.transactionHash),
      asc(payments.operationIndex),
    );

/**
 * Every payment recorded for an invoice, applied or not, oldest first and in operation order
 * within a transaction (the checkout's receipt and the status polled by it: a hot path).
 */
export async function loadPayments(db: DbOrTx, invoiceId: string): Promise<PaymentRow[]> {
  const query = isRootDatabase(db)
    ? prepared(db, "invoice_payments", (d) => paymentsQuery(d).prepare("invoice_payments"))
    : paymentsQuery(db);
  return query.execute({ invoiceId });
}

/** The public view's data (the serializer leaves out emails, addresses, notes, audit). */
export async function getPublicInvoice(ctx: ServiceContext, id: string): Promise<PublicInvoice> {
  const invoice = await getLiveInvoiceWithItems(ctx.db, id);
  return { ...invoice, payments: await loadPayments(ctx.db, invoice.id) };
}

/** Owner view: every field, payments and the audit trail; 403 for another wallet. */
export async function getOwnerInvoice(ctx: AuthedContext, id: string): Promise<OwnerInvoice> {
  const row = await getLiveInvoice(ctx.db, id);
  assertOwner(row, ctx.wallet);
  return loadOwnerView(ctx.db, row);
}
