import type { DbOrTx } from "@/db/client";
import type { Config } from "@/lib/config";
import type { AuthedContext } from "@/lib/services/context";
import type { InvoiceRow } from "@/lib/services/invoices/store";
import { loadLineItems } from "@/lib/services/invoices/store";
import { getProfile, pdfProfileOf } from "@/lib/services/profile/profile";
import { renderCreditNotePdf } from "./credit-note-pdf";
import { type CreditNoteRow, getCreditNote } from "./credit-notes";
import { creditNoteFacturXXml } from "./einvoice";
import { creditNoteLanguage } from "./language";

/**
 * A credit note's PDF as the API serves it and its email attaches it: the profile's seller
 * lines in the invoice's language, and Factur-X (PDF/A-3b with its EN 16931 XML, type 381)
 * whenever it can become an e-invoice, as the invoice's PDF (docs/decisions.md, E-invoices).
 */
export async function creditNoteDocument(
  db: DbOrTx,
  config: Pick<Config, "appUrl" | "issuers">,
  note: CreditNoteRow,
  invoice: InvoiceRow,
): Promise<Buffer> {
  const [profile, lineItems] = await Promise.all([
    getProfile(db, invoice.freelancerWallet),
    loadLineItems(db, invoice.id),
  ]);
  const lines = pdfProfileOf(profile, creditNoteLanguage(invoice))?.lines ?? [];
  return renderCreditNotePdf(note, invoice, {
    sellerLines: lines.filter((l): l is string => Boolean(l)),
    eInvoiceXml: creditNoteFacturXXml(config, { ...invoice, lineItems }, profile, note),
  });
}

/** GET /api/credit-notes/:id/pdf: the owner's credit note as a PDF. */
export async function creditNotePdf(
  ctx: AuthedContext,
  id: string,
): Promise<{ pdf: Buffer; number: string }> {
  const { note, invoice } = await getCreditNote(ctx, id);
  return { pdf: await creditNoteDocument(ctx.db, ctx.config, note, invoice), number: note.number };
}
