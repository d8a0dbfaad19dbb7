import { and, eq, gt, inArray, ne } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { invoices, payments, refunds } from "@/db/schema";
import type { PaymentTransaction } from "@/lib/domain/payment-match";
import { isRefundOperation, refundEffect, refundIdOfMemo } from "@/lib/domain/refund";
import { destinationOf } from "@/lib/stellar/muxed";
import type { ServiceContext } from "../context";
import { withTransaction } from "../db";
import { enqueueRefundEmail } from "../email/refund-email";
import { applyTransition } from "../invoices/lifecycle";
import type { InvoiceRow, PaymentRow } from "../invoices/store";
import type { RefundRow } from "./store";

export type RefundOutcome =
  | { kind: "recorded"; refund: RefundRow; payment: PaymentRow; invoice: InvoiceRow }
  | { kind: "already_recorded"; refund: RefundRow };

/** Where the ledger shows the refund: its hash, ledger and close time. */
export type RefundOnLedger = { hash: string; ledger: number; at: Date };

/**
 * Records a refund the ledger has applied, exactly once (docs/decisions.md, Refunds), in one
 * transaction: the refund CONFIRMED with its hash and ledger (whatever it was marked before:
 * the money moved); the payment's amountRefunded (and REFUNDED once nothing is left), never
 * beyond the amount received (lib/domain/refund.ts, refundEffect: the excess is written to the
 * audit entry as `beyondReceived`); the invoice's amountPaid lowered when the money was applied,
 * its status kept, audit REFUNDED and event payment.refunded through the lifecycle writer
 * (lib/services/invoices/lifecycle.ts, trigger `refund`); the client's refund email queued
 * (lib/services/email/refund-email.ts). The refund row is locked first, so
 * submit and the watcher racing on the same refund record it once.
 */
export async function recordRefund(
  ctx: Pick<ServiceContext, "db">,
  refundId: string,
  onLedger: RefundOnLedger,
  actor?: string,
): Promise<RefundOutcome> {
  return withTransaction(ctx.db, async (tx) => {
    const [refund] = await tx.select().from(refunds).where(eq(refunds.id, refundId)).for("update");
    if (refund.status === "CONFIRMED") return { kind: "already_recorded", refund };
    // The refund is the freelancer's act whoever records it: their wallet signed it (submit
    // passes the caller, an API key included; the watcher names the refund's wallet, never
    // SYSTEM_ACTOR, so the trail reads "Refund ... by you", docs/decisions.md, Refunds).
    const by = actor ?? refund.wallet;
    // A refund's invoice may be soft-deleted since (a DRAFT's unapplied payment): lock it all
    // the same, the money has moved.
    const [invoice] = await tx
      .select()
      .from(invoices)
      .where(eq(invoices.id, refund.invoiceId))
      .for("update");
    const [payment] = await tx
      .select()
      .from(payments)
      .where(eq(payments.id, refund.paymentId))
      .for("update");
    const effect = refundEffect(payment, invoice, refund.amount);
    const [updatedPayment] = await tx
      .update(payments)
      .set(effect.payment)
      .where(eq(payments.id, payment.id))
      .returning();
    const [confirmed] = await tx
      .update(refunds)
      .set({
        status: "CONFIRMED",
        transactionHash: onLedger.hash,
        ledgerNumber: onLedger.ledger,
        confirmedAt: onLedger.at,
      })
      .where(eq(refunds.id, refund.id))
      .returning();
    const row = await applyTransition(tx, invoice, "refund", {
      actor: by,
      at: onLedger.at,
      set: { amountPaid: effect.amountPaid },
      changes: {
        refundId: refund.id,
        paymentId: payment.id,
        amount: refund.amount,
        asset: refund.asset,
        destination: refund.destination,
        transactionHash: onLedger.hash,
        amountPaid: { from: invoice.amountPaid, to: effect.amountPaid },
        // Never silent: a refund that had been given up (its amount no longer held) and what
        // it sent beyond what the payment still had (docs/decisions.md, Refunds).
        ...(refund.status === "EXPIRED" || refund.status === "FAILED"
          ? { refundStatus: { from: refund.status, to: "CONFIRMED" } }
          : {}),
        ...(effect.beyondReceived ? { beyondReceived: effect.beyondReceived } : {}),
      },
      payment: updatedPayment,
      // The refund payment.refunded carries (its schema in lib/schemas/events.ts).
      refund: {
        id: confirmed.id,
        amount: confirmed.amount,
        destination: confirmed.destination,
        memo: confirmed.memo,
        transactionHash: onLedger.hash,
        ledgerNumber: onLedger.ledger,
        confirmedAt: onLedger.at.toISOString(),
      },
    });
    // The client hears of the money sent back, with the refund (docs/decisions.md, Refunds).
    await enqueueRefundEmail(tx, row, updatedPayment, confirmed, onLedger, onLedger.at);
    return { kind: "recorded", refund: confirmed, payment: updatedPayment, invoice: row };
  });
}

