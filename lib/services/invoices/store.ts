import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { isRootDatabase, prepared } from "@/db/prepared";
import {
  creditNotes,
  invoiceAuditLogs,
  invoiceLineItems,
  invoiceNumberCounters,
  invoices,
  payments,
} from "@/db/schema";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/domain/errors";
import { firstFreeSequence, formatInvoiceNumber } from "@/lib/domain/invoice-number";
import { isId } from "@/lib/ids";
import { keySees } from "@/lib/services/auth/key-network";
import type { AuthedContext } from "@/lib/services/context";

export type InvoiceRow = typeof invoices.$inferSelect;
export type NewInvoiceRow = typeof invoices.$inferInsert;
export type LineItemRow = typeof invoiceLineItems.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type AuditRow = typeof invoiceAuditLogs.$inferSelect;
export type InvoiceWithItems = InvoiceRow & { lineItems: LineItemRow[] };
export type CreditNoteRow = typeof creditNotes.$inferSelect;
export type OwnerInvoice = InvoiceWithItems & {
  payments: PaymentRow[];
  auditLogs: AuditRow[];
  creditNotes: CreditNoteRow[];
};

export const INVOICE_NOT_FOUND = "Invoice not found";
export const NUMBER_TAKEN = "Invoice number already exists";

/** A live (not deleted) invoice or payment link by id; 404 otherwise. */
const liveInvoiceQuery = (db: DbOrTx) =>
  db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, sql.placeholder("id")), isNull(invoices.deletedAt)))
    .limit(1);

export async function getLiveInvoice(db: DbOrTx, id: string): Promise<InvoiceRow> {
  if (!isId(id)) throw new NotFoundError(INVOICE_NOT_FOUND);
  const query = isRootDatabase(db)
    ? prepared(db, "live_invoice", (d) => liveInvoiceQuery(d).prepare("live_invoice"))
    : liveInvoiceQuery(db);
  const [row] = await query.execute({ id });
  if (!row) throw new NotFoundError(INVOICE_NOT_FOUND);
  return row;
}

/**
 * Locks the invoice row for the rest of the transaction and checks ownership:
 * 404 when missing or deleted, 403 `Unauthorized` when it belongs to another wallet.
 */
export async function lockInvoiceForOwner(
  tx: DbOrTx,
  id: string,
  ctx: AuthedContext,
): Promise<InvoiceRow> {
  const row = await lockLiveInvoice(tx, id);
  assertOwner(row, ctx);
  return row;
}

/** Locks a live invoice for the rest of the transaction (404 when missing or deleted). */
export async function lockLiveInvoice(tx: DbOrTx, id: string): Promise<InvoiceRow> {
  if (!isId(id)) throw new NotFoundError(INVOICE_NOT_FOUND);
  const [row] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, id), isNull(invoices.deletedAt)))
    .for("update");
  if (!row) throw new NotFoundError(INVOICE_NOT_FOUND);
  return row;
}

/**
 * Locks an invoice in any state, soft-deleted included, for the rest of the transaction:
 * recording a payment needs the state even when it cannot apply (404 when missing).
 */
export async function lockInvoiceAnyState(tx: DbOrTx, id: string): Promise<InvoiceRow> {
  if (!isId(id)) throw new NotFoundError(INVOICE_NOT_FOUND);
  const [row] = await tx.select().from(invoices).where(eq(invoices.id, id)).for("update");
  if (!row) throw new NotFoundError(INVOICE_NOT_FOUND);
  return row;
}

/**
 * 403 `Unauthorized` when the invoice belongs to another wallet; 404 when the caller's API
 * key works on the other network (lib/services/auth/key-network.ts).
 */
export function assertOwner(row: InvoiceRow, ctx: AuthedContext): void {
  if (row.freelancerWallet !== ctx.wallet) throw new ForbiddenError("Unauthorized");
  if (!keySees(ctx, row)) throw new NotFoundError(INVOICE_NOT_FOUND);
}

const lineItemsQuery = (db: DbOrTx) =>
  db
    .select()
    .from(invoiceLineItems)
    .where(eq(invoiceLineItems.invoiceId, sql.placeholder("invoiceId")))
    .orderBy(asc(invoiceLineItems.position));

export async function loadLineItems(db: DbOrTx, invoiceId: string): Promise<LineItemRow[]> {
  const query = isRootDatabase(db)
    ? prepared(db, "line_items", (d) => lineItemsQuery(d).prepare("line_items"))
    : lineItemsQuery(db);
  return query.execute({ invoiceId });
}

/** The line items of several invoices in one query, by invoice, each in its order. */
export async function loadLineItemsOf(
  db: DbOrTx,
  invoiceIds: string[],
): Promise<Map<string, LineItemRow[]>> {
  const byInvoice = new Map<string, LineItemRow[]>(invoiceIds.map((id) => [id, []]));
  if (!invoiceIds.length) return byInvoice;
  const rows = await db
    .select()
    .from(invoiceLineItems)
    .where(inArray(invoiceLineItems.invoiceId, invoiceIds))
    .orderBy(asc(invoiceLineItems.invoiceId), asc(invoiceLineItems.position));
  for (const row of rows) byInvoice.get(row.invoiceId)?.push(row);
  return byInvoice;
}

/** A live invoice and its line items in one round trip (the public view, a hot path). */
const liveInvoiceWithItemsQuery = (db: DbOrTx) =>
  db
    .select({ invoice: invoices, item: invoiceLineItems })
    .from(invoices)
    .leftJoin(invoiceLineItems, eq(invoiceLineItems.invoiceId, invoices.id))
    .where(and(eq(invoices.id, sql.placeholder("id")), isNull(invoices.deletedAt)))
    .orderBy(asc(invoiceLineItems.position));

