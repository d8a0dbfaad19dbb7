import type { Serializer } from "@/lib/http/forms";
import type { PaymentIntent } from "@/lib/services/payments/pay-intent";
import type { RecordOutcome } from "@/lib/services/payments/record-payment";
import type { PaymentStatus, SubmitOutcome } from "@/lib/services/payments/settle";
import type { VerifiedTransaction } from "@/lib/services/payments/verify-tx";

const both = <T>(f: (v: T) => unknown): Serializer<T> => ({ a: f, b: f });
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const paymentIntentSerializer = both((i: PaymentIntent) => ({
  invoiceId: i.invoiceId,
  transactionXdr: i.transactionXdr,
  // Form B overview name of the same unsigned transaction.
  xdr: i.transactionXdr,
  sep7Uri: i.sep7Uri,
  amount: i.amount,
  asset: i.asset,
  memo: i.memo,
  destination: i.destination,
  networkPassphrase: i.networkPassphrase,
  timeout: i.timeout,
  status: i.status,
}));

export const submitSerializer = both((o: SubmitOutcome) => {
  switch (o.kind) {
    case "recorded":
      return {
        success: true,
        transactionHash: o.payment.transactionHash,
        ledger: o.payment.ledgerNumber,
        status: o.invoice.status,
        paidAt: iso(o.invoice.paidAt),
      };
    case "already_paid":
      return {
        success: true,
        alreadyPaid: true,
        transactionHash: o.invoice.transactionHash,
        ledger: o.invoice.ledgerNumber,
        status: o.invoice.status,
        paidAt: iso(o.invoice.paidAt),
      };
    case "pending":
      return {
        success: false,
        pending: true,
        status: "PROCESSING",
        transactionHash: o.hash,
        message:
          "The network has not confirmed the transaction yet. Poll GET /api/payments/:invoiceId/status or call POST /api/payments/confirm with this hash.",
      };
  }
});

export const confirmSerializer = both((o: RecordOutcome) =>
  o.kind === "recorded"
    ? {
        status: "confirmed",
        transactionHash: o.payment.transactionHash,
        ledger: o.payment.ledgerNumber,
        paidAt: iso(o.invoice.paidAt),
      }
    : {
        status: "already_paid",
        transactionHash: o.invoice.transactionHash,
        ledger: o.invoice.ledgerNumber,
        paidAt: iso(o.invoice.paidAt),
      },
);

export const paymentStatusSerializer = both((i: PaymentStatus) => ({
  invoiceId: i.id,
  status: i.status,
  transactionHash: i.transactionHash,
  ledgerNumber: i.ledgerNumber,
  paidAt: iso(i.paidAt),
  payerWallet: i.payerWallet,
}));

export const verifiedTransactionSerializer = both((t: VerifiedTransaction) => ({
  successful: t.successful,
  hash: t.hash,
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
  })),
}));
