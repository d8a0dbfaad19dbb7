import { paymentPageUrl } from "@/lib/config";
import { formatForFormA } from "@/lib/domain/money";
import { sameInBothForms, serializer, type WireContext } from "@/lib/http/forms";
import { paymentLinkList, paymentLinkResponse, paymentLinkStatus } from "@/lib/schemas/links";
import type { FormA, FormB } from "@/lib/schemas/wire";
import type { InvoiceRow } from "@/lib/services/invoices/store";
import { linkStatus } from "@/lib/services/links/links";
import { iso } from "./common";

/** Form B of a link; Form A differs only in `amount`, a JSON number. */
const link = (
  row: InvoiceRow,
  { appUrl, now }: WireContext,
): FormB<typeof paymentLinkResponse> => ({
  id: row.id,
  checkoutUrl: paymentPageUrl(appUrl, row.id),
  amount: row.total,
  asset: row.currency,
  priceCurrency: row.priceCurrency,
  quoteTtlMinutes: row.quoteTtlMinutes,
  networkPassphrase: row.networkPassphrase,
  destination: row.freelancerWallet,
  memo: row.invoiceNumber,
  metadata: { title: row.title, reference: row.linkReference },
  description: row.description,
  activateNewAccounts: row.activateNewAccounts,
  status: linkStatus(row, now),
  expiresAt: iso(row.linkExpiresAt),
  paidAt: iso(row.paidAt),
  transactionHash: row.transactionHash,
  createdAt: row.createdAt.toISOString(),
});

export const linkSerializer = serializer(paymentLinkResponse, {
  b: link,
  a: (row, context): FormA<typeof paymentLinkResponse> => ({
    ...link(row, context),
    amount: formatForFormA(row.total),
  }),
});

export const linkListSerializer = serializer(paymentLinkList, {
  b: (rows: InvoiceRow[], context): FormB<typeof paymentLinkList> => ({
    links: rows.map((r) => linkSerializer.b(r, context)),
  }),
  a: (rows, context): FormA<typeof paymentLinkList> => ({
    links: rows.map((r) => linkSerializer.a(r, context)),
  }),
});

export const linkStatusSerializer = sameInBothForms(
  paymentLinkStatus,
  (r: InvoiceRow, { now }: WireContext): FormB<typeof paymentLinkStatus> => ({
    id: r.id,
    status: linkStatus(r, now),
    transactionHash: r.transactionHash,
    ledgerNumber: r.ledgerNumber,
    payerWallet: r.payerWallet,
    paidAt: iso(r.paidAt),
    expiresAt: iso(r.linkExpiresAt),
  }),
);