export async function getLiveInvoiceWithItems(db: DbOrTx, id: string): Promise<InvoiceWithItems> {
  if (!isId(id)) throw new NotFoundError(INVOICE_NOT_FOUND);
  const query = isRootDatabase(db)
    ? prepared(db, "live_invoice_items", (d) =>
        liveInvoiceWithItemsQuery(d).prepare("live_invoice_items"),
      )
    : liveInvoiceWithItemsQuery(db);
  const rows = await query.execute({ id });
  if (!rows.length) throw new NotFoundError(INVOICE_NOT_FOUND);
  const lineItems: LineItemRow[] = [];
  for (const r of rows) if (r.item) lineItems.push(r.item);
  return { ...rows[0].invoice, lineItems };
}

const paymentsQuery = (db: DbOrTx) =>
  db
    .select()
    .from(payments)
    .where(eq(payments.invoiceId, sql.placeholder("invoiceId")))
    // Close times are whole seconds: two ledgers of one second keep their order by number.
    .orderBy(
      asc(payments.confirmedAt),
      asc(payments.ledgerNumber),
      asc(payments.transactionHash),
      asc(payments.operationIndex),
    );

/**
 * Every payment recorded for an invoice, applied or not, oldest first and in operation order
 * within a transaction (the checkout's receipt and the status polled by it: a hot path).
 */
export async function loadPayments(db: DbOrTx, invoiceId: string): Promise<PaymentRow[]> {
  const query = isRootDatabase(db)
    ? prepared(db, "invoice_payments", (d) => paymentsQuery(d).prepare("invoice_payments"))
    : paymentsQuery(db);
  return query.execute({ invoiceId });
}

export async function loadOwnerView(db: DbOrTx, row: InvoiceRow): Promise<OwnerInvoice> {
  const [lineItems, paymentRows, auditLogs, credits] = await Promise.all([
    loadLineItems(db, row.id),
    loadPayments(db, row.id),
    db
      .select()
      .from(invoiceAuditLogs)
      .where(eq(invoiceAuditLogs.invoiceId, row.id))
      .orderBy(asc(invoiceAuditLogs.createdAt), asc(invoiceAuditLogs.id)),
    db
      .select()
      .from(creditNotes)
      .where(eq(creditNotes.invoiceId, row.id))
      .orderBy(asc(creditNotes.createdAt), asc(creditNotes.number)),
  ]);
  return { ...row, lineItems, payments: paymentRows, auditLogs, creditNotes: credits };
}

/** Inserts under a supplied number: null when the wallet already has one with it (409). */
export async function insertSupplied(tx: DbOrTx, row: NewInvoiceRow): Promise<InvoiceRow | null> {
  const [inserted] = await tx
    .insert(invoices)
    .values(row)
    .onConflictDoNothing({ target: [invoices.freelancerWallet, invoices.invoiceNumber] })
    .returning();
  return inserted ?? null;
}

/**
 * Inserts an invoice or link of `wallet` under the wallet's next generated number
 * (docs/decisions.md, Invoice numbers). The counter row is taken in the caller's
 * transaction: concurrent creates of one wallet queue on it and a rollback gives the number
 * back, so numbers have no gaps. A number the wallet already used (it supplied it) is skipped.
 */
export async function insertGenerated(
  tx: DbOrTx,
  wallet: string,
  values: (invoiceNumber: string) => NewInvoiceRow,
): Promise<InvoiceRow> {
  let next = await takeNextNumber(tx, wallet);
  // Only a create supplying the very number at the same moment can make a retry miss again.
  for (let attempt = 0; attempt < 20; attempt++) {
    const row = await insertSupplied(tx, values(formatInvoiceNumber(next)));
    if (row) return row;
    next = await skipUsedNumbers(tx, wallet, next);
  }
  throw new ConflictError(NUMBER_TAKEN);
}

/** Counts the wallet's counter up by one (from 1 for a new wallet) and locks its row. */
async function takeNextNumber(tx: DbOrTx, wallet: string): Promise<bigint> {
  const [row] = await tx
    .insert(invoiceNumberCounters)
    .values({ wallet, last: 1n })
    .onConflictDoUpdate({
      target: invoiceNumberCounters.wallet,
      set: { last: sql`${invoiceNumberCounters.last} + 1` },
    })
    .returning({ last: invoiceNumberCounters.last });
  return BigInt(row.last);
}

/** Moves the wallet's counter past `taken` and every used generated-form number after it. */
async function skipUsedNumbers(tx: DbOrTx, wallet: string, taken: bigint): Promise<bigint> {
  const from = formatInvoiceNumber(taken + 1n);
  const used = await tx
    .select({ invoiceNumber: invoices.invoiceNumber })
    .from(invoices)
    .where(
      and(
        eq(invoices.freelancerWallet, wallet),
        sql`${invoices.invoiceNumber} ~ '^INV-[0-9]{4,24}$'`,
        sql`(length(${invoices.invoiceNumber}), ${invoices.invoiceNumber}) >= (${from.length}::int, ${from}::text)`,
      ),
    );
  const next = firstFreeSequence(
    taken + 1n,
    used.map((r) => r.invoiceNumber),
  );
  await tx
    .update(invoiceNumberCounters)
    .set({ last: next })
    .where(eq(invoiceNumberCounters.wallet, wallet));
  return next;
}

export async function replaceLineItems(
  tx: DbOrTx,
  invoiceId: string,
  items: { id: string; description: string; quantity: string; rate: string; amount: string }[],
): Promise<void> {
  await tx.delete(invoiceLineItems).where(eq(invoiceLineItems.invoiceId, invoiceId));
  if (items.length === 0) return;
  await tx
    .insert(invoiceLineItems)
    .values(items.map((item, position) => ({ ...item, invoiceId, position })));
}
