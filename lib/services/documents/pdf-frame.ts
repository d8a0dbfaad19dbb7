import fs from "node:fs";
import path from "node:path";
import PDFDocument from "pdfkit";
import type { TaxBreakdownRow } from "@/lib/domain/tax";
import { embedFacturX, pdfA3Options } from "@/lib/einvoice/facturx";
import { formatAmount, trimZeros } from "@/lib/format";
import type { MessageKey, translator } from "@/lib/i18n";

// The frame every document PDF shares (docs/decisions.md, Document PDFs): the page (A4, 50 pt
// margins, the DejaVu fonts, the colours), the header (title and number on the left, the dates
// on the right, the logo between), the two parties (seller, buyer), the line-item table and the
// totals. The invoice (lib/services/invoices/pdf-render.ts), the quote, the credit note and the
// statement each draw only their own body inside it. Pure drawing, no database and no
// configuration, so it also runs in the invoice PDF's worker threads.

export const INK = "#0f172a";
export const MUTED = "#475569";
export const RULE = "#cbd5e1";

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
export function loadFonts() {
  fonts ??= Object.fromEntries(
    Object.entries(FONT_FILES).map(([name, file]) => [
      name,
      fs.readFileSync(path.join(FONT_DIR, file)),
    ]),
  ) as Record<keyof typeof FONT_FILES, Buffer>;
  return fonts;
}

/** An open document and its page geometry; `done` resolves with the bytes once `doc.end()`. */
export type PdfFrame = {
  doc: PDFKit.PDFDocument;
  done: Promise<Buffer>;
  left: number;
  width: number;
  right: number;
  /** The lowest y the content may reach on the current page. */
  bottom: () => number;
};

/**
 * A new A4 document with the fonts registered. `compress` false keeps the text readable
 * (tests); `eInvoiceXml` makes it a Factur-X PDF/A-3b with the XML embedded.
 */
