import { payableTotal } from "@/lib/domain/credit-note";
import {
  BusinessRuleError,
  NotFoundError,
  UnavailableError,
  ValidationError,
} from "@/lib/domain/errors";
import { invoiceAmountDue, paidTowardsTotal, valueAgainstQuote } from "@/lib/domain/fiat";
import { isPayable, transition } from "@/lib/domain/invoice-state";
import { sumAmounts, toStroops } from "@/lib/domain/money";
import {
  appliedAmount,
  MISMATCH_MESSAGE,
  OWN_INVOICE_MESSAGE,
  type PaymentTransaction,
  underpaymentMessage,
} from "@/lib/domain/payment-match";
import { isPaidInFull } from "@/lib/domain/settlement";
import { type LedgerSource, LedgerSourceError, ledgerSourceFor } from "@/lib/ledger-sources";
import { networkAssets } from "@/lib/stellar/assets";
import {
  failedOperationSends,
  ledgerError,
  NETWORK_UNAVAILABLE,
  primaryLedgerCode,
  toDomainError,
  viaLedger,
} from "@/lib/stellar/errors";
import { decodeSignedTransaction } from "@/lib/stellar/transactions";
import type { ServiceContext } from "../context";
import { withTransaction } from "../db";
import { applyTransition, SYSTEM_ACTOR } from "../invoices/lifecycle";
import { networkName } from "../invoices/network";
import { getLiveInvoice, type InvoiceRow, lockLiveInvoice } from "../invoices/store";
import { quoteLiveAt } from "./quotes";
import {
  answerFor,
  classifyAgainstInvoice,
  otherInvoicesNamed,
  partRecordedFor,
  type RecordOutcome,
  recordWithOthers,
} from "./record-payment";

export type SubmitOutcome = RecordOutcome | { kind: "pending"; hash: string; invoice: InvoiceRow };

export const INVALID_XDR = "Invalid signed transaction";
export const TX_NOT_FOUND_ON_NETWORK = "Transaction not found on network";

/**
 * Submit: check the signed transaction against the invoice (network, then the classifier as
 * if it had succeeded: no self-payment, and enough to pay the amount due in full) before it
 * reaches the ledger; send it; on success record it through the one recorder (the other
 * wallets' invoices it pays too, `recordWithOthers`) and answer as confirm does; on a ledger
 * rejection move PROCESSING to FAILED (audit FAILED) and answer the ledger's message. A
 * Horizon timeout is resolved by looking the hash up, never by sending another transaction.
 */
export async function submitPayment(
  ctx: ServiceContext,
  input: { invoiceId: string; envelopeXdr: string },
): Promise<SubmitOutcome> {
  const invoice = await invoiceToPay(ctx, input.invoiceId);
  if (invoice.status === "PAID") return { kind: "already_paid", invoice };

  const network = networkName(invoice.networkPassphrase);
  // A smart wallet's asset contract transfer reads as a payment too (docs/decisions.md,
  // Smart-wallet payers).
  const decoded = decodeSignedTransaction(
    input.envelopeXdr,
    invoice.networkPassphrase,
    networkAssets(ctx.config, network),
  );
  if (!decoded)
    throw new ValidationError(INVALID_XDR, { signedTransactionXdr: "not a transaction envelope" });
  if (decoded.signedFor === "other") {
    throw new BusinessRuleError(
      `Network mismatch: Transaction signed for '${decoded.otherPassphrase}' but invoice requires '${invoice.networkPassphrase}'`,
    );
  }
  // A fiat-priced invoice's transaction past its time bounds is an expired quote's: refused
  // before sending (docs/decisions.md, Fiat pricing). Others go to the ledger, which answers
  // tx_too_late and moves the invoice to FAILED as before.
  if (
    invoice.priceCurrency &&
    decoded.validUntil &&
    decoded.validUntil.getTime() < ctx.now().getTime()
  ) {
    throw ledgerError("tx_too_late");
  }
  await checkBeforeSending(ctx, invoice, {
    hash: decoded.hash,
    innerHash: decoded.innerHash,
    successful: true,
    memoType: decoded.memoType,
    memo: decoded.memo,
    createdAt: ctx.now(),
    ledger: 0,
    sourceAccount: decoded.sourceAccount,
    operations: decoded.operations,
  });

  const source = ledgerSourceFor(ctx.config, network);
  try {
    await source.submit(decoded.envelopeXdr);
  } catch (err) {
    if (!(err instanceof LedgerSourceError)) throw err;
    const f = err.failure;
    if (f.kind === "transaction_failed") {
      const code = primaryLedgerCode(f.transaction, f.operations);
      await markSubmitFailed(ctx, invoice.id, code, decoded.hash);
      throw ledgerError(code, failedOperationSends(f.operations, decoded.sends));
    }
    if (f.kind !== "timeout") throw toDomainError(err);
    // 504: the transaction may still be applied. Look the hash up; never resubmit.
  }
  const tx = await waitForTransaction(source, decoded.hash);
  if (!tx) return { kind: "pending", hash: decoded.hash, invoice };
  return answerFor(await recordWithOthers(ctx, invoice.id, tx));
}

