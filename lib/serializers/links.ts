import { paymentPageUrl } from "@/lib/config";
import { paymentLimit, takesCheckouts } from "@/lib/domain/link-payments";
import { formatForFormA } from "@/lib/domain/money";
import { sameInBothForms, serializer, type WireContext } from "@/lib/http/forms";
import {
  linkPaymentList,
  paymentLinkList,
  paymentLinkResponse,
  paymentLinkStatus,
} from "@/lib/schemas/links";
import type { FormA, FormB } from "@/lib/schemas/wire";
import type { InvoiceRow } from "@/lib/services/invoices/store";
import type { LinkPaymentRecord } from "@/lib/services/links/checkout";
import { type LinkView, linkStatus } from "@/lib/services/links/links";
import { iso } from "./common";
import { receivedPaymentA, receivedPaymentB } from "./received-payments";

/** Form B of a link; Form A differs only in its amounts, JSON numbers. */
const link = (row: LinkView, { appUrl, now }: WireContext): FormB<typeof paymentLinkResponse> => ({
  id: row.id,
  checkoutUrl: paymentPageUrl(appUrl, row.id),
  amount: row.linkOpenAmount ? null : row.total,
  minAmount: row.linkMinAmount,
  reusable: row.linkReusable,
  maxPayments: paymentLimit(row),
  paymentsCount: row.paymentsCount,
  amountReceived: row.amountReceived,
  parentLinkId: row.parentLinkId,
  asset: row.currency,
  priceCurrency: row.priceCurrency,
  quoteTtlMinutes: row.quoteTtlMinutes,
  networkPassphrase: row.networkPassphrase,
  destination: row.freelancerWallet,
  // A reusable or open-amount link is paid through its checkouts, each with its own memo.
  memo: takesCheckouts(row) ? null : row.invoiceNumber,
  metadata: { title: row.title, reference: row.linkReference },
  description: row.description,
  activateNewAccounts: row.activateNewAccounts,
  status: linkStatus(row, now),
  deactivatedAt: iso(row.linkDeactivatedAt),
  expiresAt: iso(row.linkExpiresAt),
  paidAt: iso(row.paidAt),
  transactionHash: row.transactionHash,
  createdAt: row.createdAt.toISOString(),
});

export const linkSerializer = serializer(paymentLinkResponse, {
  b: link,
  a: (row, context): FormA<typeof paymentLinkResponse> => {
    const b = link(row, context);
    return {
      ...b,
      amount: b.amount === null ? null : formatForFormA(b.amount),
      minAmount: b.minAmount === null ? null : formatForFormA(b.minAmount),
      amountReceived: formatForFormA(b.amountReceived),
    };
  },
});

export const linkListSerializer = serializer(paymentLinkList, {
  b: (rows: LinkView[], context): FormB<typeof paymentLinkList> => ({
    links: rows.map((r) => linkSerializer.b(r, context)),
  }),
  a: (rows, context): FormA<typeof paymentLinkList> => ({
    links: rows.map((r) => linkSerializer.a(r, context)),
  }),
});

export const linkStatusSerializer = sameInBothForms(
  paymentLinkStatus,
  (r: LinkView, { now }: WireContext): FormB<typeof paymentLinkStatus> => ({
    id: r.id,
    status: linkStatus(r, now),
    transactionHash: r.transactionHash,
    ledgerNumber: r.ledgerNumber,
    payerWallet: r.payerWallet,
    paidAt: iso(r.paidAt),
    expiresAt: iso(r.linkExpiresAt),
  }),
);

type LinkPayments = { linkId: string; link: LinkView; payments: LinkPaymentRecord[] };

const linkPayment = (r: InvoiceRow) => ({
  id: r.id,
  memo: r.invoiceNumber,
  amount: r.total,
  amountPaid: r.amountPaid,
  status: r.status,
  payerWallet: r.payerWallet,
  transactionHash: r.transactionHash,
  paidAt: iso(r.paidAt),
  createdAt: r.createdAt.toISOString(),
});

export const linkPaymentsSerializer = serializer(linkPaymentList, {
  b: ({ linkId, link, payments }: LinkPayments, context): FormB<typeof linkPaymentList> => ({
    linkId,
    link: linkSerializer.b(link, context),
    payments: payments.map((r) => ({
      ...linkPayment(r),
      received: r.received.map((p) => ({ id: p.id, ...receivedPaymentB(p) })),
    })),
  }),
  a: ({ linkId, link, payments }, context): FormA<typeof linkPaymentList> => ({
    linkId,
    link: linkSerializer.a(link, context),
    payments: payments.map((r) => ({
      ...linkPayment(r),
      amount: formatForFormA(r.total),
      amountPaid: formatForFormA(r.amountPaid),
      received: r.received.map((p) => ({ id: p.id, ...receivedPaymentA(p) })),
    })),
  }),
});
