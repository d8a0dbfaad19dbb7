import PDFDocument from "pdfkit";
import { partyLines } from "@/lib/domain/address";
import { embedFacturX, pdfA3Options } from "@/lib/einvoice/facturx";
import { formatAmount, formatFiat, formatPriced, isZero, trimZeros } from "@/lib/format";
import { type MessageKey, schemeLabels, translator } from "@/lib/i18n";
import { formatDay, localizeAmount, localizeNumber } from "@/lib/i18n/format";
import { INK, loadFonts, MUTED, RULE } from "@/lib/services/invoices/pdf-render";
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
  const doc = new PDFDocument({
    size: "A4",
    margin: 50,
    compress: options.compress ?? true,
    ...(options.eInvoiceXml ? pdfA3Options(loadFonts().Body) : {}),
    info: {
      Title: `${tr("creditNote.title")} ${note.number}`,
      Author: invoice.freelancerName ?? invoice.freelancerCompany ?? invoice.freelancerWallet,
      Creator: "Stellar Invoicing",
    },
  });
  if (options.eInvoiceXml) embedFacturX(doc, options.eInvoiceXml);
  for (const [name, data] of Object.entries(loadFonts())) doc.registerFont(name, data);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const right = left + width;
  const bottom = () => doc.page.height - doc.page.margins.bottom;
  const money = (v: string) => amt(formatPriced(v, invoice));
  const unit = note.unit;

  doc.fillColor(INK).font("Bold").fontSize(24).text(tr("creditNote.title"), left, 50);
  doc.font("Body").fontSize(11).fillColor(MUTED).text(note.number, left, 80);
  doc
    .font("Body")
    .fontSize(9)
    .fillColor(MUTED)
    .text(tr("creditNote.issued", { date: day(note.createdAt) }), left, 56, {
      width,
      align: "right",
    })
    .text(
      tr("creditNote.corrects", {
        invoiceNumber: invoice.invoiceNumber,
        issueDate: day(invoice.sentAt ?? invoice.createdAt),
      }),
      left,
      70,
      { width, align: "right" },
    );

  let y = 120;
  const col = width / 2 - 10;
  const party = (
    side: "left" | "right",
    label: string,
    lines: (string | null)[],
    mono?: string,
  ) => {
    const x = side === "left" ? left : left + width / 2 + 10;
    doc.font("Bold").fontSize(8).fillColor(MUTED).text(label, x, y, { width: col });
    doc.font("Body").fontSize(10).fillColor(INK);
    for (const line of lines) if (line) doc.text(line, x, doc.y + 2, { width: col });
    if (mono)
      doc
        .font("Mono")
        .fontSize(7.5)
        .fillColor(MUTED)
        .text(mono, x, doc.y + 2, { width: col });
    return doc.y;
  };
  const fromEnd = party(
    "left",
    tr("creditNote.from"),
    [
      invoice.freelancerName,
      invoice.freelancerCompany,
      invoice.freelancerEmail,
      ...(options.sellerLines ?? []),
    ],
    invoice.freelancerWallet,
  );
  const toEnd = party("right", tr("creditNote.to"), [
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
  ]);
  y = Math.max(fromEnd, toEnd) + 16;

  doc.font("Bold").fontSize(10).fillColor(INK).text(tr("creditNote.reason"), left, y);
  doc
    .font("Body")
    .fontSize(10)
    .fillColor(INK)
    .text(note.reason, left, doc.y + 2, { width });
  y = doc.y + 16;

  const cols = {
    description: { x: left, w: width - 300 },
    tax: { x: right - 295, w: 40 },
    quantity: { x: right - 255, w: 55 },
    rate: { x: right - 195, w: 95 },
    amount: { x: right - 95, w: 95 },
  };
  doc.font("Bold").fontSize(8).fillColor(MUTED);
  doc.text(tr("creditNote.description"), cols.description.x, y, { width: cols.description.w });
  doc.text(tr("creditNote.vat"), cols.tax.x, y, { width: cols.tax.w, align: "right" });
  doc.text(tr("creditNote.quantity"), cols.quantity.x, y, {
    width: cols.quantity.w,
    align: "right",
  });
  doc.text(tr("creditNote.rate", { unit }), cols.rate.x, y, { width: cols.rate.w, align: "right" });
  doc.text(tr("creditNote.amount", { unit }), cols.amount.x, y, {
    width: cols.amount.w,
    align: "right",
  });
  y += 14;
  doc.moveTo(left, y).lineTo(right, y).lineWidth(0.5).strokeColor(RULE).stroke();
  y += 6;
  doc.font("Body").fontSize(10);
  for (const line of note.lines) {
    const h = Math.max(doc.heightOfString(line.description, { width: cols.description.w }), 12);
    if (y + h > bottom() - 10) {
      doc.addPage();
      y = doc.page.margins.top;
    }
    doc.fillColor(INK).text(line.description, cols.description.x, y, { width: cols.description.w });
    doc.text(`${num(trimZeros(line.taxRate ?? invoice.taxRate))}%`, cols.tax.x, y, {
      width: cols.tax.w,
      align: "right",
    });
    doc.text(num(trimZeros(line.quantity)), cols.quantity.x, y, {
      width: cols.quantity.w,
      align: "right",
    });
    doc.text(amt(formatAmount(line.rate)), cols.rate.x, y, { width: cols.rate.w, align: "right" });
    doc.text(amt(formatAmount(line.amount)), cols.amount.x, y, {
      width: cols.amount.w,
      align: "right",
    });
    y += h + 6;
  }
  doc.moveTo(left, y).lineTo(right, y).lineWidth(0.5).strokeColor(RULE).stroke();
  y += 10;

  const rows: [string, string, boolean][] = [
    [tr("creditNote.subtotal"), money(note.subtotal), false],
  ];
  if (!isZero(note.discount))
    rows.push([tr("creditNote.discount"), `-${money(note.discount)}`, false]);
  for (const r of note.taxBreakdown) {
    const base = money(r.taxableAmount);
    rows.push([
      r.category === "S"
        ? tr("creditNote.taxRow", { rate: num(trimZeros(r.rate)), base })
        : tr("creditNote.exemptRow", {
            category: tr(`tax.name.${r.category}` as MessageKey),
            code: r.category,
            base,
          }),
      money(r.taxAmount),
      false,
    ]);
  }
  rows.push([tr("creditNote.totalTax"), money(note.taxAmount), false]);
  rows.push([tr("creditNote.total"), money(note.total), true]);
  if (note.taxCurrency && note.taxAmountInTaxCurrency) {
    rows.push([
      tr("creditNote.taxInCurrency", { currency: note.taxCurrency }),
      amt(formatFiat(note.taxAmountInTaxCurrency, note.taxCurrency)),
      false,
    ]);
  }
  if (y + rows.length * 18 + 80 > bottom()) {
    doc.addPage();
    y = doc.page.margins.top;
  }
  for (const [label, value, strong] of rows) {
    doc
      .font(strong ? "Bold" : "Body")
      .fontSize(strong ? 12 : 10)
      .fillColor(INK);
    const h = doc.heightOfString(label, { width: 180 });
    doc.text(label, right - 330, y, { width: 180 });
    doc.text(value, right - 200, y, { width: 200, align: "right" });
    y += Math.max(strong ? 20 : 16, h + 4);
  }
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
