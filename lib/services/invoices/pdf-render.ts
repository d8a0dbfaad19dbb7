import QRCode from "qrcode";
import { addressLines, taxIdLine } from "@/lib/domain/address";
import { invoiceAmountDue } from "@/lib/domain/fiat";
import { toStroops } from "@/lib/domain/money";
import { breakdownOf, taxInCurrency } from "@/lib/domain/tax";
import { TAX_CATEGORY_NOTES, type TaxCategory } from "@/lib/domain/tax-categories";
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
import {
  drawHeader,
  drawItems,
  drawParties,
  drawTotals,
  type HeaderLine,
  INK,
  MUTED,
  openPdf,
  type TotalRow,
} from "@/lib/services/documents/pdf-frame";
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

const PAID_GREEN = "#047857";

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
  const frame = openPdf({
    compress: options.compress,
    eInvoiceXml: options.eInvoiceXml,
    info: {
      Title: `${tr("doc.invoice")} ${invoice.invoiceNumber}`,
      Subject: invoice.title,
      Author: invoice.freelancerName ?? invoice.freelancerCompany ?? invoice.freelancerWallet,
    },
  });
  const { doc, done, left, width, right, bottom } = frame;
  // A fiat-priced invoice's amounts are in its price currency (docs/decisions.md, Fiat pricing).
  const money = (amount: string) => inLocale(formatPriced(amount, invoice));
  const c = invoice.priceCurrency ?? invoice.currency;
  const paid = invoice.status === "PAID";
  // Every payment that counted, oldest first: a paid invoice may have been paid in parts.
  const received = (invoice.payments ?? []).filter((p) => p.applied);

  // Header: title and number on the left, the logo in the middle, status and dates on the right.
  const dates: HeaderLine[] = [
    { text: tr("pdf.status", { status: tr(`doc.status.${invoice.status}`) }), strong: true },
    { text: tr("pdf.issued", { date: day(invoice.sentAt ?? invoice.createdAt) }) },
    { text: tr("pdf.due", { date: day(invoice.dueDate) }) },
  ];
  if (invoice.paidAt) dates.push({ text: tr("pdf.paidOn", { date: day(invoice.paidAt) }) });
  drawHeader(frame, {
    title: tr("pdf.heading"),
    number: invoice.invoiceNumber,
    logo: options.profile?.logo?.data,
    // A paid invoice says so at a glance (docs/decisions.md, Invoice PDF).
    stamp: paid ? { text: tr("pdf.paidStamp"), color: PAID_GREEN } : null,
    lines: dates,
    step: 12,
  });

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
  const partiesEnd = drawParties(
    frame,
    y,
    {
      label: tr("pdf.from"),
      lines: [
        invoice.freelancerName,
        invoice.freelancerCompany,
        invoice.freelancerEmail,
        ...(options.profile?.lines ?? []),
      ],
      wallet: invoice.freelancerWallet,
    },
    {
      label: tr("pdf.billTo"),
      lines: [
        invoice.clientName,
        invoice.clientCompany,
        invoice.clientEmail,
        // The structured address when there is one, else the free text.
        invoice.clientPostalAddress
          ? addressLines(invoice.clientPostalAddress).join("\n")
          : invoice.clientAddress,
        taxIdLine(invoice.clientTaxId, invoice.clientTaxScheme, schemes),
      ],
    },
  );
  y = partiesEnd + 20;

  // Line items.
  // With tax per line, each line's rate in its own column (docs/decisions.md, Tax per line).
  const lineTaxes = Boolean(invoice.taxBreakdown);
  y = drawItems(
    frame,
    y,
    {
      description: tr("pdf.col.description"),
      ...(lineTaxes ? { tax: tr("pdf.col.vat") } : {}),
      quantity: tr("pdf.col.quantity"),
      rate: tr("pdf.col.rate", { currency: c }),
      amount: tr("pdf.col.amount", { currency: c }),
    },
    invoice.lineItems.map((item) => ({
      description: item.description,
      tax: `${number(trimZeros(item.taxRate ?? invoice.taxRate))}%`,
      quantity: number(trimZeros(item.quantity)),
      rate: inLocale(formatAmount(item.rate)),
      amount: inLocale(formatAmount(item.amount)),
    })),
  );

  // Totals.
  const rows: TotalRow[] = [[tr("pdf.subtotal"), money(invoice.subtotal), false]];
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
  y = drawTotals(frame, y, rows, { reserve: 120, wide: lineTaxes });
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
