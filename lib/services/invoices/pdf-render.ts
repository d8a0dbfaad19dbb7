import fs from "node:fs";
import path from "node:path";
import PDFDocument from "pdfkit";
import { addressLines, taxIdLine } from "@/lib/domain/address";
import { invoiceAmountDue } from "@/lib/domain/fiat";
import { toStroops } from "@/lib/domain/money";
import { breakdownOf, taxInCurrency } from "@/lib/domain/tax";
import { TAX_CATEGORY_NAMES, TAX_CATEGORY_NOTES } from "@/lib/domain/tax-categories";
import { embedFacturX, pdfA3Options } from "@/lib/einvoice/facturx";
// Amounts as the freelancer pages show them: the one formatting module, pure string work.
import {
  formatAmount,
  formatFiat,
  formatGrouped,
  formatPriced,
  isZero,
  paymentMethodLabel,
  trimZeros,
} from "@/lib/format";

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
export type InvoicePdfData = Pick<OwnerInvoice, (typeof PDF_FIELDS)[number]> & {
  lineItems: (Pick<LineItemRow, "description" | "quantity" | "rate" | "amount"> &
    Partial<Pick<LineItemRow, "taxRate">>)[];
  /** The payments received, oldest first (the applied ones are listed). */
  payments?: PdfPayment[];
} & Partial<
    Pick<
      OwnerInvoice,
      | "priceCurrency"
      | "amountPaid"
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

const dateFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
const day = (d: Date | null) => (d ? dateFormat.format(d) : "-");

const networkLabel = (passphrase: string) =>
  passphrase === NETWORK_PASSPHRASES.mainnet ? "Stellar Mainnet" : "Stellar Testnet";

