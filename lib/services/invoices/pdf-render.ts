import fs from "node:fs";
import path from "node:path";
import PDFDocument from "pdfkit";
import QRCode from "qrcode";
import { addressLines, taxIdLine } from "@/lib/domain/address";
import { invoiceAmountDue } from "@/lib/domain/fiat";
import { toStroops } from "@/lib/domain/money";
import { breakdownOf, taxInCurrency } from "@/lib/domain/tax";
import { TAX_CATEGORY_NOTES, type TaxCategory } from "@/lib/domain/tax-categories";
import { embedFacturX, pdfA3Options } from "@/lib/einvoice/facturx";
// Amounts as the freelancer pages show them: the one formatting module, pure string work.
import {
  formatAmount,
  formatFiat,
  formatGrouped,
  formatPriced,
  isZero,
  trimZeros,
} from "@/lib/format";
import { type Language, type MessageKey, methodLabel, schemeLabels, translator } from "@/lib/i18n";
import { formatDay, localizeAmount, localizeNumber } from "@/lib/i18n/format";

/** An asset amount as the ledger moved it: "1,228.6084702 XLM" (every significant decimal). */
const formatExactAmount = (amount: string, asset: string) => `${formatGrouped(amount)} ${asset}`;

import { INVOICE_STORED_KEYS } from "@/lib/schemas/invoices";
import { NETWORK_PASSPHRASES } from "@/lib/stellar/networks";
import type { LineItemRow, OwnerInvoice, PaymentRow } from "./store";

// Drawing the invoice PDF: pure, no database, no configuration, so it runs in the PDF worker
// threads (lib/services/invoices/pdf-pool.ts) as well as in tests. What the API serves goes
// through `invoicePdf` (invoice-pdf.ts): its cache, then a worker thread.

/** The invoice fields the PDF shows: all it is drawn from, and what its cache key covers. */
export const PDF_FIELDS = [
  "invoiceNumber",
  "status",
  ...INVOICE_STORED_KEYS,
  "freelancerWallet",
  "subtotal",
  "taxRate",
  "taxAmount",
  "discount",
  "total",
  "currency",
  "networkPassphrase",
  "dueDate",
  "createdAt",
  "sentAt",
  "paidAt",
  "transactionHash",
] as const satisfies readonly (keyof OwnerInvoice)[];

/** What the PDF shows of each payment received: the ledger's facts and, fiat-priced, its value. */
export const PDF_PAYMENT_FIELDS = [
  "transactionHash",
  "amount",
  "asset",
  "applied",
  "amountRefunded",
  "confirmedAt",
  "priceValue",
  "method",
  "reference",
] as const satisfies readonly (keyof PaymentRow)[];
/** A payment as drawn; `method` and `reference` are those of a payment received outside Stellar. */
export type PdfPayment = Omit<
  Pick<PaymentRow, (typeof PDF_PAYMENT_FIELDS)[number]>,
  "method" | "reference"
> &
  Partial<Pick<PaymentRow, "method" | "reference">>;

/** What the PDF shows: a subset of the owner view, so tests can build one by hand. */
export type InvoicePdfData = Pick<
  OwnerInvoice,
  Exclude<(typeof PDF_FIELDS)[number], "language">
> & {
  /** The documents' language (docs/decisions.md, Languages); left out: English. */
  language?: OwnerInvoice["language"];
  lineItems: (Pick<LineItemRow, "description" | "quantity" | "rate" | "amount"> &
    Partial<Pick<LineItemRow, "taxRate">>)[];
  /** The payments received, oldest first (the applied ones are listed). */
  payments?: PdfPayment[];
} & Partial<
    Pick<
      OwnerInvoice,
      | "priceCurrency"
      | "amountPaid"
      | "amountCredited"
      | "taxBreakdown"
      | "taxExchangeRate"
      | "taxRateSource"
      | "taxRateAt"
    >
  >;

