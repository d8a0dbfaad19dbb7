import { and, asc, desc, isNull, type SQL, sql } from "drizzle-orm";
import { invoices } from "@/db/schema";
import { amountUnit, invoiceAmountDue, shownAmount } from "@/lib/domain/fiat";
import { canonicalAmount } from "@/lib/domain/money";
import type { ExportQuery } from "@/lib/schemas/exports";
import { networkOf } from "@/lib/stellar/networks";
import type { AuthedContext } from "../context";
import { type Column, csvStream, EXPORT_PAGE_SIZE, isoCell, keysetPages, pageOf } from "./csv";
import { cursorText, invoiceFilter, type TimeCursor, timeRange } from "./scope";

const created = invoices.createdAt;

/**
 * The columns the CSV writes, and only those: mapping all of an invoice's ~60 columns (JSON
 * ones included) for every row was most of an export's time and garbage.
 */
const EXPORT_FIELDS = {
  id: invoices.id,
  invoiceNumber: invoices.invoiceNumber,
  kind: invoices.kind,
  parentLinkId: invoices.parentLinkId,
  status: invoices.status,
  title: invoices.title,
  clientName: invoices.clientName,
  clientEmail: invoices.clientEmail,
  clientCompany: invoices.clientCompany,
  currency: invoices.currency,
  priceCurrency: invoices.priceCurrency,
  subtotal: invoices.subtotal,
  taxRate: invoices.taxRate,
  taxAmount: invoices.taxAmount,
  discount: invoices.discount,
  total: invoices.total,
  amountPaid: invoices.amountPaid,
  amountCredited: invoices.amountCredited,
  createdAt: invoices.createdAt,
  sentAt: invoices.sentAt,
  dueDate: invoices.dueDate,
  paidAt: invoices.paidAt,
  cancelledAt: invoices.cancelledAt,
  networkPassphrase: invoices.networkPassphrase,
};

/**
 * One page of the caller's live invoices and payment links, oldest first. Ties on createdAt
 * go by id descending: invoices_owner_created_idx (wallet, created_at desc, id), read
 * backwards, gives exactly this order.
 */
const readPage = (ctx: AuthedContext, scope: SQL | undefined, after: TimeCursor | null) =>
  ctx.db
    .select({ invoice: EXPORT_FIELDS, cursorAt: cursorText(created) })
    .from(invoices)
    .where(
      after
        ? and(
            scope,
            // The first condition alone bounds the index scan: without it every page read
            // the wallet's index from its start (docs/decisions.md, Exports, "Flat").
            sql`${created} >= ${after.at}::timestamptz`,
            sql`(${created} > ${after.at}::timestamptz or (${created} = ${after.at}::timestamptz and ${invoices.id} < ${after.id}))`,
          )
        : scope,
    )
    .orderBy(asc(created), desc(invoices.id))
    .limit(EXPORT_PAGE_SIZE);
type InvoiceExportRow = Awaited<ReturnType<typeof readPage>>[number]["invoice"];

/** The invoices CSV, one row per invoice or payment link (docs/decisions.md, Exports). */
export const INVOICE_COLUMNS: readonly Column<InvoiceExportRow>[] = [
  ["invoiceNumber", (i) => i.invoiceNumber],
  ["invoiceId", (i) => i.id],
  ["kind", (i) => i.kind],
  ["parentLinkId", (i) => i.parentLinkId],
  ["status", (i) => i.status],
  ["title", (i) => i.title],
  ["clientName", (i) => i.clientName],
  ["clientEmail", (i) => i.clientEmail],
  ["clientCompany", (i) => i.clientCompany],
  ["currency", (i) => i.currency],
  ["priceCurrency", (i) => i.priceCurrency],
  ["subtotal", (i) => canonicalAmount(i.subtotal)],
  ["taxRate", (i) => i.taxRate],
  ["taxAmount", (i) => canonicalAmount(i.taxAmount)],
  ["discount", (i) => canonicalAmount(i.discount)],
  ["total", (i) => canonicalAmount(i.total)],
  // A fiat-priced invoice's amountPaid (7 decimals inside) in cents, as the settlement counts
  // it: never 4681.4218519 above a 4681.42 total (docs/decisions.md, Fiat pricing).
  ["amountPaid", (i) => shownAmount(i.amountPaid, i.priceCurrency)],
  ["amountDue", (i) => invoiceAmountDue(i)],
  ["createdAt", (i) => isoCell(i.createdAt)],
  ["sentAt", (i) => isoCell(i.sentAt)],
  ["dueDate", (i) => isoCell(i.dueDate)],
  ["paidAt", (i) => isoCell(i.paidAt)],
  ["cancelledAt", (i) => isoCell(i.cancelledAt)],
  ["network", (i) => networkOf(i.networkPassphrase)],
  // The unit of subtotal, taxAmount, discount, total, amountPaid and amountDue: the price
  // currency of a fiat-priced invoice, else the asset (last, so earlier columns keep their place).
  ["amountsIn", (i) => amountUnit(i)],
];

async function* invoicePages(ctx: AuthedContext, query: ExportQuery) {
  const scope = and(
    ...invoiceFilter(ctx, query),
    ...timeRange(created, query),
    isNull(invoices.deletedAt),
  );
  const pages = keysetPages(async (after: TimeCursor | null) =>
    pageOf(
      await readPage(ctx, scope, after),
      (r): TimeCursor => ({ at: r.cursorAt, id: r.invoice.id }),
    ),
  );
  for await (const page of pages) yield page.map((row) => row.invoice);
}

export const exportInvoices = (ctx: AuthedContext, query: ExportQuery) =>
  csvStream(ctx, INVOICE_COLUMNS, invoicePages(ctx, query));
