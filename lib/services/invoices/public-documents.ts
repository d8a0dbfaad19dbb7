import type { Config } from "@/lib/config";
import { NotFoundError } from "@/lib/domain/errors";
import type { ServiceContext } from "../context";
import { getLink } from "../links/links";
import { signId, verifySignedId } from "../signed-ids";
import { INVOICE_NOT_FOUND, type PaymentRow } from "./store";
import { getPublicInvoice, type PublicInvoice } from "./view-invoice";

// The checkout's documents (docs/decisions.md, Checkout documents): the invoice PDF and the
// receipt for the client, without sign-in, behind a capability link that only the payment page
// `/pay/<id>` shows: `/api/documents/<invoiceId>.<mac>/{invoice,receipt}`, the mac an HMAC of
// the id under JWT_SECRET with its own purpose (lib/services/signed-ids.ts, as unsubscribe links).
// A token that is not ours answers 404 `Invoice not found`, as an unknown invoice does; an
// invoice the payment page does not show (deleted, an expired link) is 404 too.

const PURPOSE = "documents:v1";

export const documentsToken = (config: Pick<Config, "jwtSecret">, invoiceId: string) =>
  signId(config.jwtSecret, PURPOSE, invoiceId);

/** The page's two links (same origin): the PDF and the printable receipt. */
export const documentPaths = (config: Pick<Config, "jwtSecret">, invoiceId: string) => {
  const base = `/api/documents/${documentsToken(config, invoiceId)}`;
  return { invoicePdf: `${base}/invoice`, receipt: `${base}/receipt` };
};

export const NO_RECEIPT_YET = "No payment has been received for this invoice yet";

/** The invoice a documents token opens, under the payment page's own rules; else 404. */
export async function documentsInvoice(ctx: ServiceContext, token: string): Promise<PublicInvoice> {
  const id = verifySignedId(ctx.config.jwtSecret, PURPOSE, token);
  if (!id) throw new NotFoundError(INVOICE_NOT_FOUND);
  const invoice = await getPublicInvoice(ctx, id);
  // A link past its expiry without payment is gone from /pay/<id>: its documents too.
  if (invoice.kind === "LINK") {
    await getLink(ctx, id).catch((err) => {
      throw err instanceof NotFoundError ? new NotFoundError(INVOICE_NOT_FOUND) : err;
    });
  }
  return invoice;
}

/**
 * The same PDF the owner downloads (its cache and worker threads, lib/services/invoices/invoice-pdf.ts),
 * loaded on first use: the checkout page imports this module for `documentPaths` and must not
 * load the PDF and e-invoice code with it (ARCHITECTURE.md, Memory: cold start).
 */
export async function documentsInvoicePdf(
  ctx: ServiceContext,
  token: string,
): Promise<{ invoice: PublicInvoice; pdf: Buffer }> {
  const invoice = await documentsInvoice(ctx, token);
  const { invoicePdf } = await import("./invoice-pdf");
  return { invoice, pdf: await invoicePdf(ctx.db, ctx.config, invoice) };
}

/** The payments a receipt lists: those that counted towards the invoice, oldest first. */
export const receiptPayments = (invoice: PublicInvoice): PaymentRow[] =>
  invoice.payments
    .filter((p) => p.applied)
    .sort((a, b) => a.confirmedAt.getTime() - b.confirmedAt.getTime());

/** The receipt's invoice and payments; 404 `No payment ... yet` before any counted. */
export async function documentsReceipt(
  ctx: ServiceContext,
  token: string,
): Promise<{ invoice: PublicInvoice; payments: PaymentRow[] }> {
  const invoice = await documentsInvoice(ctx, token);
  const payments = receiptPayments(invoice);
  if (payments.length === 0) throw new NotFoundError(NO_RECEIPT_YET);
  return { invoice, payments };
}
