import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { isRootDatabase, prepared } from "@/db/prepared";
import { invoiceAuditLogs, invoiceLineItems, invoices, payments } from "@/db/schema";
import { ForbiddenError, NotFoundError } from "@/lib/domain/errors";
import { formatInvoiceNumber } from "@/lib/domain/invoice-number";
import { isId } from "@/lib/ids";
import { rowsOf } from "../db";

export type InvoiceRow = typeof invoices.$inferSelect;
export type NewInvoiceRow = typeof invoices.$inferInsert;
export type LineItemRow = typeof invoiceLineItems.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type AuditRow = typeof invoiceAuditLogs.$inferSelect;
export type InvoiceWithItems = InvoiceRow & { lineItems: LineItemRow[] };
export type OwnerInvoice = InvoiceWithItems & { payments: PaymentRow[]; auditLogs: AuditRow[] };

export const INVOICE_NOT_FOUND = "Invoice not found";

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
  wallet: string,
): Promise<InvoiceRow> {
  const row = await lockLiveInvoice(tx, id);
  assertOwner(row, wallet);
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

/** 403 `Unauthorized` when the invoice belongs to another wallet. */
export function assertOwner(row: InvoiceRow, wallet: string): void {
  if (row.freelancerWallet !== wallet) throw new ForbiddenError("Unauthorized");
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

export async function loadOwnerView(db: DbOrTx, row: InvoiceRow): Promise<OwnerInvoice> {
  const [lineItems, paymentRows, auditLogs] = await Promise.all([
    loadLineItems(db, row.id),
    db
      .select()
      .from(payments)
      .where(eq(payments.invoiceId, row.id))
      .orderBy(asc(payments.confirmedAt)),
    db
      .select()
      .from(invoiceAuditLogs)
      .where(eq(invoiceAuditLogs.invoiceId, row.id))
      .orderBy(asc(invoiceAuditLogs.createdAt), asc(invoiceAuditLogs.id)),
  ]);
  return { ...row, lineItems, payments: paymentRows, auditLogs };
}

/**
 * Inserts an invoice or link under the `supplied` number, or else under the next generated
 * one. A generated number can meet one a user supplied earlier: the next value is taken
 * then, up to 20 times. Null when the number is taken (a supplied one is tried once).
 */
export async function insertNumbered(
  tx: DbOrTx,
  values: (invoiceNumber: string) => NewInvoiceRow,
  supplied?: string,
): Promise<InvoiceRow | null> {
  for (let attempt = 0; attempt < (supplied ? 1 : 20); attempt++) {
    const invoiceNumber = supplied ?? formatInvoiceNumber(await nextInvoiceSequence(tx));
    const [row] = await tx
      .insert(invoices)
      .values(values(invoiceNumber))
      .onConflictDoNothing({ target: invoices.invoiceNumber })
      .returning();
    if (row) return row;
  }
  return null;
}

/** Next generated invoice number from the global sequence (never read-max-plus-one). */
async function nextInvoiceSequence(db: DbOrTx): Promise<bigint> {
  const result = await db.execute<{ n: string }>(
    sql`select nextval('invoice_number_seq')::text as n`,
  );
  return BigInt(rowsOf<{ n: string }>(result)[0].n);
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
