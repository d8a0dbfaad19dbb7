import { and, eq, ne } from "drizzle-orm";
import { invoices, refunds } from "@/db/schema";
import { BusinessRuleError, NotFoundError, ValidationError } from "@/lib/domain/errors";
import { fromStroops, toStroops } from "@/lib/domain/money";
import { isExactRefund, REFUND_EXCEEDS_RECEIVED, refundableStroops } from "@/lib/domain/refund";
import { LedgerSourceError, ledgerSourceFor } from "@/lib/ledger-sources";
import { keySees } from "@/lib/services/auth/key-network";
import { actorOf } from "@/lib/services/context";
import {
  failedOperationSends,
  ledgerError,
  primaryLedgerCode,
  toDomainError,
} from "@/lib/stellar/errors";
import { destinationOf } from "@/lib/stellar/muxed";
import type { PathAsset } from "@/lib/stellar/paths";
import { decodeSignedTransaction } from "@/lib/stellar/transactions";
import type { AuthedContext } from "../context";
import { withTransaction } from "../db";
import { networkName } from "../invoices/network";
import { INVALID_XDR, waitForTransaction } from "../payments/settle";
import { type RefundOutcome, recordRefund } from "./record-refund";
import {
  getOwnRefund,
  lockPaymentAndHeld,
  REFUND_NOT_FOUND,
  type RefundRow,
  refundAsset,
} from "./store";

export const REFUND_MISMATCH = "Transaction does not match refund";
export const REFUND_EXPIRED = "Refund has expired. Create a new refund";

export type RefundSubmitOutcome = RefundOutcome | { kind: "pending"; refund: RefundRow };

/**
 * Sends the owner's signed refund (docs/decisions.md, Refunds). Before it reaches the ledger
 * the envelope must decode, be signed for the invoice's network and be exactly the refund that
 * was built (source, destination, asset and issuer, amount, memo; one operation). It goes out
 * through the payments' Horizon submit; success records it (lib/services/refunds/
 * record-refund.ts), a ledger rejection marks it FAILED and answers the ledger's message, and a
 * timeout is resolved by looking the hash up (202 pending when the network does not know it
 * yet; the watcher finishes the job). A refund already confirmed answers as it is.
 */
export async function submitRefund(
  ctx: AuthedContext,
  input: { refundId: string; envelopeXdr: string },
): Promise<RefundSubmitOutcome> {
  const refund = await getOwnRefund(ctx.db, input.refundId, ctx.wallet);
  const [invoice] = await ctx.db
    .select({ networkPassphrase: invoices.networkPassphrase })
    .from(invoices)
    .where(eq(invoices.id, refund.invoiceId));
  // A key's refunds are its network's, as its invoices are (lib/services/auth/key-network.ts).
  if (!keySees(ctx, invoice)) throw new NotFoundError(REFUND_NOT_FOUND);
  if (refund.status === "CONFIRMED") return { kind: "already_recorded", refund };
  if (ctx.now() > refund.expiresAt) {
    await setStatus(ctx, refund.id, { status: "EXPIRED" });
    throw new BusinessRuleError(REFUND_EXPIRED);
  }
  const passphrase = invoice.networkPassphrase;
  // A refund to a contract account is its asset contract's transfer (lib/stellar/soroban.ts).
  const decoded = decodeSignedTransaction(input.envelopeXdr, passphrase, [
    refundAsset(refund) as PathAsset,
  ]);
  if (!decoded) {
    throw new ValidationError(INVALID_XDR, { signedTransactionXdr: "not a transaction envelope" });
  }
  if (decoded.signedFor === "other") {
    throw new BusinessRuleError(
      `Network mismatch: Transaction signed for '${decoded.otherPassphrase}' but the refund requires '${passphrase}'`,
    );
  }
  // Destinations as sent: a refund to a muxed account pays its M address (destinationOf).
  const asSent = {
    ...decoded,
    operations: decoded.operations.map((op) => ({ ...op, to: destinationOf(op) })),
  };
  if (!isExactRefund(refund, asSent)) throw new BusinessRuleError(REFUND_MISMATCH);

  const recorded = await holdForSubmit(ctx, refund, decoded.hash);
  if (recorded) return { kind: "already_recorded", refund: recorded };
  const source = ledgerSourceFor(ctx.config, networkName(passphrase));
  let ledger: number | null = null;
  try {
    ledger = (await source.submit(decoded.envelopeXdr)).ledger;
  } catch (err) {
    if (!(err instanceof LedgerSourceError)) throw err;
    const f = err.failure;
    if (f.kind === "transaction_failed") {
      await setStatus(ctx, refund.id, { status: "FAILED" });
      throw ledgerError(
        primaryLedgerCode(f.transaction, f.operations),
        failedOperationSends(f.operations, decoded.sends),
      );
    }
    if (f.kind !== "timeout") throw toDomainError(err);
    // 504: the transaction may still be applied. Look the hash up; never resubmit.
    const tx = await waitForTransaction(source, decoded.hash);
    if (!tx) return { kind: "pending", refund: { ...refund, status: "SUBMITTED" } };
    if (!tx.successful) {
      await setStatus(ctx, refund.id, { status: "FAILED" });
      throw new BusinessRuleError("Transaction was not successful");
    }
    ledger = tx.ledger;
  }
  return recordRefund(ctx, refund.id, { hash: decoded.hash, ledger, at: ctx.now() }, actorOf(ctx));
}

/**
 * Marks the refund SUBMITTED, holding its amount again, once it still fits what the payment
 * has left (under the payment's row lock, as a refund is built): a refund marked FAILED (or a
 * PENDING one whose amount a late refund took, docs/decisions.md, Refunds) no longer held
 * it, and sending it now would give back more than was received: 400 `Refund exceeds the
 * amount received`, nothing sent.
 */
async function holdForSubmit(
  ctx: AuthedContext,
  refund: RefundRow,
  hash: string,
): Promise<RefundRow | null> {
  return withTransaction(ctx.db, async (tx) => {
    // The refund's row first, then the payment's: the order recordRefund locks them in, so a
    // submit and the watcher recording the same refund queue instead of deadlocking.
    const [current] = await tx
      .select()
      .from(refunds)
      .where(eq(refunds.id, refund.id))
      .for("update");
    // Recorded meanwhile (another submit, the watcher): nothing to send again.
    if (current.status === "CONFIRMED") return current;
    const locked = await lockPaymentAndHeld(tx, refund.paymentId, ctx.now(), refund.id);
    if (!locked) throw new NotFoundError(REFUND_NOT_FOUND);
    const { payment, held } = locked;
    const left = refundableStroops(payment, held);
    if (toStroops(refund.amount) > left) {
      throw new BusinessRuleError(REFUND_EXCEEDS_RECEIVED, {
        amount: `at most ${fromStroops(left)} can be refunded from this payment`,
      });
    }
    await setStatus({ ...ctx, db: tx }, refund.id, { status: "SUBMITTED", transactionHash: hash });
    return null;
  });
}

/** Moves a refund that is not yet confirmed (a confirmed one is never touched again). */
async function setStatus(
  ctx: AuthedContext,
  id: string,
  set: Partial<Pick<RefundRow, "status" | "transactionHash">>,
): Promise<void> {
  await ctx.db
    .update(refunds)
    .set(set)
    .where(and(eq(refunds.id, id), ne(refunds.status, "CONFIRMED")));
}