/** After its time bounds a refund can no longer reach the ledger; the watcher looks this long. */
const WATCH_AFTER_EXPIRY_MS = 10 * 60_000;

/**
 * Whether a network has refunds that may still reach the ledger (built or sent, time bounds
 * not long past): the watcher keeps reading for them even when nothing is payable.
 */
export async function hasOpenRefunds(
  ctx: Pick<ServiceContext, "db" | "now">,
  passphrase: string,
): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: refunds.id })
    .from(refunds)
    .innerJoin(invoices, eq(invoices.id, refunds.invoiceId))
    .where(
      and(
        inArray(refunds.status, ["PENDING", "SUBMITTED"]),
        gt(refunds.expiresAt, new Date(ctx.now().getTime() - WATCH_AFTER_EXPIRY_MS)),
        eq(invoices.networkPassphrase, passphrase),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * The watcher's part (lib/jobs/watcher.ts): among a page of the network's payments (the
 * ledger source's transactions, lib/ledger-sources), the ones
 * whose text memo is `RF-<id>` of a refund not yet confirmed and that are exactly that refund
 * (from the freelancer's wallet to the payer, amount and asset) record it, once, whether it
 * was sent through POST /api/refunds/submit or by other means. The ledger is the truth: a
 * refund marked EXPIRED or FAILED that nevertheless appears is recorded too, counting against
 * the payment only what it still had (recordRefund). Returns how many were recorded.
 */
export async function recordRefundsSeen(
  tx: DbOrTx,
  passphrase: string,
  transactions: readonly PaymentTransaction[],
): Promise<number> {
  const seen = transactions.flatMap((transaction) => {
    const id = transaction.memoType === "text" ? refundIdOfMemo(transaction.memo) : null;
    if (!id || transaction.successful === false) return [];
    return transaction.operations.map((op) => ({ id, op, transaction }));
  });
  if (seen.length === 0) return 0;
  const candidates = await tx
    .select({ refund: refunds })
    .from(refunds)
    .innerJoin(invoices, eq(invoices.id, refunds.invoiceId))
    .where(
      and(
        inArray(refunds.id, [...new Set(seen.map((s) => s.id))]),
        ne(refunds.status, "CONFIRMED"),
        eq(invoices.networkPassphrase, passphrase),
      ),
    );
  const byId = new Map(candidates.map((c) => [c.refund.id, c.refund]));
  let recorded = 0;
  for (const { id, op, transaction } of seen) {
    const refund = byId.get(id);
    // Compared as sent: a refund to a muxed account reaches its M address (destinationOf).
    const sent = { ...op, to: destinationOf(op) };
    if (!refund || !isRefundOperation(refund, transaction.memo, transaction.sourceAccount, sent))
      continue;
    const outcome = await recordRefund({ db: tx }, refund.id, {
      hash: transaction.hash,
      ledger: transaction.ledger,
      at: transaction.createdAt,
    });
    if (outcome.kind === "recorded") recorded++;
    byId.delete(id);
  }
  return recorded;
}
