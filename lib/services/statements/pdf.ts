import type { StatementLineKind } from "@/lib/domain/statement";
import { formatAmount } from "@/lib/format";
import { type Language, type MessageKey, translator } from "@/lib/i18n";
import { formatDay, localizeAmount } from "@/lib/i18n/format";
import {
  drawHeader,
  drawParties,
  INK,
  MUTED,
  openPdf,
  RULE,
} from "@/lib/services/documents/pdf-frame";
import type { Statement } from "./statement";

const KIND_KEYS: Record<StatementLineKind, MessageKey> = {
  invoice: "statement.invoice",
  payment: "statement.payment",
  refund: "statement.refund",
  credit_note: "statement.creditNote",
};

/**
 * The statement as a PDF (A4, the invoice PDF's fonts and colours; docs/decisions.md,
 * Statements), every word through the i18n catalogue in `lang`: the seller and the client,
 * the period, then per currency the opening balance, the lines with the balance after each,
 * the period's totals and the closing balance. Amounts exact (every significant decimal).
 */
export function renderStatementPdf(
  s: Statement,
  opts: { lang: Language; sellerLines: string[]; issuedAt: Date },
): Promise<Buffer> {
  const { lang } = opts;
  const tr = translator(lang);
  const day = (d: Date) => formatDay(d, lang);
  const dayOf = (iso: string) => day(new Date(`${iso}T00:00:00Z`));
  const money = (v: string, unit?: string) => localizeAmount(formatAmount(v, unit), lang);
  const frame = openPdf({
    info: { Title: `${tr("statement.title")} ${s.client.name}` },
  });
  const { doc, done, left, width } = frame;
  const bottom = () => frame.bottom() - 20;
  // Columns: date, document, description, amount, balance.
  const cols = [0, 85, 200, 320, 410].map((x) => left + x);
  const amountWidth = 85;

  drawHeader(frame, {
    title: tr("statement.title"),
    titleSize: 20,
    lines: [
      { text: tr("statement.issued", { date: day(opts.issuedAt) }) },
      { text: tr("statement.period", { from: dayOf(s.from), to: dayOf(s.to) }) },
    ],
  });
  let y =
    drawParties(
      frame,
      100,
      { label: tr("statement.from"), lines: opts.sellerLines },
      { label: tr("statement.to"), lines: [s.client.name, s.client.company, s.client.email] },
    ) + 20;

  const row = (cells: [string, string, string, string, string], bold = false) => {
    if (y > bottom()) {
      doc.addPage();
      y = doc.page.margins.top;
    }
    doc
      .font(bold ? "Bold" : "Body")
      .fontSize(9)
      .fillColor(INK);
    doc.text(cells[0], cols[0], y, { width: 80, lineBreak: false });
    doc.text(cells[1], cols[1], y, { width: 110, lineBreak: false });
    doc.text(cells[2], cols[2], y, { width: 115, lineBreak: false });
    doc.text(cells[3], cols[3], y, { width: amountWidth, align: "right", lineBreak: false });
    doc.text(cells[4], cols[4], y, { width: amountWidth, align: "right", lineBreak: false });
    y += 15;
  };
  const rule = () => {
    doc
      .moveTo(left, y - 3)
      .lineTo(left + width, y - 3)
      .strokeColor(RULE)
      .lineWidth(0.5)
      .stroke();
  };

  if (s.currencies.length === 0) {
    doc.font("Body").fontSize(10).fillColor(MUTED).text(tr("statement.empty"), left, y);
  }
  for (const c of s.currencies) {
    if (y > bottom() - 80) {
      doc.addPage();
      y = doc.page.margins.top;
    }
    doc
      .font("Bold")
      .fontSize(11)
      .fillColor(INK)
      .text(tr("statement.currency", { currency: c.currency }), left, y);
    y += 20;
    doc.font("Bold").fontSize(8).fillColor(MUTED);
    const heads: MessageKey[] = [
      "statement.date",
      "statement.document",
      "statement.description",
      "statement.amount",
      "statement.balance",
    ];
    heads.forEach((h, i) => {
      doc.text(tr(h), cols[i], y, i >= 3 ? { width: amountWidth, align: "right" } : {});
    });
    y += 14;
    rule();
    row([dayOf(s.from), "", tr("statement.opening"), "", money(c.openingBalance)], true);
    for (const l of c.lines) {
      const sign = l.kind === "payment" || l.kind === "credit_note" ? "-" : "";
      row([
        day(l.at),
        l.kind === "invoice" || l.kind === "credit_note" ? l.reference : l.invoiceNumber,
        tr(KIND_KEYS[l.kind]),
        money(`${sign}${l.amount}`),
        money(l.balance),
      ]);
    }
    rule();
    row([dayOf(s.to), "", tr("statement.closing"), "", money(c.closingBalance, c.currency)], true);
    y += 4;
    const totals: [MessageKey, string][] = [
      ["statement.invoiced", c.invoiced],
      ["statement.paid", c.paid],
      ["statement.refunded", c.refunded],
      ["statement.credited", c.credited],
    ];
    for (const [key, value] of totals) row(["", "", tr(key), money(value, c.currency), ""]);
    y += 16;
  }
  if (s.currencies.some((c) => c.closingBalance.startsWith("-"))) {
    doc
      .font("Body")
      .fontSize(8)
      .fillColor(MUTED)
      .text(tr("statement.inCredit"), left, y, { width });
  }
  doc.end();
  return done;
}