/**
 * Refuses, before anything is sent, a transaction that would not pay the invoice in full:
 * the classifier's rejection, a payment from the freelancer's own wallet, nothing in the
 * invoice's asset, or less than the amount due (tolerance allowed).
 */
async function checkBeforeSending(
  ctx: ServiceContext,
  invoice: InvoiceRow,
  tx: PaymentTransaction,
) {
  const recordedFor = await partRecordedFor(ctx.db, tx.hash, invoice.freelancerWallet);
  const others = await otherInvoicesNamed(ctx.db, invoice, tx);
  const pre = classifyAgainstInvoice(ctx.config, invoice, tx, recordedFor, false, others);
  if (!pre.ok) throw new BusinessRuleError(pre.message);
  if (pre.operations.some((op) => op.selfPayment)) {
    throw new BusinessRuleError(OWN_INVOICE_MESSAGE);
  }
  const sent = appliedAmount(pre.operations);
  if (toStroops(sent) === 0n) throw new BusinessRuleError(MISMATCH_MESSAGE);
  // A fiat-priced invoice compares the value at the live quote; without one the payment will
  // be valued when recorded (late), so it is not refused here (docs/decisions.md, Fiat pricing).
  let applied = sent;
  if (invoice.priceCurrency) {
    const quote = await quoteLiveAt(ctx.db, invoice.id, ctx.now());
    if (!quote) return;
    applied = valueAgainstQuote(sent, quote);
  }
  const paid = sumAmounts([invoice.amountPaid, applied]);
  if (
    !isPaidInFull(
      paidTowardsTotal(paid, invoice.priceCurrency),
      payableTotal(invoice),
      invoice.paymentTolerance,
    )
  ) {
    throw new BusinessRuleError(underpaymentMessage(applied, invoiceAmountDue(invoice)));
  }
}

/** The invoice a payment is for: PAID (the caller answers already_paid) or payable; 400 else. */
async function invoiceToPay(ctx: ServiceContext, invoiceId: string): Promise<InvoiceRow> {
  const invoice = await getLiveInvoice(ctx.db, invoiceId);
  if (invoice.status !== "PAID") transition(invoice.status, "pay");
  return invoice;
}

/** After a submit timed out: the transaction by hash, a few tries; null if still unknown. */
export async function waitForTransaction(source: LedgerSource, hash: string) {
  for (let attempt = 0; attempt < 4; attempt++) {
    try {
      const tx = await source.transaction(hash);
      if (tx) return tx;
    } catch (err) {
      if (!(err instanceof LedgerSourceError)) throw err;
      if (attempt === 3) throw new UnavailableError(NETWORK_UNAVAILABLE);
    }
    await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
  }
  return null;
}

/** PROCESSING -> FAILED with the ledger code in the audit entry; other states stay. */
async function markSubmitFailed(
  ctx: ServiceContext,
  invoiceId: string,
  code: string,
  hash: string,
) {
  await withTransaction(ctx.db, async (tx) =>
    applyTransition(tx, await lockLiveInvoice(tx, invoiceId), "submitFailed", {
      actor: SYSTEM_ACTOR,
      at: ctx.now(),
      changes: { ledgerCode: code, transactionHash: hash },
    }),
  );
}

/**
 * Confirm by hash (mobile flow, retry after a timeout, manual check): records the
 * transaction (for the other wallets' invoices it pays too, `recordWithOthers`) and answers
 * by the confirm contract (`answerFor`) for this one. On an invoice that is not
 * payable (PAID, DRAFT, CANCELLED) the transaction is still recorded when it is one of the
 * invoice's (as unapplied), and the answer stays `already_paid` or the status refusal.
 */
export async function confirmPayment(
  ctx: ServiceContext,
  { invoiceId, transactionHash }: { invoiceId: string; transactionHash: string },
): Promise<RecordOutcome> {
  const invoice = await getLiveInvoice(ctx.db, invoiceId);
  const source = ledgerSourceFor(ctx.config, networkName(invoice.networkPassphrase));
  if (!isPayable(invoice.status)) {
    await recordQuietly(ctx, invoice, source, transactionHash);
    if (invoice.status === "PAID") return { kind: "already_paid", invoice };
    transition(invoice.status, "pay"); // 400 Invoice cannot be paid
  }
  const tx = await viaLedger(() => source.transaction(transactionHash));
  if (!tx) throw new NotFoundError(TX_NOT_FOUND_ON_NETWORK);
  return answerFor(await recordWithOthers(ctx, invoice.id, tx));
}

/** Records a transaction as unapplied when it is one of the invoice's; never fails the caller. */
async function recordQuietly(
  ctx: ServiceContext,
  invoice: InvoiceRow,
  source: LedgerSource,
  hash: string,
): Promise<void> {
  try {
    const tx = await source.transaction(hash);
    if (tx) await recordWithOthers(ctx, invoice.id, tx);
  } catch (err) {
    ctx.logger.info("confirm: transaction not recorded", {
      invoiceId: invoice.id,
      hash,
      reason: err instanceof Error ? err.message : String(err),
    });
  }
}
