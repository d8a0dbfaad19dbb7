import { and, eq } from "drizzle-orm";
import { payments } from "@/db/schema";
import { BusinessRuleError, NotFoundError } from "@/lib/domain/errors";
import { fiat2 } from "@/lib/domain/fiat";
import { transition } from "@/lib/domain/invoice-state";
import {
  ALREADY_VOIDED,
  assertManualAmountFits,
  assertReceivedOnNotFuture,
  MANUAL_PAYMENT_LINK,
  type ManualPaymentMethod,
  ONLY_MANUAL_VOIDED,
  VOID_PAID_INVOICE,
} from "@/lib/domain/manual-payment";
import { fromStroops, parseAmount, toStroops } from "@/lib/domain/money";
import { isId, newId } from "@/lib/ids";
import { type AuthedContext, actorOf } from "../context";
import { withTransaction } from "../db";
import { applyTransition } from "../invoices/lifecycle";
import { loadOwnerView, lockInvoiceForOwner, type OwnerInvoice } from "../invoices/store";
import { PAYMENT_NOT_FOUND } from "../refunds/create-refund";
import { applyPaymentRows } from "./record-payment";

// Payments received outside Stellar (docs/decisions.md, Payments received outside Stellar):
// the owner records a bank transfer, cash or other payment; it is one Payment row without a
// transaction hash, ledger or sender (`method` says how it came), and it goes through the
// same rule as a ledger payment (`applyPaymentRows`): amountPaid, PAID when paid in full,
// audit, events, receipt and notice, in one transaction.

export type ManualPaymentInput = {
  amount: string | number;
  receivedOn: Date;
  method: ManualPaymentMethod;
  reference?: string | null;
};

/**
 * Records a payment received outside Stellar on the caller's invoice. The invoice must be a
 * payable invoice (PENDING, PROCESSING, FAILED, EXPIRED; not a payment link), the amount is in
 * its price currency when it has one (whole cents) else in its asset, and never more than the
 * amount due; the date must have begun somewhere. 403/404 as every owner action.
 */
export async function recordManualPayment(
  ctx: AuthedContext,
  invoiceId: string,
  input: ManualPaymentInput,
): Promise<OwnerInvoice> {
  const now = ctx.now();
  const invoice = await withTransaction(ctx.db, async (tx) => {
    const invoice = await lockInvoiceForOwner(tx, invoiceId, ctx);
    if (invoice.kind === "LINK") throw new BusinessRuleError(MANUAL_PAYMENT_LINK);
    transition(invoice.status, "pay"); // 400 unless PENDING, PROCESSING, FAILED or EXPIRED
    assertReceivedOnNotFuture(input.receivedOn, now);
    const amount = parseAmount(input.amount);
    assertManualAmountFits(amount, invoice);

    const actor = actorOf(ctx);
    const fiat = invoice.priceCurrency;
    const [row] = await tx
      .insert(payments)
      .values({
        id: newId(),
        invoiceId: invoice.id,
        transactionHash: null,
        ledgerNumber: null,
        fromWallet: null,
        toWallet: invoice.freelancerWallet,
        amount,
        operationIndex: 0,
        // In the unit the invoice is priced in: its price currency, else its asset.
        asset: fiat ?? invoice.currency,
        assetIssuer: null,
        applied: true,
        status: "CONFIRMED",
        confirmedAt: input.receivedOn,
        // A fiat-priced invoice's payment counts for itself, at par.
        ...(fiat && {
          priceValue: amount,
          priceRate: "1",
          fiatCurrency: fiat,
          fiatValue: fiat2(amount),
          rate: "1",
          rateSource: "manual",
          rateAt: input.receivedOn,
        }),
        method: input.method,
        reference: input.reference ?? null,
        recordedBy: actor,
        recordedAt: now,
      })
      .returning();
    const { invoice: updated } = await applyPaymentRows(tx, ctx, invoice, [row], {
      actor,
      // No ledger transaction: the invoice keeps no hash, ledger or payer wallet.
      paid: { paidAt: input.receivedOn },
      changes: {
        paymentId: row.id,
        method: row.method,
        ...(row.reference !== null && { reference: row.reference }),
        receivedOn: input.receivedOn.toISOString().slice(0, 10),
      },
    });
    return updated;
  });
  return loadOwnerView(ctx.db, invoice);
}

/**
 * Voids a payment recorded by hand (a mistake): it stops counting (status VOIDED, not applied),
 * amountPaid goes down by what it counted for, and the audit entry PAYMENT_VOIDED says so,
 * in one transaction. Refused on a PAID invoice: PAID is final in the lifecycle (no move leads
 * out of it), so a payment that completed an invoice stays (docs/decisions.md).
 */
export async function voidManualPayment(
  ctx: AuthedContext,
  invoiceId: string,
  paymentId: string,
): Promise<OwnerInvoice> {
  const now = ctx.now();
  const invoice = await withTransaction(ctx.db, async (tx) => {
    const invoice = await lockInvoiceForOwner(tx, invoiceId, ctx);
    if (!isId(paymentId)) throw new NotFoundError(PAYMENT_NOT_FOUND);
    const [payment] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.id, paymentId), eq(payments.invoiceId, invoice.id)))
      .for("update");
    if (!payment) throw new NotFoundError(PAYMENT_NOT_FOUND);
    if (payment.method === "stellar") throw new BusinessRuleError(ONLY_MANUAL_VOIDED);
    if (payment.status === "VOIDED") throw new BusinessRuleError(ALREADY_VOIDED);
    if (invoice.status === "PAID") throw new BusinessRuleError(VOID_PAID_INVOICE);

    const actor = actorOf(ctx);
    const [voided] = await tx
      .update(payments)
      .set({ status: "VOIDED", applied: false, voidedAt: now, voidedBy: actor })
      .where(eq(payments.id, payment.id))
      .returning();
    const counted = toStroops(invoice.priceCurrency ? (payment.priceValue ?? "0") : payment.amount);
    const left = toStroops(invoice.amountPaid) - counted;
    const amountPaid = fromStroops(left > 0n ? left : 0n);
    const updated = await applyTransition(tx, invoice, "voidPayment", {
      actor,
      at: now,
      set: { amountPaid },
      payment: voided,
      changes: {
        paymentId: payment.id,
        method: payment.method,
        ...(payment.reference !== null && { reference: payment.reference }),
        amount: fromStroops(counted),
        amountPaid,
      },
    });
    return updated;
  });
  return loadOwnerView(ctx.db, invoice);
}
