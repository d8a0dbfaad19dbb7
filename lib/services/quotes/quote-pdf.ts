import PDFDocument from "pdfkit";
import { partyLines } from "@/lib/domain/address";
import { breakdownOf } from "@/lib/domain/tax";
import { formatAmount, formatPriced, isZero, trimZeros } from "@/lib/format";
import { type MessageKey, schemeLabels, translator } from "@/lib/i18n";
import { formatDay, localizeAmount, localizeNumber } from "@/lib/i18n/format";
import type { QuoteInvoiceBody } from "@/lib/schemas/quotes";
import type { ServiceContext } from "@/lib/services/context";
import { INK, loadFonts, MUTED, RULE } from "@/lib/services/invoices/pdf-render";
import { getProfile, pdfProfileOf } from "@/lib/services/profile/profile";
import { getPublicQuote } from "./quotes";
import type { QuoteRow } from "./store";

/**
 * A quote as a PDF (A4, the invoice PDF's fonts and colours; docs/decisions.md, Quotes), in the
 * quote's language: title and number, issue date and validity, seller and buyer, the lines with
 * their tax, the tax breakdown and the total. The client's copy: no notes, no emails.
 */
export function renderQuotePdf(
  quote: QuoteRow,
  options: { sellerLines?: string[]; compress?: boolean } = {},
): Promise<Buffer> {
  const lang = quote.language;
  const tr = translator(lang);
  const body = quote.body as QuoteInvoiceBody;
  const day = (d: Date) => formatDay(d, lang);
  const num = (v: string) => localizeNumber(v, lang);
  const amt = (text: string) => localizeAmount(text, lang);
  const money = (v: string) => amt(formatPriced(v, quote));
  const unit = quote.priceCurrency ?? quote.currency;
  const doc = new PDFDocument({
    size: "A4",
    margin: 50,
    compress: options.compress ?? true,
    info: {
      Title: tr("quote.heading", { number: quote.number }),
      Author: body.freelancerName ?? body.freelancerCompany ?? quote.wallet,
      Creator: "Stellar Invoicing",
    },
  });
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

  doc.fillColor(INK).font("Bold").fontSize(24).text(tr("quote.title"), left, 50);
  doc.font("Body").fontSize(11).fillColor(MUTED).text(quote.number, left, 80);
  doc
    .font("Body")
    .fontSize(9)
    .fillColor(MUTED)
    .text(tr("quote.issued", { date: day(quote.sentAt ?? quote.createdAt) }), left, 56, {
      width,
      align: "right",
    })
    .text(
      tr("quote.validUntil", { date: day(new Date(`${quote.validUntil}T00:00:00Z`)) }),
      left,
      70,
      { width, align: "right" },
    );

  let y = 120;
  const col = width / 2 - 10;
  const party = (side: "left" | "right", label: string, lines: (string | null | undefined)[]) => {
    const x = side === "left" ? left : left + width / 2 + 10;
    doc.font("Bold").fontSize(8).fillColor(MUTED).text(label, x, y, { width: col });
    doc.font("Body").fontSize(10).fillColor(INK);
    for (const line of lines) if (line) doc.text(line, x, doc.y + 2, { width: col });
    return doc.y;
  };
  const fromEnd = party("left", tr("quote.from"), [
    body.freelancerName,
    body.freelancerCompany,
    ...(options.sellerLines ?? []),
  ]);
  const toEnd = party("right", tr("quote.to"), [
    quote.clientName,
    body.clientCompany,
    ...partyLines(
      {
        address: body.clientAddress ?? null,
        postalAddress: (body.clientPostalAddress ?? null) as never,
        taxId: body.clientTaxId ?? null,
        taxScheme: body.clientTaxScheme ?? null,
      },
      schemeLabels(lang),
    ),
  ]);
  y = Math.max(fromEnd, toEnd) + 16;
  doc.font("Bold").fontSize(12).fillColor(INK).text(quote.title, left, y, { width });
  if (body.description) {
    doc
      .font("Body")
      .fontSize(10)
      .text(body.description, left, doc.y + 4, { width });
  }
  y = doc.y + 16;

  const cols = {
    description: { x: left, w: width - 300 },
    tax: { x: right - 295, w: 40 },
    quantity: { x: right - 255, w: 55 },
    rate: { x: right - 195, w: 95 },
    amount: { x: right - 95, w: 95 },
  };
  doc.font("Bold").fontSize(8).fillColor(MUTED);
  doc.text(tr("quote.description"), cols.description.x, y, { width: cols.description.w });
  doc.text(tr("quote.tax"), cols.tax.x, y, { width: cols.tax.w, align: "right" });
  doc.text(tr("quote.quantity"), cols.quantity.x, y, { width: cols.quantity.w, align: "right" });
  doc.text(tr("quote.rate", { unit }), cols.rate.x, y, { width: cols.rate.w, align: "right" });
  doc.text(tr("quote.amount", { unit }), cols.amount.x, y, {
    width: cols.amount.w,
    align: "right",
  });
  y += 14;
  doc.moveTo(left, y).lineTo(right, y).lineWidth(0.5).strokeColor(RULE).stroke();
  y += 6;
  doc.font("Body").fontSize(10);
  for (const line of quote.lineItems) {
    const h = Math.max(doc.heightOfString(line.description, { width: cols.description.w }), 12);
    if (y + h > bottom() - 10) {
      doc.addPage();
      y = doc.page.margins.top;
    }
    doc.fillColor(INK).text(line.description, cols.description.x, y, { width: cols.description.w });
    doc.text(`${num(trimZeros(line.taxRate ?? quote.taxRate))}%`, cols.tax.x, y, {
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

  const rows: [string, string, boolean][] = [[tr("quote.subtotal"), money(quote.subtotal), false]];
  if (!isZero(quote.discount))
    rows.push([tr("quote.discount"), `-${money(quote.discount)}`, false]);
  for (const r of breakdownOf(quote)) {
    if (isZero(r.taxAmount) && r.category === "S") continue;
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
  rows.push([tr("quote.total"), money(quote.total), true]);
  if (y + rows.length * 18 + 60 > bottom()) {
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
  doc
    .font("Body")
    .fontSize(9)
    .fillColor(MUTED)
    .text(tr("quote.paidIn", { asset: quote.currency }), left, y + 8, { width });
  doc.end();
  return done;
}

/** GET /api/quotes/:id/pdf: the quote's PDF, for the client's page and the owner alike. */
export async function quotePdf(
  ctx: ServiceContext,
  id: string,
): Promise<{ pdf: Buffer; number: string }> {
  const quote = await getPublicQuote(ctx, id);
  const profile = await getProfile(ctx.db, quote.wallet);
  const lines = pdfProfileOf(profile, quote.language)?.lines ?? [];
  const pdf = await renderQuotePdf(quote, {
    sellerLines: lines.filter((l): l is string => Boolean(l)),
  });
  return { pdf, number: quote.number };
}
