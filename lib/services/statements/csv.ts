import {
  type Column,
  csvRecords,
  headerLine,
  neutralise,
  UTF8_BOM,
} from "@/lib/services/exports/csv";
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

/** An exact amount ("-20.0000001"): a number to a spreadsheet, never a formula. */
const EXACT_AMOUNT = /^-?\d+\.\d{7}$/;

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
 * UTF-8 with a byte-order mark, CRLF, the formula guard on every cell but the exact amounts.
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
  // The formula guard on every cell, but a balance below zero (a credit) stays a number: "-20.5"
  // is no formula, and a quote before it would make it text to the accountant's spreadsheet.
  const records = rows.map((row) =>
    COLUMNS.map(([, value]) => {
      const cell = value(row);
      return cell !== null && EXACT_AMOUNT.test(cell) ? cell : neutralise(cell);
    }),
  );
  return UTF8_BOM + headerLine(COLUMNS) + csvRecords(records);
}
