import type { AuthedContext, ServiceContext } from "../context";
import {
  assertOwner,
  getLiveInvoice,
  getLiveInvoiceWithItems,
  type InvoiceWithItems,
  loadOwnerView,
  type OwnerInvoice,
} from "./store";

/** The public view's data (the serializer leaves out emails, addresses, notes, audit). */
export async function getPublicInvoice(ctx: ServiceContext, id: string): Promise<InvoiceWithItems> {
  return getLiveInvoiceWithItems(ctx.db, id);
}

/** Owner view: every field, payments and the audit trail; 403 for another wallet. */
export async function getOwnerInvoice(ctx: AuthedContext, id: string): Promise<OwnerInvoice> {
  const row = await getLiveInvoice(ctx.db, id);
  assertOwner(row, ctx.wallet);
  return loadOwnerView(ctx.db, row);
}
