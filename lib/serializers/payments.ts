import { fiat2 } from "@/lib/domain/fiat";
import { canonicalAmount } from "@/lib/domain/money";
import { sameInBothForms, serializer } from "@/lib/http/forms";
import { normalizeRate } from "@/lib/prices/pairs";
import {
  confirmResult,
  paymentIntent,
  paymentStatusResponse,
  payOptions,
  submitPending,
  submitResult,
  verifiedTransaction,
} from "@/lib/schemas/payments";
import type { FormA, FormB } from "@/lib/schemas/wire";
import type { PaymentIntent } from "@/lib/services/payments/pay-intent";
import type { PayOptions } from "@/lib/services/payments/pay-options";
import type { QuoteRow } from "@/lib/services/payments/quotes";
import type { RecordOutcome } from "@/lib/services/payments/record-payment";
import type { PaymentStatus } from "@/lib/services/payments/status";
import type { VerifiedTransaction } from "@/lib/services/payments/verify-tx";
import { iso } from "./common";
import { paidAndDueA, paidAndDueB, receivedPaymentA, receivedPaymentB } from "./received-payments";

export const paymentIntentSerializer = sameInBothForms(
  paymentIntent,
  (i: PaymentIntent): FormB<typeof paymentIntent> => ({
    invoiceId: i.invoiceId,
    transactionXdr: i.transactionXdr,
    // Form B overview name of the same unsigned transaction.
    xdr: i.transactionXdr,
    sep7Uri: i.sep7Uri,
    amount: i.amount,
    asset: i.asset,
    memo: i.memo,
    destination: i.destination,
    muxedAddress: i.muxedAddress,
    networkPassphrase: i.networkPassphrase,
    timeout: i.timeout,
    status: i.status,
    quote: quoteOf(i.quote),
    pathPayment: i.pathPayment,
    contractPayment: i.contractPayment,
  }),
);

/** 200 of GET /api/payments/{invoiceId}/pay-options. */
export const payOptionsSerializer = sameInBothForms(
  payOptions,
  (o: PayOptions): FormB<typeof payOptions> => o,
);

/** A quote on the wire: exact decimal strings in both forms. */
export const quoteOf = (q: QuoteRow | null): FormB<typeof paymentIntent>["quote"] =>
  q && {
    id: q.id,
    priceCurrency: q.priceCurrency,
    asset: q.asset,
    rate: normalizeRate(q.rate),
    assetAmount: canonicalAmount(q.assetAmount),
    fiatAmount: fiat2(q.fiatAmount),
    source: q.source,
    createdAt: q.createdAt.toISOString(),
    expiresAt: q.expiresAt.toISOString(),
  };

/**
 * A ledger fact of a payment submit or confirm recorded: never null for those (the payments
 * table's check: only a payment recorded by hand has no hash or ledger).
 */
const onLedger = <T>(value: T | null): T => value as T;

/** 200 of POST /api/payments/submit: the payment was recorded, or the invoice already paid. */
export const submitResultSerializer = sameInBothForms(
  submitResult,
  (o: RecordOutcome): FormB<typeof submitResult> =>
    o.kind === "recorded"
      ? {
          success: true,
          transactionHash: onLedger(o.payment.transactionHash),
          ledger: onLedger(o.payment.ledgerNumber),
          status: o.invoice.status,
          paidAt: iso(o.invoice.paidAt),
        }
      : {
          success: true,
          alreadyPaid: true,
          transactionHash: o.invoice.transactionHash,
          ledger: o.invoice.ledgerNumber,
          status: o.invoice.status,
          paidAt: iso(o.invoice.paidAt),
        },
);

/** 202 of POST /api/payments/submit: sent, but the network has not confirmed it yet. */
export const submitPendingSerializer = sameInBothForms(
  submitPending,
  (o: { hash: string }): FormB<typeof submitPending> => ({
    success: false,
    pending: true,
    status: "PROCESSING",
    transactionHash: o.hash,
    message:
      "The network has not confirmed the transaction yet. Poll GET /api/payments/:invoiceId/status or call POST /api/payments/confirm with this hash.",
  }),
);

export const confirmSerializer = sameInBothForms(
  confirmResult,
  (o: RecordOutcome): FormB<typeof confirmResult> =>
    o.kind === "recorded"
      ? {
          status: "confirmed",
          transactionHash: onLedger(o.payment.transactionHash),
          ledger: onLedger(o.payment.ledgerNumber),
          paidAt: iso(o.invoice.paidAt),
        }
      : {
          status: "already_paid",
          transactionHash: o.invoice.transactionHash,
          ledger: o.invoice.ledgerNumber,
          paidAt: iso(o.invoice.paidAt),
        },
);

const statusOf = (i: PaymentStatus) => ({
  invoiceId: i.id,
  status: i.status,
  transactionHash: i.transactionHash,
  ledgerNumber: i.ledgerNumber,
  paidAt: iso(i.paidAt),
  payerWallet: i.payerWallet,
  updatedAt: i.updatedAt.toISOString(),
});

/** Polled by the checkout: the status, paid and due, and every payment received. */
export const paymentStatusSerializer = serializer(paymentStatusResponse, {
  b: (i: PaymentStatus): FormB<typeof paymentStatusResponse> => ({
    ...statusOf(i),
    ...paidAndDueB(i),
    priceCurrency: i.priceCurrency,
    quote: quoteOf(i.quote),
    payments: i.payments.map(receivedPaymentB),
  }),
  a: (i): FormA<typeof paymentStatusResponse> => ({
    ...statusOf(i),
    ...paidAndDueA(i),
    priceCurrency: i.priceCurrency,
    quote: quoteOf(i.quote),
    payments: i.payments.map(receivedPaymentA),
  }),
});

export const verifiedTransactionSerializer = sameInBothForms(
  verifiedTransaction,
  (t: VerifiedTransaction): FormB<typeof verifiedTransaction> => ({
    successful: t.successful,
    hash: t.hash,
    innerHash: t.innerHash ?? null,
    ledger: t.ledger,
    createdAt: t.createdAt.toISOString(),
    networkPassphrase: t.networkPassphrase,
    memoType: t.memoType,
    memo: t.memo,
    payments: t.operations.map((op) => ({
      type: op.type,
      from: op.from ?? t.sourceAccount,
      to: op.to,
      amount: op.amount,
      assetCode: op.assetCode,
      ...(op.assetIssuer ? { assetIssuer: op.assetIssuer } : {}),
      ...(op.toMuxedId ? { toMuxedId: op.toMuxedId } : {}),
    })),
  }),
);
