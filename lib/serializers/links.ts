import { paymentPageUrl } from "@/lib/config";
import { formatForFormA } from "@/lib/domain/money";
import type { Serializer } from "@/lib/http/forms";
import type { InvoiceRow } from "@/lib/services/invoices/store";
import { linkStatus } from "@/lib/services/links/links";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function link(row: InvoiceRow, appUrl: string, amount: string | number) {
  return {
    id: row.id,
    checkoutUrl: paymentPageUrl(appUrl, row.id),
    amount,
    asset: row.currency,
    networkPassphrase: row.networkPassphrase,
    destination: row.freelancerWallet,
    memo: row.invoiceNumber,
    metadata: { title: row.title, reference: row.linkReference },
    description: row.description,
    activateNewAccounts: row.activateNewAccounts,
    status: linkStatus(row, new Date()),
    expiresAt: iso(row.linkExpiresAt),
    paidAt: iso(row.paidAt),
    transactionHash: row.transactionHash,
    createdAt: row.createdAt.toISOString(),
  };
}

export function linkSerializer(appUrl: string): Serializer<InvoiceRow> {
  return { b: (r) => link(r, appUrl, r.total), a: (r) => link(r, appUrl, formatForFormA(r.total)) };
}

export function linkListSerializer(appUrl: string): Serializer<InvoiceRow[]> {
  const one = linkSerializer(appUrl);
  return { b: (rows) => ({ links: rows.map(one.b) }), a: (rows) => ({ links: rows.map(one.a) }) };
}

const status = (r: InvoiceRow) => ({
  id: r.id,
  status: linkStatus(r, new Date()),
  transactionHash: r.transactionHash,
  ledgerNumber: r.ledgerNumber,
  payerWallet: r.payerWallet,
  paidAt: iso(r.paidAt),
  expiresAt: iso(r.linkExpiresAt),
});

export const linkStatusSerializer: Serializer<InvoiceRow> = { a: status, b: status };
