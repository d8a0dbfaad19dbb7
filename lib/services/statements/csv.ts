import { type Column, csvLines, headerLine, UTF8_BOM } from "@/lib/services/exports/csv";
import type { Statement } from "./statement";

/** One CSV row: a currency's opening balance, one of its lines, or its closing balance. */
type Row = {
  currency: string;
  date: string;
  kind: string;
  reference: string | null;
  invoiceNumber: string | null;
  invoiceId: string | null;
  amount: string | null;
  balance: string;
};

const COLUMNS: readonly Column<Row>[] = [
  ["currency", (r) => r.currency],
  ["date", (r) => r.date],
  ["kind", (r) => r.kind],
  ["reference", (r) => r.reference],
  ["invoiceNumber", (r) => r.invoiceNumber],
  ["invoiceId", (r) => r.invoiceId],
  ["amount", (r) => r.amount],
  ["balance", (r) => r.balance],
];

/**
 * The statement as CSV (docs/decisions.md, Statements): per currency an `opening_balance` row
 * dated `from`, the lines (`invoice`, `payment`, `refund`, `credit_note`, each amount positive,
 * the balance after it) and a `closing_balance` row dated `to`. The exports' format: RFC 4180,
 * UTF-8 with a byte-order mark, CRLF, the formula guard on every cell.
 */
export function statementCsv(s: Statement): string {
  const rows: Row[] = [];
  for (const c of s.currencies) {
    const edge = (kind: string, date: string, balance: string): Row => ({
      currency: c.currency,
      date,
      kind,
      reference: null,
      invoiceNumber: null,
      invoiceId: null,
      amount: null,
      balance,
    });
    rows.push(edge("opening_balance", s.from, c.openingBalance));
    for (const l of c.lines) {
      rows.push({
        currency: c.currency,
        date: l.at.toISOString(),
        kind: l.kind,
        reference: l.reference,
        invoiceNumber: l.invoiceNumber,
        invoiceId: l.invoiceId,
        amount: l.amount,
        balance: l.balance,
      });
    }
    rows.push(edge("closing_balance", s.to, c.closingBalance));
  }
  return UTF8_BOM + headerLine(COLUMNS) + csvLines(COLUMNS, rows);
}
