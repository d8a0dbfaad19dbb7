import type { AuthedContext, ServiceContext } from "../context";
import {
  assertOwner,
  getLiveInvoice,
  getLiveInvoiceWithItems,
  type InvoiceWithItems,
  loadOwnerView,
  loadPayments,
  type OwnerInvoice,
  type PaymentRow,
} from "./store";

/** The payer's view: the invoice, its line items and the payments received for it. */
export type PublicInvoice = InvoiceWithItems & { payments: PaymentRow[] };

/** The public view's data (the serializer leaves out emails, addresses, notes, audit). */
export async function getPublicInvoice(ctx: ServiceContext, id: string): Promise<PublicInvoice> {
  const invoice = await getLiveInvoiceWithItems(ctx.db, id);
  return { ...invoice, payments: await loadPayments(ctx.db, invoice.id) };
}

/** Owner view: every field, payments and the audit trail; 403 for another wallet. */
export async function getOwnerInvoice(ctx: AuthedContext, id: string): Promise<OwnerInvoice> {
  const row = await getLiveInvoice(ctx.db, id);
  assertOwner(row, ctx);
  return loadOwnerView(ctx.db, row);
}