export function openPdf(options: {
  info: PDFKit.DocumentInfo;
  compress?: boolean;
  eInvoiceXml?: string | null;
}): PdfFrame {
  const doc = new PDFDocument({
    size: "A4",
    margin: 50,
    compress: options.compress ?? true,
    info: { ...options.info, Creator: "Stellar Invoicing" },
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
  return {
    doc,
    done,
    left,
    width,
    right: left + width,
    bottom: () => doc.page.height - doc.page.margins.bottom,
  };
}

/** A line on the header's right: a date, a status (`strong`). */
export type HeaderLine = { text: string; strong?: boolean };

/**
 * The header: the logo centred (one pdfkit cannot read is left off), the title and the
 * number on the left, a stamp at the top right ("PAID"), the lines on the right from y 56
 * (`step` apart, a strong line 18).
 */
export function drawHeader(
  { doc, left, width }: PdfFrame,
  header: {
    title: string;
    titleSize?: number;
    number?: string;
    logo?: Buffer | null;
    stamp?: { text: string; color: string } | null;
    lines: HeaderLine[];
    step?: number;
  },
) {
  if (header.logo) {
    try {
      doc.image(header.logo, left + width / 2 - 70, 42, {
        fit: [140, 48],
        align: "center",
        valign: "center",
      });
    } catch {
      // An image pdfkit cannot read: the document goes out without it.
    }
  }
  doc
    .fillColor(INK)
    .font("Bold")
    .fontSize(header.titleSize ?? 24)
    .text(header.title, left, 50);
  if (header.number) doc.font("Body").fontSize(11).fillColor(MUTED).text(header.number, left, 80);
  if (header.stamp) {
    doc
      .font("Bold")
      .fontSize(20)
      .fillColor(header.stamp.color)
      .text(header.stamp.text, left, 30, { width, align: "right" });
  }
  let y = 56;
  for (const line of header.lines) {
    if (line.strong) doc.font("Bold").fontSize(11).fillColor(INK);
    else doc.font("Body").fontSize(9).fillColor(MUTED);
    doc.text(line.text, left, y, { width, align: "right" });
    y += line.strong ? 18 : (header.step ?? 14);
  }
}

/** A party's block: its label (FROM, BILL TO), its lines (blanks left out), a wallet in mono. */
export type Party = { label: string; lines: (string | null | undefined)[]; wallet?: string };

/** The seller on the left and the buyer on the right from `y`; answers where the longer ends. */
export function drawParties(
  { doc, left, width }: PdfFrame,
  y: number,
  seller: Party,
  buyer: Party,
): number {
  const col = width / 2 - 10;
  const party = (x: number, p: Party) => {
    doc.font("Bold").fontSize(8).fillColor(MUTED).text(p.label, x, y, { width: col });
    doc.font("Body").fontSize(10).fillColor(INK);
    for (const line of p.lines) if (line) doc.text(line, x, doc.y + 2, { width: col });
    if (p.wallet) {
      doc
        .font("Mono")
        .fontSize(7.5)
        .fillColor(MUTED)
        .text(p.wallet, x, doc.y + 2, { width: col });
    }
    return doc.y;
  };
  return Math.max(party(left, seller), party(left + width / 2 + 10, buyer));
}

/** One row of the line-item table, its cells as printed. */
export type ItemRow = {
  description: string;
  tax?: string;
  quantity: string;
  rate: string;
  amount: string;
};

/**
 * The line-item table from `y`: description, the tax rate (when `heads.tax` is given),
 * quantity, rate and amount; its header again on each new page. Answers the y under its rule.
 */
export function drawItems(
  f: PdfFrame,
  y0: number,
  heads: Omit<ItemRow, "tax"> & { tax?: string },
  rows: ItemRow[],
): number {
  const { doc, left, width, right, bottom } = f;
  let y = y0;
  const taxed = heads.tax !== undefined;
  const cols = {
    description: { x: left, w: width - (taxed ? 300 : 260) },
    tax: { x: right - 295, w: 40 },
    quantity: { x: right - 255, w: 55 },
    rate: { x: right - 195, w: 95 },
    amount: { x: right - 95, w: 95 },
  };
  const cell = (text: string, col: keyof typeof cols, align?: "right") =>
    doc.text(text, cols[col].x, y, { width: cols[col].w, ...(align ? { align } : {}) });
  const header = () => {
    doc.font("Bold").fontSize(8).fillColor(MUTED);
    cell(heads.description, "description");
    if (heads.tax !== undefined) cell(heads.tax, "tax", "right");
    cell(heads.quantity, "quantity", "right");
    cell(heads.rate, "rate", "right");
    cell(heads.amount, "amount", "right");
    y += 14;
    doc.moveTo(left, y).lineTo(right, y).lineWidth(0.5).strokeColor(RULE).stroke();
    y += 6;
  };
  header();
  doc.font("Body").fontSize(10);
  for (const row of rows) {
    const h = Math.max(doc.heightOfString(row.description, { width: cols.description.w }), 12);
    if (y + h > bottom() - 10) {
      doc.addPage();
      y = doc.page.margins.top;
      header();
      doc.font("Body").fontSize(10);
    }
    doc.fillColor(INK);
    cell(row.description, "description");
    if (taxed) cell(row.tax ?? "", "tax", "right");
    cell(row.quantity, "quantity", "right");
    cell(row.rate, "rate", "right");
    cell(row.amount, "amount", "right");
    y += h + 6;
  }
  doc.moveTo(left, y).lineTo(right, y).lineWidth(0.5).strokeColor(RULE).stroke();
  return y + 10;
}

/** A document's number words: `num` a rate or quantity, `amt` an amount, in its language. */
type Words = { num: (v: string) => string; amt: (text: string) => string };

/**
 * Lines with a tax column as the table prints them (the quote's, the credit note's): each
 * one's rate (the document's when the line has none), quantity, rate and amount.
 */
export function taxedItemRows(
  lines: readonly {
    description: string;
    quantity: string;
    rate: string;
    amount: string;
    taxRate?: string | null;
  }[],
  documentRate: string,
  { num, amt }: Words,
): ItemRow[] {
  return lines.map((line) => ({
    description: line.description,
    tax: `${num(trimZeros(line.taxRate ?? documentRate))}%`,
    quantity: num(trimZeros(line.quantity)),
    rate: amt(formatAmount(line.rate)),
    amount: amt(formatAmount(line.amount)),
  }));
}

/**
 * One totals row per tax category and rate ("VAT 19% of 91.66 EUR", "Exempt (E) on ..."), in
 * the catalogue's `creditNote.taxRow` / `creditNote.exemptRow` words (the quote's too).
 */
export function breakdownRows(
  rows: readonly TaxBreakdownRow[],
  tr: ReturnType<typeof translator>,
  money: (v: string) => string,
  { num }: Pick<Words, "num">,
): TotalRow[] {
  return rows.map((r) => {
    const base = money(r.taxableAmount);
    return [
      r.category === "S"
        ? tr("creditNote.taxRow", { rate: num(trimZeros(r.rate)), base })
        : tr("creditNote.exemptRow", {
            category: tr(`tax.name.${r.category}` as MessageKey),
            code: r.category,
            base,
          }),
      money(r.taxAmount),
      false,
    ];
  });
}

/** A totals row: label, value, and whether it is the total (bold, larger). */
export type TotalRow = [label: string, value: string, strong: boolean];

/**
 * The totals from `y`, right-aligned, on a new page when they and `reserve` points after them
 * do not fit. `wide`: a wider label column, each row as tall as its label (the tax breakdown's
 * labels are longer: "VAT 19% of 91.66 EUR"). Answers the y under them.
 */
export function drawTotals(
  { doc, right, bottom }: PdfFrame,
  y0: number,
  rows: TotalRow[],
  { reserve, wide }: { reserve: number; wide: boolean },
): number {
  let y = y0;
  if (y + rows.length * 18 + reserve > bottom()) {
    doc.addPage();
    y = doc.page.margins.top;
  }
  for (const [label, value, strong] of rows) {
    doc
      .font(strong ? "Bold" : "Body")
      .fontSize(strong ? 12 : 10)
      .fillColor(INK);
    const labelWidth = wide ? 180 : 150;
    const h = doc.heightOfString(label, { width: labelWidth });
    doc.text(label, right - (wide ? 330 : 255), y, { width: labelWidth });
    doc.text(value, right - 200, y, { width: 200, align: "right" });
    y += wide ? Math.max(strong ? 20 : 16, h + 4) : strong ? 20 : 16;
  }
  return y;
}