const INK = "#0f172a";
const MUTED = "#475569";
const RULE = "#cbd5e1";
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
function loadFonts() {
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
  const doc = new PDFDocument({
    size: "A4",
    margin: 50,
    compress: options.compress ?? true,
    info: {
      Title: `Invoice ${invoice.invoiceNumber}`,
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
  const money = (amount: string) => formatPriced(amount, invoice);
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
  doc.fillColor(INK).font("Bold").fontSize(24).text("INVOICE", left, 50);
  doc.font("Body").fontSize(11).fillColor(MUTED).text(invoice.invoiceNumber, left, 80);
  if (paid) {
    // A paid invoice says so at a glance (docs/decisions.md, Invoice PDF).
    doc
      .font("Bold")
      .fontSize(20)
      .fillColor(PAID_GREEN)
      .text("PAID", left, 30, { width, align: "right" });
  }
  doc
    .font("Bold")
    .fontSize(11)
    .fillColor(INK)
    .text(`Status: ${invoice.status}`, left, 56, { width, align: "right" });
  doc
    .font("Body")
    .fontSize(9)
    .fillColor(MUTED)
    .text(`Issued ${day(invoice.sentAt ?? invoice.createdAt)}`, left, 74, {
      width,
      align: "right",
    })
    .text(`Due ${day(invoice.dueDate)}`, left, 86, { width, align: "right" });
  if (invoice.paidAt) {
    doc.text(`Paid ${day(invoice.paidAt)}`, left, 98, { width, align: "right" });
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
    ? `Service period: ${ymd(invoice.periodStart)} to ${ymd(invoice.periodEnd ?? invoice.periodStart)}`
    : invoice.supplyDate
      ? `Date of supply: ${ymd(invoice.supplyDate)}`
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
    "FROM",
    [
      invoice.freelancerName,
      invoice.freelancerCompany,
      invoice.freelancerEmail,
      ...(options.profile?.lines ?? []),
    ],
    invoice.freelancerWallet,
  );
  const toEnd = party("right", "BILL TO", [
    invoice.clientName,
    invoice.clientCompany,
    invoice.clientEmail,
    // The structured address when there is one, else the free text.
    invoice.clientPostalAddress
      ? addressLines(invoice.clientPostalAddress).join("\n")
      : invoice.clientAddress,
    taxIdLine(invoice.clientTaxId, invoice.clientTaxScheme),
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
    doc.text("DESCRIPTION", cols.description.x, y, { width: cols.description.w });
    if (lineTaxes) doc.text("VAT", cols.tax.x, y, { width: cols.tax.w, align: "right" });
    doc.text("QTY", cols.quantity.x, y, { width: cols.quantity.w, align: "right" });
    doc.text(`RATE (${c})`, cols.rate.x, y, { width: cols.rate.w, align: "right" });
    doc.text(`AMOUNT (${c})`, cols.amount.x, y, { width: cols.amount.w, align: "right" });
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
      doc.text(`${trimZeros(rate)}%`, cols.tax.x, y, { width: cols.tax.w, align: "right" });
    }
    doc.text(trimZeros(item.quantity), cols.quantity.x, y, {
      width: cols.quantity.w,
      align: "right",
    });
    doc.text(formatAmount(item.rate), cols.rate.x, y, { width: cols.rate.w, align: "right" });
    doc.text(formatAmount(item.amount), cols.amount.x, y, {
      width: cols.amount.w,
      align: "right",
    });
    y += h + 6;
  }
  doc.moveTo(left, y).lineTo(right, y).lineWidth(0.5).strokeColor(RULE).stroke();
  y += 10;

  // Totals.
  const rows: [string, string, boolean][] = [["Subtotal", money(invoice.subtotal), false]];
  if (invoice.taxBreakdown) {
    // Tax per line: the discount lowers the base, then one line per category and rate.
    if (!isZero(invoice.discount)) {
      rows.push(["Discount", `-${money(invoice.discount)}`, false]);
    }
    for (const row of invoice.taxBreakdown) {
      const label =
        row.category === "S"
          ? `VAT ${trimZeros(row.rate)}% of ${money(row.taxableAmount)}`
          : `${TAX_CATEGORY_NAMES[row.category]} (${row.category}) on ${money(row.taxableAmount)}`;
      rows.push([label, money(row.taxAmount), false]);
    }
    rows.push(["Total VAT", money(invoice.taxAmount), false]);
  } else {
    if (!isZero(invoice.taxAmount)) {
      rows.push([`Tax (${trimZeros(invoice.taxRate)}%)`, money(invoice.taxAmount), false]);
    }
    if (!isZero(invoice.discount)) {
      rows.push(["Discount", `-${money(invoice.discount)}`, false]);
    }
  }
  rows.push(["Total", money(invoice.total), true]);
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
      `VAT in ${invoice.taxCurrency}`,
      formatFiat(inTaxCurrency.taxAmount, invoice.taxCurrency),
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
      `VAT in ${invoice.taxCurrency} at 1 ${unit} = ${trimZeros(invoice.taxExchangeRate)} ${invoice.taxCurrency}${from.length ? ` (${from.join(", ")})` : ""}, fixed when the invoice was issued.`,
      left,
      y,
      { width },
    );
    y = doc.y + 4;
  }
  // Why no VAT is charged on a row that charges none (EN 16931 BT-120): the category's legal
  // note, then the freelancer's reason when it says more.
  for (const r of invoice.taxBreakdown ?? []) {
    const note = TAX_CATEGORY_NOTES[r.category];
    const reason =
      r.exemptionReason && r.exemptionReason !== note
        ? `${TAX_CATEGORY_NAMES[r.category]}: ${r.exemptionReason}`
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
  doc
    .font("Bold")
    .fontSize(10)
    .fillColor(INK)
    .text(paid ? "Paid" : "Payment", left, y);
  doc.font("Body").fontSize(9).fillColor(INK);
  if (paid) {
    doc.text(
      `Paid in full${invoice.paidAt ? ` on ${day(invoice.paidAt)}` : ""}, on ${networkLabel(invoice.networkPassphrase)}. Nothing is due.`,
      left,
      doc.y + 4,
      { width },
    );
  } else {
    // What is left to pay, not the total: a client paying the total after a partial payment
    // would overpay (lib/domain/fiat.ts, invoiceAmountDue).
    const paidSoFar = invoice.amountPaid ?? "0";
    const due = invoiceAmountDue({
      total: invoice.total,
      amountPaid: paidSoFar,
      priceCurrency: invoice.priceCurrency ?? null,
    });
    const partly = toStroops(paidSoFar) > 0n;
    const what = partly
      ? `${money(due)} (${money(paidSoFar)} of ${money(invoice.total)} paid so far)`
      : money(invoice.total);
    doc.text(
      invoice.priceCurrency
        ? `Pay ${what} in ${invoice.currency} at the rate locked when you pay, on ${networkLabel(invoice.networkPassphrase)}.`
        : `Pay ${what} on ${networkLabel(invoice.networkPassphrase)}.`,
      left,
      doc.y + 4,
      { width },
    );
    doc.text("Pay online: ", left, doc.y + 2, { continued: true, width });
    doc
      .fillColor("#4338ca")
      .text(options.paymentLink, { link: options.paymentLink, underline: true });
    doc.fillColor(INK).text(`Memo: ${invoice.invoiceNumber}`, left, doc.y + 2, { width });
  }
  doc.text("Recipient: ", left, doc.y + 2, { continued: true, width });
  doc.font("Mono").fontSize(8).text(invoice.freelancerWallet);
  if (received.length > 0) {
    doc
      .font("Bold")
      .fontSize(10)
      .fillColor(INK)
      .text("Payments received", left, doc.y + 12);
    for (const p of received) {
      if (doc.y + 40 > bottom()) doc.addPage();
      // What moved on the ledger, and (fiat-priced) what it counted for; a payment received
      // outside Stellar is in the invoice's own unit, with how it came instead of a hash.
      const manual = p.transactionHash === null;
      const value =
        !manual && invoice.priceCurrency && p.priceValue
          ? ` (${formatFiat(p.priceValue, invoice.priceCurrency)})`
          : "";
      const amount =
        manual && invoice.priceCurrency
          ? formatFiat(p.amount, invoice.priceCurrency)
          : formatExactAmount(p.amount, p.asset);
      const refunded = isZero(p.amountRefunded)
        ? ""
        : `, ${formatExactAmount(p.amountRefunded, p.asset)} refunded`;
      doc
        .font("Body")
        .fontSize(9)
        .fillColor(INK)
        .text(`${day(p.confirmedAt)}: ${amount}${value}${refunded}`, left, doc.y + 4, { width });
      doc
        .font(manual ? "Body" : "Mono")
        .fontSize(manual ? 8.5 : 7.5)
        .fillColor(MUTED)
        .text(
          p.transactionHash ?? paymentMethodLabel(p.method ?? "other", p.reference),
          left,
          doc.y + 1,
          {
            width,
          },
        );
    }
  } else if (invoice.transactionHash) {
    doc
      .font("Body")
      .fontSize(9)
      .text("Transaction: ", left, doc.y + 2, {
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
      .text("Payment terms", left, doc.y + 16);
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
      .text("Notes", left, doc.y + 16);
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
