import { eq } from "drizzle-orm";
import { invoices } from "@/db/schema";
import { transition } from "@/lib/domain/invoice-state";
import { emitEvent, writeAudit } from "../audit";
import type { AuthedContext } from "../context";
import { withTransaction } from "../db";
import { type InvoiceRow, lockInvoiceForOwner } from "./store";

/** DRAFT -> PENDING: the invoice becomes payable and read-only (spec 3). */
export async function sendInvoice(ctx: AuthedContext, id: string): Promise<InvoiceRow> {
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const current = await lockInvoiceForOwner(tx, id, ctx.wallet);
    const move = transition(current.status, "send");
    const [updated] = await tx
      .update(invoices)
      .set({ status: move.to, sentAt: now, updatedAt: now })
      .where(eq(invoices.id, id))
      .returning();
    await writeAudit(tx, {
      invoiceId: id,
      action: "SENT",
      actorWallet: ctx.wallet,
      changes: { status: { from: move.from, to: move.to } },
      at: now,
    });
    await emitEvent(tx, {
      type: "invoice.sent",
      wallet: ctx.wallet,
      invoiceId: id,
      at: now,
      data: {
        id,
        invoiceNumber: updated.invoiceNumber,
        status: updated.status,
        previousStatus: move.from,
        sentAt: now.toISOString(),
      },
    });
    return updated;
  });
}

/** Owner cancels from DRAFT, PENDING, PROCESSING, FAILED or EXPIRED (decisions.md). */
export async function cancelInvoice(
  ctx: AuthedContext,
  id: string,
  reason: string | undefined,
): Promise<InvoiceRow> {
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const current = await lockInvoiceForOwner(tx, id, ctx.wallet);
    const move = transition(current.status, "cancel");
    const [updated] = await tx
      .update(invoices)
      .set({ status: move.to, cancelledAt: now, updatedAt: now })
      .where(eq(invoices.id, id))
      .returning();
    await writeAudit(tx, {
      invoiceId: id,
      action: "CANCELLED",
      actorWallet: ctx.wallet,
      changes: { status: { from: move.from, to: move.to }, reason: reason ?? null },
      at: now,
    });
    await emitEvent(tx, {
      type: "invoice.cancelled",
      wallet: ctx.wallet,
      invoiceId: id,
      at: now,
      data: {
        id,
        invoiceNumber: updated.invoiceNumber,
        status: updated.status,
        previousStatus: move.from,
        cancelledAt: now.toISOString(),
        cancelledBy: ctx.wallet,
        reason: reason ?? null,
      },
    });
    return updated;
  });
}

/** Soft delete, DRAFT only: hidden from every view, kept for the audit trail. */
export async function deleteInvoice(ctx: AuthedContext, id: string): Promise<void> {
  const now = ctx.now();
  await withTransaction(ctx.db, async (tx) => {
    const current = await lockInvoiceForOwner(tx, id, ctx.wallet);
    transition(current.status, "delete");
    await tx.update(invoices).set({ deletedAt: now, updatedAt: now }).where(eq(invoices.id, id));
    await writeAudit(tx, {
      invoiceId: id,
      action: "DELETED",
      actorWallet: ctx.wallet,
      changes: { deletedAt: { from: null, to: now.toISOString() } },
      at: now,
    });
  });
}
