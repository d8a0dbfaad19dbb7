import { trimAmount } from "@/lib/domain/money";
import { sameInBothForms } from "@/lib/http/forms";
import { refundIntent, refundView } from "@/lib/schemas/refunds";
import type { FormB } from "@/lib/schemas/wire";
import type { RefundIntent } from "@/lib/services/refunds/create-refund";
import { type RefundRow, refundAsset } from "@/lib/services/refunds/store";
import { iso } from "./common";

/** 201 of POST /api/invoices/:id/payments/:paymentId/refund. */
export const refundIntentSerializer = sameInBothForms(
  refundIntent,
  (i: RefundIntent): FormB<typeof refundIntent> => ({
    refundId: i.refund.id,
    transactionXdr: i.refund.transactionXdr,
    sep7Uri: i.sep7Uri,
    amount: trimAmount(i.refund.amount),
    asset: i.asset,
    destination: i.refund.destination,
    memo: i.refund.memo,
    networkPassphrase: i.networkPassphrase,
    expiresAt: i.refund.expiresAt.toISOString(),
  }),
);

/** A refund as it stands (POST /api/refunds/submit: 200 confirmed, 202 sent). */
export const refundSerializer = sameInBothForms(
  refundView,
  (r: RefundRow): FormB<typeof refundView> => ({
    refundId: r.id,
    paymentId: r.paymentId,
    invoiceId: r.invoiceId,
    status: r.status,
    amount: trimAmount(r.amount),
    asset: refundAsset(r),
    destination: r.destination,
    memo: r.memo,
    transactionHash: r.transactionHash,
    ledgerNumber: r.ledgerNumber,
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
    confirmedAt: iso(r.confirmedAt),
  }),
);
