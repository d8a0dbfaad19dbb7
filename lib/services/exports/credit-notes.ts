import { and, asc, desc, eq, sql } from "drizzle-orm";
import { creditNotes, invoices } from "@/db/schema";
import { canonicalAmount } from "@/lib/domain/money";
import type { ExportQuery } from "@/lib/schemas/exports";
import { networkOf } from "@/lib/stellar/networks";
import type { AuthedContext } from "../context";
import { type Column, csvStream, EXPORT_PAGE_SIZE, isoCell, keysetPages, pageOf } from "./csv";
import { cursorText, invoiceFilter, type TimeCursor, timeRange } from "./scope";

const created = creditNotes.createdAt;

/** One page of the caller's credit notes, oldest first (ties by id descending). */
const readPage = (ctx: AuthedContext, scope: ReturnType<typeof and>, after: TimeCursor | null) =>
  ctx.db
    .select({
      note: creditNotes,
      invoiceNumber: invoices.invoiceNumber,
      networkPassphrase: invoices.networkPassphrase,
      cursorAt: cursorText(created),
    })
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
    .where(
      after
        ? and(
            scope,
            // The first condition alone bounds the index scan: without it every page read
            // the wallet's index from its start (docs/decisions.md, Exports, "Flat").
            sql`${created} >= ${after.at}::timestamptz`,
            sql`(${created} > ${after.at}::timestamptz or (${created} = ${after.at}::timestamptz and ${creditNotes.id} < ${after.id}))`,
          )
        : scope,
    )
    .orderBy(asc(created), desc(creditNotes.id))
    .limit(EXPORT_PAGE_SIZE);
type Row = Awaited<ReturnType<typeof readPage>>[number];

/**
 * The credit notes CSV (docs/decisions.md, Credit notes, and Exports): what an accountant books
 * as a negative sale: number, date, the invoice it corrects, net (subtotal less the discount's
 * share), tax, total, their unit, and the tax in the invoice's tax currency when it has one.
 */
export const CREDIT_NOTE_COLUMNS: readonly Column<Row>[] = [
  ["creditNoteNumber", (r) => r.note.number],
  ["creditNoteId", (r) => r.note.id],
  ["createdAt", (r) => isoCell(r.note.createdAt)],
  ["invoiceNumber", (r) => r.invoiceNumber],
  ["invoiceId", (r) => r.note.invoiceId],
  ["reason", (r) => r.note.reason],
  ["net", (r) => canonicalAmount(sumNet(r.note.subtotal, r.note.discount))],
  ["taxAmount", (r) => canonicalAmount(r.note.taxAmount)],
  ["total", (r) => canonicalAmount(r.note.total)],
  ["amountsIn", (r) => r.note.unit],
  ["taxCurrency", (r) => r.note.taxCurrency],
  ["taxAmountInTaxCurrency", (r) => r.note.taxAmountInTaxCurrency],
  ["refundId", (r) => r.note.refundId],
  ["network", (r) => networkOf(r.networkPassphrase)],
];

/** Net of the credit note: its subtotal less its share of the discount (7 decimals, exact). */
function sumNet(subtotal: string, discount: string): string {
  const s = BigInt(canonicalAmount(subtotal).replace(".", ""));
  const d = BigInt(canonicalAmount(discount).replace(".", ""));
  const v = (s - d).toString().padStart(8, "0");
  return `${v.slice(0, -7)}.${v.slice(-7)}`;
}

async function* creditNotePages(ctx: AuthedContext, query: ExportQuery) {
  // The note's own wallet (its invoice's owner) too: it lets the page read
  // credit_notes_owner_created_idx instead of joining all of the wallet's invoices.
  const scope = and(
    eq(creditNotes.wallet, ctx.wallet),
    ...invoiceFilter(ctx, query),
    ...timeRange(created, query),
  );
  const pages = keysetPages(async (after: TimeCursor | null) =>
    pageOf(
      await readPage(ctx, scope, after),
      (r): TimeCursor => ({ at: r.cursorAt, id: r.note.id }),
    ),
  );
  for await (const page of pages) yield page;
}

export const exportCreditNotes = (ctx: AuthedContext, query: ExportQuery) =>
  csvStream(ctx, CREDIT_NOTE_COLUMNS, creditNotePages(ctx, query));