export type InvoicePdfOptions = {
  /** The public payment page, `{APP_URL}/pay/<id>`. */
  paymentLink: string;
  /** Deflate page content (default true); tests turn it off to read the text. */
  compress?: boolean;
  /**
   * From the owner's profile (docs/decisions.md, Profile): the logo (PNG or JPEG; an SVG is
   * left off: pdfkit draws no SVG) and lines added under FROM (address, tax id).
   */
  profile?: { logo: { data: Buffer } | null; lines: (string | null)[] } | null;
  /**
   * The invoice's CII XML (EN 16931) when it can be an e-invoice: the PDF is then a Factur-X
   * PDF/A-3b with it embedded (lib/einvoice/facturx.ts); else the PDF is as before.
   */
  eInvoiceXml?: string | null;
};

/**
 * The words of one document language (docs/decisions.md, Languages): labels from the
 * catalogue, amounts, rates and dates in its locale. English is as before, byte for byte.
 */
function documentWords(lang: Language) {
  const tr = translator(lang);
  return {
    tr,
    day: (d: Date | null) => (d ? formatDay(d, lang) : "-"),
    amount: (text: string) => localizeAmount(text, lang),
    number: (text: string) => localizeNumber(text, lang),
    categoryName: (c: TaxCategory) => tr(`tax.name.${c}` as MessageKey),
    categoryNote: (c: TaxCategory) =>
      TAX_CATEGORY_NOTES[c] ? tr(`tax.note.${c}` as MessageKey) : undefined,
    method: (name: string, reference?: string | null) => methodLabel(lang, name, reference),
  };
}

const networkLabel = (passphrase: string) =>
  passphrase === NETWORK_PASSPHRASES.mainnet ? "Stellar Mainnet" : "Stellar Testnet";

export const INK = "#0f172a";
export const MUTED = "#475569";
export const RULE = "#cbd5e1";
const PAID_GREEN = "#047857";

/**
 * DejaVu Sans (from the dejavu-fonts-ttf package): names and addresses in Polish, Czech,
 * Turkish, Greek, Cyrillic and more render as typed, where the 14 standard PDF fonts only
 * know Windows-1252. pdfkit embeds only the glyphs used, so a PDF stays small. Read once;
 * resolved from the project folder like the migrations (npm scripts run from there).
 */
const FONT_DIR = path.join(process.cwd(), "node_modules", "dejavu-fonts-ttf", "ttf");
const FONT_FILES = {
  Body: "DejaVuSans.ttf",
  Bold: "DejaVuSans-Bold.ttf",
  Mono: "DejaVuSansMono.ttf",
} as const;
let fonts: Record<keyof typeof FONT_FILES, Buffer> | undefined;
/** The fonts, also the credit note's (lib/services/credit-notes/credit-note-pdf.ts). */
export function loadFonts() {
  fonts ??= Object.fromEntries(
    Object.entries(FONT_FILES).map(([name, file]) => [
      name,
      fs.readFileSync(path.join(FONT_DIR, file)),
    ]),
  ) as Record<keyof typeof FONT_FILES, Buffer>;
  return fonts;
}

/**
 * The invoice as a PDF (A4, DejaVu fonts): header, parties, line items, totals, status and
 * the payment link. Resolves with the file's bytes.
 */
