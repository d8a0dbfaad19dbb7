import { invoiceAmountDue } from "@/lib/domain/fiat";
import {
  explorerTxUrl,
  formatFiat,
  formatMoney,
  formatPriced,
  formatUtcDateTime,
  isZero,
  paymentMethodLabel,
  shortAddress,
  stellarNetworkName,
} from "@/lib/format";
import type { Explorers } from "@/lib/stellar/networks";
import type { PaymentRow } from "./store";
import type { PublicInvoice } from "./view-invoice";

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );

/**
 * The client's receipt (GET /api/documents/<token>/receipt, docs/decisions.md, Checkout
 * documents): what moved on the ledger for the invoice, one row per payment that counted (the
 * asset amount sent, what it counted for, the transaction hash and ledger, the date), and
 * whether the invoice is paid in full. Plain printable HTML with its own strict CSP (no script);
 * the browser's Print saves it as a PDF. Every value escaped.
 */
export function receiptPage(
  invoice: PublicInvoice,
  payments: PaymentRow[],
  explorers: Explorers,
): Response {
  const e = escapeHtml;
  const money = (v: string) => formatPriced(v, invoice, formatMoney);
  const payee =
    invoice.freelancerName ?? invoice.freelancerCompany ?? shortAddress(invoice.freelancerWallet);
  const due = invoiceAmountDue(invoice);
  const paidInFull = invoice.status === "PAID";
  const standing = paidInFull
    ? `Paid in full${invoice.paidAt ? ` on ${formatUtcDateTime(invoice.paidAt)}` : ""}`
    : `Partly paid: ${money(due)} left to pay`;
  const network = stellarNetworkName(invoice.networkPassphrase);
  const rows = payments
    .map((p) => {
      const counted =
        invoice.priceCurrency && p.priceValue !== null
          ? formatFiat(p.priceValue, invoice.priceCurrency)
          : formatMoney(p.amount, p.asset);
      const refunded =
        p.amountRefunded && !isZero(p.amountRefunded)
          ? `<br><small>Refunded ${e(formatMoney(p.amountRefunded, p.asset))}</small>`
          : "";
      // A payment the sender recorded (a bank transfer...) has no transaction: its method,
      // without the sender's private reference.
      const how =
        p.transactionHash === null
          ? `<td>${e(paymentMethodLabel(p.method))}</td>`
          : `<td class="hash"><a href="${e(explorerTxUrl(p.transactionHash, invoice.networkPassphrase, explorers))}">${e(p.transactionHash)}</a><br><small>Ledger ${p.ledgerNumber}</small></td>`;
      return `<tr>
<td>${e(formatUtcDateTime(p.confirmedAt))}</td>
<td>${e(formatMoney(p.amount, p.asset))}${refunded}</td>
<td>${e(counted)}</td>
${how}
</tr>`;
    })
    .join("\n");
  const title = `Receipt for invoice ${invoice.invoiceNumber}`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title>
<style>body{font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#0f172a;background:#f8fafc;margin:0;padding:32px 16px}main{max-width:760px;margin:0 auto;background:#fff;border:1px solid #cbd5e1;border-radius:8px;padding:24px 28px}h1{font-size:22px;margin:0 0 4px}dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:16px 0}dt{color:#475569}dd{margin:0}.standing{font-weight:600;color:#065f46}table{width:100%;border-collapse:collapse;font-size:14px;margin-top:8px}th,td{text-align:left;vertical-align:top;border-bottom:1px solid #e2e8f0;padding:8px 6px}.hash{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;word-break:break-all}a{color:#4338ca}.note{color:#475569;font-size:13px;margin-top:16px}@media print{body{background:#fff;padding:0}main{border:0}.note{display:none}}</style>
</head><body><main>
<h1>${e(title)}</h1>
<p>${e(invoice.title)}</p>
<dl>
<dt>From</dt><dd>${e(payee)}</dd>
${invoice.clientName ? `<dt>To</dt><dd>${e(invoice.clientName)}</dd>` : ""}
<dt>Invoice total</dt><dd>${e(money(invoice.total))}${invoice.priceCurrency ? ` (paid in ${e(invoice.currency)})` : ""}</dd>
<dt>Status</dt><dd class="standing">${e(standing)}</dd>
<dt>Network</dt><dd>${e(network)}</dd>
</dl>
<h2>Payments</h2>
<table>
<thead><tr><th scope="col">Date</th><th scope="col">Sent</th><th scope="col">Counted for</th><th scope="col">Transaction</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
<p class="note">Print this page, or save it as a PDF from your browser's Print menu. Each transaction can be checked on the ${e(network)}.</p>
</main></body></html>`;
  return new Response(html, {
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-disposition": `inline; filename="${invoice.invoiceNumber}-receipt.html"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "content-security-policy":
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
      "referrer-policy": "no-referrer",
    },
  });
}
