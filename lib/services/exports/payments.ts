import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import { invoices, payments } from "@/db/schema";
import { canonicalAmount } from "@/lib/domain/money";
import { normalizeRate } from "@/lib/prices/pairs";
import type { ExportQuery } from "@/lib/schemas/exports";
import { networkOf } from "@/lib/stellar/networks";
import type { AuthedContext } from "../context";
import { type Column, csvStream, EXPORT_PAGE_SIZE, isoCell, keysetPages, pageOf } from "./csv";
import { cursorText, invoiceFilter, type TimeCursor, timeRange } from "./scope";

/**
 * One read: the next EXPORT_PAGE_SIZE of the wallet's payments by (confirmedAt, id), straight
 * off payments_wallet_confirmed_idx (to_wallet is the invoice's freelancer wallet), then their
 * invoices. The invoice conditions (network, an API key's network) sit in the join, not in
 * the page's WHERE: a join there lets the planner sort the whole table for every page. A
 * payment whose invoice they leave out comes back with `invoice` null.
 */
function readPage(ctx: AuthedContext, query: ExportQuery, after: TimeCursor | null) {
  const keyset = after
    ? [sql`(${payments.confirmedAt}, ${payments.id}) > (${after.at}::timestamptz, ${after.id})`]
    : [];
  const page = ctx.db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.toWallet, ctx.wallet),
        ...timeRange(payments.confirmedAt, query),
        ...keyset,
      ) as SQL,
    )
    .orderBy(asc(payments.confirmedAt), asc(payments.id))
    .limit(EXPORT_PAGE_SIZE)
    .as("page");
  return ctx.db
    .select({
      payment: page._.selectedFields,
      cursorAt: cursorText(page.confirmedAt),
      invoice: {
        number: invoices.invoiceNumber,
        parentLinkId: invoices.parentLinkId,
        clientName: invoices.clientName,
        clientEmail: invoices.clientEmail,
        priceCurrency: invoices.priceCurrency,
        networkPassphrase: invoices.networkPassphrase,
      },
    })
    .from(page)
    .leftJoin(invoices, and(eq(invoices.id, page.invoiceId), ...invoiceFilter(ctx, query)))
    .orderBy(asc(page.confirmedAt), asc(page.id));
}
type Read = Awaited<ReturnType<typeof readPage>>[number];
type PaymentExportRow = Read["payment"] & { invoice: NonNullable<Read["invoice"]> };

const refunded = (p: PaymentExportRow) => canonicalAmount(p.amountRefunded) !== "0.0000000";

/** The payments CSV, one row per payment operation (docs/decisions.md, Exports). */
export const PAYMENT_COLUMNS: readonly Column<PaymentExportRow>[] = [
  ["paymentId", (p) => p.id],
  ["invoiceNumber", (p) => p.invoice.number],
  ["invoiceId", (p) => p.invoiceId],
  // A payment link's checkout: the link it was paid through (docs/decisions.md, Payment links).
  ["parentLinkId", (p) => p.invoice.parentLinkId],
  ["clientName", (p) => p.invoice.clientName],
  ["clientEmail", (p) => p.invoice.clientEmail],
  ["asset", (p) => p.asset],
  ["assetIssuer", (p) => p.assetIssuer],
  ["amount", (p) => canonicalAmount(p.amount)],
  ["fiatCurrency", (p) => p.fiatCurrency],
  ["fiatValue", (p) => p.fiatValue],
  // As the API writes it (GET /api/invoices/:id/owner): the numeric(30,12) without padding.
  ["rate", (p) => (p.rate === null ? null : normalizeRate(p.rate))],
  ["rateSource", (p) => p.rateSource],
  ["rateAt", (p) => isoCell(p.rateAt)],
  ["priceCurrency", (p) => p.invoice.priceCurrency],
  ["priceValue", (p) => p.priceValue],
  ["paidLate", (p) => String(p.paidLate)],
  ["transactionHash", (p) => p.transactionHash],
  ["ledger", (p) => (p.ledgerNumber === null ? null : String(p.ledgerNumber))],
  ["operationIndex", (p) => String(p.operationIndex)],
  ["fromWallet", (p) => p.fromWallet],
  [
    "status",
    (p) =>
      p.status === "VOIDED"
        ? "voided"
        : refunded(p)
          ? "refunded"
          : p.applied
            ? "applied"
            : "unapplied",
  ],
  ["unappliedReason", (p) => p.unappliedReason],
  ["amountRefunded", (p) => canonicalAmount(p.amountRefunded)],
  ["confirmedAt", (p) => isoCell(p.confirmedAt)],
  ["network", (p) => networkOf(p.invoice.networkPassphrase)],
  // How it came: `stellar`, or a payment received outside Stellar (no hash, ledger or sender)
  // with the owner's reference (docs/decisions.md, Payments received outside Stellar).
  ["method", (p) => p.method],
  ["reference", (p) => p.reference],
];

/** The caller's payments, oldest first, a page at a time. */
export const paymentPages = (ctx: AuthedContext, query: ExportQuery) =>
  keysetPages(async (after: TimeCursor | null) => {
    const read = await readPage(ctx, query, after);
    const page = pageOf(read, (r): TimeCursor => ({ at: r.cursorAt, id: r.payment.id }));
    const rows: PaymentExportRow[] = [];
    for (const r of read) if (r.invoice) rows.push({ ...r.payment, invoice: r.invoice });
    return { rows, next: page.next };
  });

export const exportPayments = (ctx: AuthedContext, query: ExportQuery) =>
  csvStream(ctx, PAYMENT_COLUMNS, paymentPages(ctx, query));