export function renderInvoicePdf(
  invoice: InvoicePdfData,
  options: InvoicePdfOptions,
): Promise<Buffer> {
  const lang = invoice.language ?? "en";
  const {
    tr,
    day,
    amount: inLocale,
    number,
    categoryName,
    categoryNote,
    method,
  } = documentWords(lang);
  const schemes = schemeLabels(lang);
  const doc = new PDFDocument({
    size: "A4",
    margin: 50,
    compress: options.compress ?? true,
    info: {
      Title: `${tr("doc.invoice")} ${invoice.invoiceNumber}`,
      Subject: invoice.title,
      Author: invoice.freelancerName ?? invoice.freelancerCompany ?? invoice.freelancerWallet,
      Creator: "Stellar Invoicing",
    },
    ...(options.eInvoiceXml ? pdfA3Options(loadFonts().Body) : {}),
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
  // A fiat-priced invoice's amounts are in its price currency (docs/decisions.md, Fiat pricing).
  const money = (amount: string) => inLocale(formatPriced(amount, invoice));
  const c = invoice.priceCurrency ?? invoice.currency;
  const paid = invoice.status === "PAID";
  // Every payment that counted, oldest first: a paid invoice may have been paid in parts.
  const received = (invoice.payments ?? []).filter((p) => p.applied);

  // Header: title and number on the left, the logo in the middle, status on the right.
  if (options.profile?.logo) {
    try {
      doc.image(options.profile.logo.data, left + width / 2 - 70, 42, {
        fit: [140, 48],
        align: "center",
        valign: "center",
      });
    } catch {
      // An image pdfkit cannot read: the invoice goes out without it.
    }
  }
  doc.fillColor(INK).font("Bold").fontSize(24).text(tr("pdf.heading"), left, 50);
  doc.font("Body").fontSize(11).fillColor(MUTED).text(invoice.invoiceNumber, left, 80);
  if (paid) {
    // A paid invoice says so at a glance (docs/decisions.md, Invoice PDF).
    doc
      .font("Bold")
      .fontSize(20)
      .fillColor(PAID_GREEN)
      .text(tr("pdf.paidStamp"), left, 30, { width, align: "right" });
  }
  doc
    .font("Bold")
    .fontSize(11)
    .fillColor(INK)
    .text(tr("pdf.status", { status: tr(`doc.status.${invoice.status}`) }), left, 56, {
      width,
      align: "right",
    });
  doc
    .font("Body")
    .fontSize(9)
    .fillColor(MUTED)
    .text(tr("pdf.issued", { date: day(invoice.sentAt ?? invoice.createdAt) }), left, 74, {
      width,
      align: "right",
    })
    .text(tr("pdf.due", { date: day(invoice.dueDate) }), left, 86, { width, align: "right" });
  if (invoice.paidAt) {
    doc.text(tr("pdf.paidOn", { date: day(invoice.paidAt) }), left, 98, {
      width,
      align: "right",
    });
  }

  doc.font("Bold").fontSize(14).fillColor(INK).text(invoice.title, left, 120, { width });
  let y = doc.y + 4;
  if (invoice.description) {
    doc.font("Body").fontSize(10).fillColor(MUTED).text(invoice.description, left, y, {
      width,
    });
    y = doc.y + 4;
  }

  // The date of supply or the service period, when the invoice names one (art. 226 (7)).
  const ymd = (v: string) => day(new Date(`${v}T00:00:00Z`));
  const supplied = invoice.periodStart
    ? tr("pdf.servicePeriod", {
        start: ymd(invoice.periodStart),
        end: ymd(invoice.periodEnd ?? invoice.periodStart),
      })
    : invoice.supplyDate
      ? tr("pdf.supplyDate", { date: ymd(invoice.supplyDate) })
      : null;
  if (supplied) {
    doc.font("Body").fontSize(9).fillColor(INK).text(supplied, left, y, { width });
    y = doc.y + 4;
  }

  // Parties.
  y += 10;
  const col = width / 2 - 10;
  const party = (x: string, label: string, lines: (string | null)[], mono?: string) => {
    const startX = x === "left" ? left : left + width / 2 + 10;
    doc.font("Bold").fontSize(8).fillColor(MUTED).text(label, startX, y, { width: col });
    doc.font("Body").fontSize(10).fillColor(INK);
    for (const line of lines) if (line) doc.text(line, startX, doc.y + 2, { width: col });
    if (mono) {
      doc
        .font("Mono")
        .fontSize(7.5)
        .fillColor(MUTED)
        .text(mono, startX, doc.y + 2, {
          width: col,
        });
    }
    return doc.y;
  };
  const fromEnd = party(
    "left",
    tr("pdf.from"),
    [
      invoice.freelancerName,
      invoice.freelancerCompany,
      invoice.freelancerEmail,
      ...(options.profile?.lines ?? []),
    ],
    invoice.freelancerWallet,
  );
  const toEnd = party("right", tr("pdf.billTo"), [
    invoice.clientName,
    invoice.clientCompany,
    invoice.clientEmail,
    // The structured address when there is one, else the free text.
    invoice.clientPostalAddress
      ? addressLines(invoice.clientPostalAddress).join("\n")
      : invoice.clientAddress,
    taxIdLine(invoice.clientTaxId, invoice.clientTaxScheme, schemes),
  ]);
  y = Math.max(fromEnd, toEnd) + 20;

  // Line items.
  // With tax per line, each line's rate in its own column (docs/decisions.md, Tax per line).
  const lineTaxes = Boolean(invoice.taxBreakdown);
  const cols = {
    description: { x: left, w: width - (lineTaxes ? 300 : 260) },
    tax: { x: right - 295, w: 40 },
    quantity: { x: right - 255, w: 55 },
    rate: { x: right - 195, w: 95 },
    amount: { x: right - 95, w: 95 },
  };
  const header = () => {
    doc.font("Bold").fontSize(8).fillColor(MUTED);
    doc.text(tr("pdf.col.description"), cols.description.x, y, { width: cols.description.w });
    if (lineTaxes) {
      doc.text(tr("pdf.col.vat"), cols.tax.x, y, { width: cols.tax.w, align: "right" });
    }
    doc.text(tr("pdf.col.quantity"), cols.quantity.x, y, {
      width: cols.quantity.w,
      align: "right",
    });
    doc.text(tr("pdf.col.rate", { currency: c }), cols.rate.x, y, {
      width: cols.rate.w,
      align: "right",
    });
    doc.text(tr("pdf.col.amount", { currency: c }), cols.amount.x, y, {
      width: cols.amount.w,
      align: "right",
    });
    y += 14;
    doc.moveTo(left, y).lineTo(right, y).lineWidth(0.5).strokeColor(RULE).stroke();
    y += 6;
  };
  header();
  doc.font("Body").fontSize(10);
  for (const item of invoice.lineItems) {
    const h = Math.max(doc.heightOfString(item.description, { width: cols.description.w }), 12);
    if (y + h > bottom() - 10) {
      doc.addPage();
      y = doc.page.margins.top;
      header();
      doc.font("Body").fontSize(10);
    }
    doc.fillColor(INK);
    doc.text(item.description, cols.description.x, y, { width: cols.description.w });
    if (lineTaxes) {
      const rate = item.taxRate ?? invoice.taxRate;
      doc.text(`${number(trimZeros(rate))}%`, cols.tax.x, y, {
        width: cols.tax.w,
        align: "right",
      });
    }
    doc.text(number(trimZeros(item.quantity)), cols.quantity.x, y, {
      width: cols.quantity.w,
      align: "right",
    });
    doc.text(inLocale(formatAmount(item.rate)), cols.rate.x, y, {
      width: cols.rate.w,
      align: "right",
    });
    doc.text(inLocale(formatAmount(item.amount)), cols.amount.x, y, {
      width: cols.amount.w,
      align: "right",
    });
    y += h + 6;
  }
  doc.moveTo(left, y).lineTo(right, y).lineWidth(0.5).strokeColor(RULE).stroke();
  y += 10;

  // Totals.
  const rows: [string, string, boolean][] = [[tr("pdf.subtotal"), money(invoice.subtotal), false]];
  if (invoice.taxBreakdown) {
    // Tax per line: the discount lowers the base, then one line per category and rate.
    if (!isZero(invoice.discount)) {
      rows.push([tr("pdf.discount"), `-${money(invoice.discount)}`, false]);
    }
    for (const row of invoice.taxBreakdown) {
      const label =
        row.category === "S"
          ? tr("pdf.vatRow", {
              rate: number(trimZeros(row.rate)),
              base: money(row.taxableAmount),
            })
          : tr("pdf.categoryRow", {
              category: categoryName(row.category),
              code: row.category,
              base: money(row.taxableAmount),
            });
      rows.push([label, money(row.taxAmount), false]);
    }
    rows.push([tr("pdf.totalVat"), money(invoice.taxAmount), false]);
  } else {
    if (!isZero(invoice.taxAmount)) {
      rows.push([
        tr("pdf.tax", { rate: number(trimZeros(invoice.taxRate)) }),
        money(invoice.taxAmount),
        false,
      ]);
    }
    if (!isZero(invoice.discount)) {
      rows.push([tr("pdf.discount"), `-${money(invoice.discount)}`, false]);
    }
  }
  rows.push([tr("pdf.total"), money(invoice.total), true]);
  // VAT in the national currency at the rate fixed when the invoice was sent (art. 230).
  const inTaxCurrency =
    invoice.taxCurrency && invoice.taxExchangeRate
      ? taxInCurrency(
          breakdownOf({ ...invoice, taxBreakdown: invoice.taxBreakdown ?? null }),
          invoice.taxExchangeRate,
        )
      : null;
  if (inTaxCurrency && invoice.taxCurrency) {
    rows.push([
      tr("pdf.vatIn", { currency: invoice.taxCurrency }),
      inLocale(formatFiat(inTaxCurrency.taxAmount, invoice.taxCurrency)),
      false,
    ]);
  }
  if (y + rows.length * 18 + 120 > bottom()) {
    doc.addPage();
    y = doc.page.margins.top;
  }
  for (const [label, value, strong] of rows) {
    doc
      .font(strong ? "Bold" : "Body")
      .fontSize(strong ? 12 : 10)
      .fillColor(INK);
    // The breakdown's labels are longer ("VAT 19% of 91.66 EUR"): a wider column for them.
    const labelWidth = lineTaxes ? 180 : 150;
    const h = doc.heightOfString(label, { width: labelWidth });
    doc.text(label, right - (lineTaxes ? 330 : 255), y, { width: labelWidth });
    doc.text(value, right - 200, y, { width: 200, align: "right" });
    y += lineTaxes ? Math.max(strong ? 20 : 16, h + 4) : strong ? 20 : 16;
  }
  if (inTaxCurrency && invoice.taxCurrency && invoice.taxExchangeRate) {
    const unit = invoice.priceCurrency ?? invoice.currency;
    doc.font("Body").fontSize(9).fillColor(MUTED);
    const from = [
      invoice.taxRateSource && invoice.taxRateSource !== "fixed" ? invoice.taxRateSource : null,
      invoice.taxRateAt ? day(invoice.taxRateAt) : null,
    ].filter(Boolean);
    doc.text(
      tr("pdf.vatRate", {
        currency: invoice.taxCurrency,
        unit,
        rate: number(trimZeros(invoice.taxExchangeRate)),
        source: from.length ? ` (${from.join(", ")})` : "",
      }),
      left,
      y,
      { width },
    );
    y = doc.y + 4;
  }
  // Why no VAT is charged on a row that charges none (EN 16931 BT-120): the category's legal
  // note, then the freelancer's reason when it says more.
  for (const r of invoice.taxBreakdown ?? []) {
    const note = categoryNote(r.category);
    // The freelancer's reason is left out when it is the category's note (in any language).
    const reason =
      r.exemptionReason &&
      r.exemptionReason !== note &&
      r.exemptionReason !== TAX_CATEGORY_NOTES[r.category]
        ? `${categoryName(r.category)}: ${r.exemptionReason}`
        : null;
    for (const line of [note, reason]) {
      if (!line) continue;
      doc.font("Body").fontSize(9).fillColor(MUTED);
      doc.text(line, left, y, { width });
      y = doc.y + 4;
    }
  }

  // Payment: how to pay while something is due; a paid invoice lists what was received
  // instead, and has nothing left to pay.
  y += 16;
  // The section (and its QR code) starts on a new page rather than running off this one.
  if (y + 110 > bottom()) {
    doc.addPage();
    y = doc.page.margins.top;
  }
  doc
    .font("Bold")
    .fontSize(10)
    .fillColor(INK)
    .text(paid ? tr("pdf.paid") : tr("pdf.payment"), left, y);
  doc.font("Body").fontSize(9).fillColor(INK);
  // While something is due, the pay link as a QR code beside the instructions: a phone's
  // camera opens the checkout page (the same link as printed).
  const qrSize = 76;
  const qrTop = y;
  if (!paid) drawQr(doc, options.paymentLink, right - qrSize, qrTop, qrSize);
  const textWidth = paid ? width : width - qrSize - 12;
  if (paid) {
    doc.text(
      invoice.paidAt
        ? tr("pdf.paidInFullOn", {
            date: day(invoice.paidAt),
            network: networkLabel(invoice.networkPassphrase),
          })
        : tr("pdf.paidInFull", { network: networkLabel(invoice.networkPassphrase) }),
      left,
      doc.y + 4,
      { width: textWidth },
    );
  } else {
    // What is left to pay, not the total: a client paying the total after a partial payment
    // would overpay (lib/domain/fiat.ts, invoiceAmountDue).
    const paidSoFar = invoice.amountPaid ?? "0";
    const due = invoiceAmountDue({
      total: invoice.total,
      amountPaid: paidSoFar,
      priceCurrency: invoice.priceCurrency ?? null,
      amountCredited: invoice.amountCredited,
    });
    const partly = toStroops(paidSoFar) > 0n;
    const what = partly
      ? tr("pdf.partly", { due: money(due), paid: money(paidSoFar), total: money(invoice.total) })
      : money(invoice.total);
    const network = networkLabel(invoice.networkPassphrase);
    doc.text(
      invoice.priceCurrency
        ? tr("pdf.payPriced", { amount: what, asset: invoice.currency, network })
        : tr("pdf.pay", { amount: what, network }),
      left,
      doc.y + 4,
      { width: textWidth },
    );
    doc.text(tr("pdf.payOnline"), left, doc.y + 2, { continued: true, width: textWidth });
    doc
      .fillColor("#4338ca")
      .text(options.paymentLink, { link: options.paymentLink, underline: true });
    doc
      .fillColor(INK)
      .text(tr("pdf.memo", { memo: invoice.invoiceNumber }), left, doc.y + 2, { width: textWidth });
  }
  doc.text(tr("pdf.recipient"), left, doc.y + 2, { continued: true, width: textWidth });
  doc.font("Mono").fontSize(8).text(invoice.freelancerWallet);
  // The QR code's column ends before what follows.
  if (!paid) doc.y = Math.max(doc.y, qrTop + qrSize + 4);
  if (received.length > 0) {
    doc
      .font("Bold")
      .fontSize(10)
      .fillColor(INK)
      .text(tr("pdf.paymentsReceived"), left, doc.y + 12);
    for (const p of received) {
      if (doc.y + 40 > bottom()) doc.addPage();
      // What moved on the ledger, and (fiat-priced) what it counted for; a payment received
      // outside Stellar is in the invoice's own unit, with how it came instead of a hash.
      const manual = p.transactionHash === null;
      const value =
        !manual && invoice.priceCurrency && p.priceValue
          ? ` (${inLocale(formatFiat(p.priceValue, invoice.priceCurrency))})`
          : "";
      const amount = inLocale(
        manual && invoice.priceCurrency
          ? formatFiat(p.amount, invoice.priceCurrency)
          : formatExactAmount(p.amount, p.asset),
      );
      const refunded = isZero(p.amountRefunded)
        ? ""
        : `, ${tr("pdf.refunded", { amount: inLocale(formatExactAmount(p.amountRefunded, p.asset)) })}`;
      doc
        .font("Body")
        .fontSize(9)
        .fillColor(INK)
        .text(`${day(p.confirmedAt)}: ${amount}${value}${refunded}`, left, doc.y + 4, { width });
      doc
        .font(manual ? "Body" : "Mono")
        .fontSize(manual ? 8.5 : 7.5)
        .fillColor(MUTED)
        .text(p.transactionHash ?? method(p.method ?? "other", p.reference), left, doc.y + 1, {
          width,
        });
    }
  } else if (invoice.transactionHash) {
    doc
      .font("Body")
      .fontSize(9)
      .text(tr("pdf.transaction"), left, doc.y + 2, {
        continued: true,
        width,
      });
    doc.font("Mono").fontSize(8).text(invoice.transactionHash);
  }

  if (invoice.paymentTerms) {
    doc
      .font("Bold")
      .fontSize(10)
      .fillColor(INK)
      .text(tr("pdf.paymentTerms"), left, doc.y + 16);
    doc
      .font("Body")
      .fontSize(9)
      .fillColor(MUTED)
      .text(invoice.paymentTerms, left, doc.y + 4, {
        width,
      });
  }

  if (invoice.notes) {
    doc
      .font("Bold")
      .fontSize(10)
      .fillColor(INK)
      .text(tr("pdf.notes"), left, doc.y + 16);
    doc
      .font("Body")
      .fontSize(9)
      .fillColor(MUTED)
      .text(invoice.notes, left, doc.y + 4, {
        width,
      });
  }

  doc.end();
  return done;
}

/** A QR code of `text` drawn as vector squares (crisp at any zoom, no image to embed). */
function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number) {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  const cell = size / modules.size;
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) doc.rect(x + col * cell, y + row * cell, cell, cell);
    }
  }
  doc.fillColor(INK).fill();
}
