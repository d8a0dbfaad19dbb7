import { partyLines } from "@/lib/domain/address";
import { formatFiat, formatPriced, isZero, trimZeros } from "@/lib/format";
import { schemeLabels, translator } from "@/lib/i18n";
import { formatDay, localizeAmount, localizeNumber } from "@/lib/i18n/format";
import {
  breakdownRows,
  drawHeader,
  drawItems,
  drawParties,
  drawTotals,
  INK,
  MUTED,
  openPdf,
  type TotalRow,
  taxedItemRows,
} from "@/lib/services/documents/pdf-frame";
import type { InvoiceRow } from "@/lib/services/invoices/store";
import type { CreditNoteRow } from "./credit-notes";
import { creditNoteLanguage } from "./language";

/** The seller's lines from the profile, as the invoice PDF prints them. */
export type CreditNotePdfOptions = {
  sellerLines?: string[];
  compress?: boolean;
  /** Its EN 16931 CII XML (type 381): the PDF becomes Factur-X (lib/einvoice/facturx.ts). */
  eInvoiceXml?: string | null;
};

/**
 * The credit note as a PDF (A4, the invoice PDF's fonts and colours; docs/decisions.md, Credit
 * notes): title and number, the invoice it corrects, seller and buyer with their tax ids, the
 * reason, the credited lines with their rates, the tax breakdown and the totals, and the tax in
 * the invoice's tax currency when it has one. Every word through the i18n catalogue.
 */
export function renderCreditNotePdf(
  note: CreditNoteRow,
  invoice: InvoiceRow,
  options: CreditNotePdfOptions = {},
): Promise<Buffer> {
  const lang = creditNoteLanguage(invoice);
  const tr = translator(lang);
  // Numbers and dates in the invoice's language, as its PDF writes them (lib/i18n/format.ts).
  const day = (d: Date) => formatDay(d, lang);
  const num = (v: string) => localizeNumber(v, lang);
  const amt = (text: string) => localizeAmount(text, lang);
  const frame = openPdf({
    compress: options.compress,
    eInvoiceXml: options.eInvoiceXml,
    info: {
      Title: `${tr("creditNote.title")} ${note.number}`,
      Author: invoice.freelancerName ?? invoice.freelancerCompany ?? invoice.freelancerWallet,
    },
  });
  const { doc, done, left, width } = frame;
  const money = (v: string) => amt(formatPriced(v, invoice));
  const unit = note.unit;

  drawHeader(frame, {
    title: tr("creditNote.title"),
    number: note.number,
    lines: [
      { text: tr("creditNote.issued", { date: day(note.createdAt) }) },
      {
        text: tr("creditNote.corrects", {
          invoiceNumber: invoice.invoiceNumber,
          issueDate: day(invoice.sentAt ?? invoice.createdAt),
        }),
      },
    ],
  });
  let y =
    drawParties(
      frame,
      120,
      {
        label: tr("creditNote.from"),
        lines: [
          invoice.freelancerName,
          invoice.freelancerCompany,
          invoice.freelancerEmail,
          ...(options.sellerLines ?? []),
        ],
        wallet: invoice.freelancerWallet,
      },
      {
        label: tr("creditNote.to"),
        lines: [
          invoice.clientName,
          invoice.clientCompany,
          invoice.clientEmail,
          ...partyLines(
            {
              address: invoice.clientAddress,
              postalAddress: invoice.clientPostalAddress,
              taxId: invoice.clientTaxId,
              taxScheme: invoice.clientTaxScheme,
            },
            schemeLabels(lang),
          ),
        ],
      },
    ) + 16;

  doc.font("Bold").fontSize(10).fillColor(INK).text(tr("creditNote.reason"), left, y);
  doc
    .font("Body")
    .fontSize(10)
    .fillColor(INK)
    .text(note.reason, left, doc.y + 2, { width });
  y = doc.y + 16;

  y = drawItems(
    frame,
    y,
    {
      description: tr("creditNote.description"),
      tax: tr("creditNote.vat"),
      quantity: tr("creditNote.quantity"),
      rate: tr("creditNote.rate", { unit }),
      amount: tr("creditNote.amount", { unit }),
    },
    taxedItemRows(note.lines, invoice.taxRate, { num, amt }),
  );

  const rows: TotalRow[] = [[tr("creditNote.subtotal"), money(note.subtotal), false]];
  if (!isZero(note.discount))
    rows.push([tr("creditNote.discount"), `-${money(note.discount)}`, false]);
  rows.push(...breakdownRows(note.taxBreakdown, tr, money, { num }));
  rows.push([tr("creditNote.totalTax"), money(note.taxAmount), false]);
  rows.push([tr("creditNote.total"), money(note.total), true]);
  if (note.taxCurrency && note.taxAmountInTaxCurrency) {
    rows.push([
      tr("creditNote.taxInCurrency", { currency: note.taxCurrency }),
      amt(formatFiat(note.taxAmountInTaxCurrency, note.taxCurrency)),
      false,
    ]);
  }
  y = drawTotals(frame, y, rows, { reserve: 80, wide: true });
  doc.font("Body").fontSize(9).fillColor(MUTED);
  if (note.taxCurrency && note.taxExchangeRate) {
    doc.text(
      tr("creditNote.taxRateNote", {
        currency: note.taxCurrency,
        unit,
        rate: num(trimZeros(note.taxExchangeRate)),
        invoiceNumber: invoice.invoiceNumber,
      }),
      left,
      y,
      { width },
    );
    y = doc.y + 4;
  }
  if (note.refundId)
    doc.text(tr("creditNote.refund", { refundId: note.refundId }), left, y, { width });
  doc.end();
  return done;
}
