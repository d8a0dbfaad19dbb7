import type { DbOrTx } from "@/db/client";
import type { InvoiceTrigger } from "@/lib/domain/invoice-state";
import { actorOf } from "@/lib/services/context";
import { queueEmailOnSend } from "@/lib/services/email/invoice-email";
import type { AuthedContext } from "../context";
import { withTransaction } from "../db";
import { assertCanReceive } from "../payments/recipient-readiness";
import { applyTransition, type TransitionDetails } from "./lifecycle";
import { networkName } from "./network";
import { assertOwner, getLiveInvoice, type InvoiceRow, lockInvoiceForOwner } from "./store";

/** One owner action on one invoice: lock it as its owner, then apply the move. */
function asOwner(
  ctx: AuthedContext,
  id: string,
  trigger: InvoiceTrigger,
  details: (now: Date) => Partial<TransitionDetails> = () => ({}),
  after?: (tx: DbOrTx, row: InvoiceRow, now: Date) => Promise<void>,
): Promise<InvoiceRow> {
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const current = await lockInvoiceForOwner(tx, id, ctx);
    const row = await applyTransition(tx, current, trigger, {
      actor: actorOf(ctx),
      at: now,
      ...details(now),
    });
    if (after) await after(tx, row, now);
    return row;
  });
}

/**
 * DRAFT -> PENDING: the invoice becomes payable and read-only. A draft is first checked on its
 * network: the freelancer's wallet must be able to receive its asset (docs/decisions.md,
 * Recipient readiness), read before the row is locked so no lock waits on Horizon.
 */
export async function sendInvoice(ctx: AuthedContext, id: string): Promise<InvoiceRow> {
  const current = await getLiveInvoice(ctx.db, id);
  assertOwner(current, ctx);
  if (current.status === "DRAFT") {
    await assertCanReceive(ctx, current, networkName(current.networkPassphrase));
  }
  // The client's email is queued with the send, in its transaction (docs/decisions.md, Email).
  return asOwner(ctx, id, "send", undefined, (tx, sent, now) =>
    queueEmailOnSend(tx, ctx.config, sent, now),
  );
}

/** Owner cancels from DRAFT, PENDING, PROCESSING, FAILED or EXPIRED (docs/decisions.md). */
export function cancelInvoice(
  ctx: AuthedContext,
  id: string,
  reason: string | undefined,
): Promise<InvoiceRow> {
  return asOwner(ctx, id, "cancel", () => ({
    changes: { reason: reason ?? null },
    reason: reason ?? null,
  }));
}

/** Soft delete, DRAFT only: hidden from every view, kept for the audit trail. */
export async function deleteInvoice(ctx: AuthedContext, id: string): Promise<void> {
  await asOwner(ctx, id, "delete", (now) => ({
    changes: { deletedAt: { from: null, to: now.toISOString() } },
  }));
}
