import { stringify } from "csv-stringify/sync";
import type { ExportQuery } from "@/lib/schemas/exports";
import type { ServiceContext } from "../context";

// CSV exports (docs/decisions.md, Exports): RFC 4180 (comma, CRLF, fields quoted when they hold
// a comma, a quote or a line break), UTF-8 with a byte-order mark, a header row, streamed one
// page at a time.

/**
 * The UTF-8 byte-order mark the file starts with: without it Excel reads a CSV in the
 * system's legacy code page and shows "ZoÃ«" for "Zoë". Other readers skip it.
 */
export const UTF8_BOM = "\uFEFF";

/** Rows are read and written this many at a time: memory holds about one page. */
export const EXPORT_PAGE_SIZE = 1000;

/** A cell: text as it goes out, null for an empty cell. */
export type Cell = string | null;

/** One column: its header and how a row fills it. */
export type Column<Row> = readonly [header: string, value: (row: Row) => Cell];

/**
 * OWASP CSV injection: a cell a spreadsheet would read as a formula (=, +, -, @) or that
 * starts with a tab or carriage return gets a leading single quote, so it shows as text.
 * Our own amounts, dates and ledgers never start with one of them.
 */
export const neutralise = (cell: Cell): string =>
  cell === null ? "" : /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;

// csv-stringify quotes a field holding the record delimiter (CRLF) but not a lone LF or CR,
// which other readers (spreadsheets) take as the end of the record: quote those too.
const csv = (records: string[][]) =>
  stringify(records, { record_delimiter: "\r\n", quoted_match: /[\r\n]/ });

/** Records already guarded (each cell through `neutralise`, or known safe) as CSV text. */
export const csvRecords = (records: string[][]): string => csv(records);

/** The header row and the rows of one page as CSV text. */
export const headerLine = <Row>(columns: readonly Column<Row>[]): string =>
  csv([columns.map(([header]) => header)]);
export const csvLines = <Row>(columns: readonly Column<Row>[], rows: readonly Row[]): string =>
  csv(rows.map((row) => columns.map(([, value]) => neutralise(value(row)))));

/**
 * A byte stream of the header and then each page `pages` yields, read only when the reader
 * asks for more (pull): a slow download holds one page in memory, not the whole export. A
 * failure after the first bytes aborts the stream (the status is already sent).
 */
export function csvStream<Row>(
  ctx: ServiceContext,
  columns: readonly Column<Row>[],
  pages: AsyncGenerator<readonly Row[]>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(UTF8_BOM + headerLine(columns)));
      },
      async pull(controller) {
        try {
          const next = await pages.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(csvLines(columns, next.value)));
        } catch (err) {
          ctx.logger.error("export failed", { requestId: ctx.requestId, error: String(err) });
          controller.error(err);
        }
      },
      async cancel() {
        await pages.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}

/** One read of a keyset walk: its rows, and the cursor to read on from (null: the end). */
export type Page<Row, Cursor> = { rows: Row[]; next: Cursor | null };

/** A read of EXPORT_PAGE_SIZE rows was the last when it came back short. */
export const pageOf = <Row, Cursor>(
  rows: Row[],
  cursorOf: (row: Row) => Cursor,
): Page<Row, Cursor> => ({
  rows,
  next: rows.length < EXPORT_PAGE_SIZE ? null : cursorOf(rows[rows.length - 1]),
});

/** Keyset pages: `page(after)` from the start (null) until a read says it was the last. */
export async function* keysetPages<Row, Cursor>(
  page: (after: Cursor | null) => Promise<Page<Row, Cursor>>,
): AsyncGenerator<Row[]> {
  let after: Cursor | null = null;
  do {
    const { rows, next }: Page<Row, Cursor> = await page(after);
    if (rows.length) yield rows;
    after = next;
  } while (after !== null);
}

/** ISO 8601 UTC, as the API writes times; empty when absent. */
export const isoCell = (d: Date | null): Cell => (d ? d.toISOString() : null);

/** `payments.csv`, or with the range and network asked: `payments_2026-01-01_2026-02-01_mainnet.csv`. */
export function exportFilename(name: string, query: ExportQuery): string {
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const parts = [name];
  if (query.from) parts.push(day(query.from));
  if (query.to) parts.push(query.from ? day(query.to) : `to_${day(query.to)}`);
  if (query.network) parts.push(query.network);
  return `${parts.join("_")}.csv`;
}
