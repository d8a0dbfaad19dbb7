import { invoiceAmountDue } from "@/lib/domain/fiat";
import { canonicalAmount, formatForFormA } from "@/lib/domain/money";
import type {
  receivedPaymentA as receivedA,
  receivedPaymentB as receivedB,
} from "@/lib/schemas/received-payments";
import type { InvoiceRow, PaymentRow } from "@/lib/services/invoices/store";
import type { z } from "@/lib/zod";

/**
 * The payer's view of payments, and paid and due: what the payment status shares with the
 * invoice views, apart so that the status route loads neither the invoice serializers nor what
 * they use (muxed addresses: the Stellar base library; docs/decisions.md, Cold start).
 * `lib/serializers/invoices.ts` re-exports them.
 */

/** What the payer may see of a payment (public view, payment status). */
export const receivedPaymentB = (p: PaymentRow): z.output<typeof receivedB> => ({
  transactionHash: p.transactionHash,
  operationIndex: p.operationIndex,
  ledgerNumber: p.ledgerNumber,
  fromWallet: p.fromWallet,
  amount: p.amount,
  asset: p.asset,
  assetIssuer: p.assetIssuer,
  applied: p.applied,
  unappliedReason: p.unappliedReason,
  confirmedAt: p.confirmedAt.toISOString(),
  method: p.method,
  priceValue: p.priceValue,
  paidLate: p.paidLate,
});
export const receivedPaymentA = (p: PaymentRow): z.output<typeof receivedA> => ({
  ...receivedPaymentB(p),
  amount: formatForFormA(p.amount),
  priceValue: numberOrNull(p.priceValue),
});
export const numberOrNull = (value: string | null) =>
  value === null ? null : formatForFormA(value);

/** Paid so far and left to pay (docs/decisions.md, Partial payments): Form B, exact. */
export const paidAndDueB = (
  i: Pick<InvoiceRow, "total" | "amountPaid" | "priceCurrency" | "amountCredited">,
) => ({
  amountPaid: canonicalAmount(i.amountPaid),
  amountDue: invoiceAmountDue(i),
});
/** The same as Form A numbers. */
export const paidAndDueA = (
  i: Pick<InvoiceRow, "total" | "amountPaid" | "priceCurrency" | "amountCredited">,
) => ({
  amountPaid: formatForFormA(i.amountPaid),
  amountDue: formatForFormA(invoiceAmountDue(i)),
});
