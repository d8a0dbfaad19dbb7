import type { ReactNode } from "react";
import { Pair } from "@/components/ui/page";
import { right, Table, tdClass } from "@/components/ui/table";
import { TotalsList } from "@/components/ui/totals";
import { partyLines } from "@/lib/domain/address";
import { TAX_CATEGORY_NAMES, TAX_CATEGORY_NOTES } from "@/lib/domain/tax-categories";
import {
  formatAmount,
  formatDate,
  formatFiat,
  formatPriced,
  NETWORK_LABELS,
  networkOf,
  trimZeros,
} from "@/lib/format";
import type { OwnerInvoice } from "./types";

const amountCell = `${tdClass} whitespace-nowrap text-right font-mono`;
/** Columns a phone leaves out (their figures move under the description). */
const PHONE_HIDDEN = "max-sm:hidden";

/**
 * The invoice itself (parties, lines, totals): the detail page and the printable view.
 * `fromLines`: lines added under "From" (the printable view's profile address and tax id).
 */
export function InvoiceDocument({
  invoice,
  fromLines = [],
}: {
  invoice: OwnerInvoice;
  fromLines?: (string | null)[];
}) {
  const c = invoice.currency;
  // A fiat-priced invoice's amounts are in its price currency (docs/decisions.md, Fiat pricing).
  const code = invoice.priceCurrency ?? c;
  // On phones quantity and rate go under the description ("2 × 20.00"), so Amount always shows.
  // Lines with their own tax show it (docs/decisions.md, Tax per line), as on the PDF.
  const perLine = invoice.lineItems.some((i) => i.taxRate != null);
  const columns = [
    "Description",
    right("Quantity", PHONE_HIDDEN),
    right(`Rate (${code})`, PHONE_HIDDEN),
    ...(perLine ? [right("VAT", PHONE_HIDDEN)] : []),
    right("Amount"),
  ];
  const from = [invoice.freelancerName, invoice.freelancerCompany, invoice.freelancerEmail];
  return (
    <div className="space-y-6">
      <div className="grid grid-cols-1 gap-6 sm:grid-cols-2">
        <Party title="From">
          {from.map((line) => line && <p key={line}>{line}</p>)}
          {fromLines.map(
            (line) =>
              line && (
                <p key={line} className="whitespace-pre-line">
                  {line}
                </p>
              ),
          )}
          <p className="break-all font-mono text-xs text-slate-600 dark:text-slate-300 print:text-slate-700">
            {invoice.freelancerWallet}
          </p>
        </Party>
        <Party title="Bill to">
          <p className="font-medium">{invoice.clientName}</p>
          {invoice.clientCompany && <p>{invoice.clientCompany}</p>}
          <p>{invoice.clientEmail}</p>
          {/* The buyer's address and tax id as the PDF prints them (lib/domain/address.ts). */}
          {partyLines({
            address: invoice.clientAddress,
            postalAddress: invoice.clientPostalAddress,
            taxId: invoice.clientTaxId,
            taxScheme: invoice.clientTaxScheme,
          }).map(
            (line) =>
              line && (
                <p key={line} className="whitespace-pre-line">
                  {line}
                </p>
              ),
          )}
        </Party>
      </div>

      <dl className="grid grid-cols-2 gap-4 text-sm sm:grid-cols-4">
        <Pair label="Number" className="font-medium">
          {invoice.invoiceNumber}
        </Pair>
        <Pair label="Issued">{formatDate(invoice.sentAt ?? invoice.createdAt)}</Pair>
        <Pair label="Due">{formatDate(invoice.dueDate)}</Pair>
        {invoice.supplyDate && <Pair label="Supplied">{formatDate(invoice.supplyDate)}</Pair>}
        {invoice.periodStart && (
          <Pair label="Service period">
            {formatDate(invoice.periodStart)} to{" "}
            {formatDate(invoice.periodEnd ?? invoice.periodStart)}
          </Pair>
        )}
        <Pair label="Paid in">
          {c} on Stellar {NETWORK_LABELS[networkOf(invoice.networkPassphrase)]}
          {invoice.priceCurrency && `, priced in ${invoice.priceCurrency}`}
        </Pair>
      </dl>

      {invoice.description && <p className="whitespace-pre-line text-sm">{invoice.description}</p>}

      <Table caption="Line items" columns={columns}>
        {invoice.lineItems.map((item) => (
          <tr key={item.id}>
            <td className={`${tdClass} [overflow-wrap:anywhere]`}>
              {item.description}
              <span
                className="block font-mono text-xs text-slate-500 sm:hidden dark:text-slate-400"
                data-testid="line-qty-rate"
              >
                {trimZeros(item.quantity)} × {formatAmount(item.rate)}
              </span>
            </td>
            <td className={`${tdClass} ${PHONE_HIDDEN} text-right font-mono`}>
              {trimZeros(item.quantity)}
            </td>
            <td className={`${amountCell} ${PHONE_HIDDEN}`}>{formatAmount(item.rate)}</td>
            {perLine && (
              <td className={`${amountCell} ${PHONE_HIDDEN}`}>
                {trimZeros(item.taxRate ?? invoice.taxRate)} %
                {item.taxCategory && item.taxCategory !== "S" && ` ${item.taxCategory}`}
              </td>
            )}
            <td className={amountCell}>{formatAmount(item.amount)}</td>
          </tr>
        ))}
      </Table>

      <TotalsList
        // Lines at their own rates: the tax row names no single rate (the breakdown does).
        totals={perLine ? { ...invoice, taxRate: "0" } : invoice}
        money={(amount) => formatPriced(amount, invoice)}
        className="ml-auto max-w-xs"
        valueClassName="whitespace-nowrap font-mono"
      />

      <TaxDetails invoice={invoice} />

      {invoice.notes && (
        <Party title="Notes">
          <p className="whitespace-pre-line">{invoice.notes}</p>
        </Party>
      )}
    </div>
  );
}

function Party({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="min-w-0 text-sm [overflow-wrap:anywhere]">
      <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400 print:text-slate-600">
        {title}
      </h3>
      {children}
    </div>
  );
}

/**
 * The tax breakdown (one row per category and rate), the tax in the tax currency at the rate
 * fixed at send, and the legal notes: shown when the invoice carries per-line tax, more than
 * one rate or a tax currency; an invoice with one invoice-level rate shows its totals alone.
 */
function TaxDetails({ invoice }: { invoice: OwnerInvoice }) {
  const rows = invoice.taxBreakdown ?? [];
  const exchange = invoice.taxExchange;
  const notes = [
    ...new Set(
      rows.map((r) => r.exemptionReason ?? TAX_CATEGORY_NOTES[r.category]).filter(Boolean),
    ),
  ];
  if (rows.length === 0 && !exchange) return null;
  const money = (amount: string) => formatPriced(amount, invoice);
  const converted = new Map(exchange?.breakdown.map((r) => [`${r.category}:${r.rate}`, r]) ?? []);
  const inTaxCurrency = (r: { category: string; rate: string }) =>
    exchange
      ? formatFiat(converted.get(`${r.category}:${r.rate}`)?.taxAmount ?? "0", exchange.currency)
      : "";
  // On phones the taxable amount goes under the rate and the converted tax under the tax.
  const columns = [
    "VAT",
    right("Taxable amount", PHONE_HIDDEN),
    right("Tax"),
    ...(exchange ? [right(`Tax in ${exchange.currency}`, PHONE_HIDDEN)] : []),
  ];
  return (
    <section aria-label="Tax breakdown" className="space-y-2 text-sm">
      {rows.length > 0 && (
        <Table caption="Tax breakdown" columns={columns}>
          {rows.map((r) => (
            <tr key={`${r.category}:${r.rate}`}>
              <td className={`${tdClass} [overflow-wrap:anywhere]`}>
                {TAX_CATEGORY_NAMES[r.category]} {trimZeros(r.rate)} %
                <span className="block font-mono text-xs text-slate-500 sm:hidden dark:text-slate-400">
                  on {money(r.taxableAmount)}
                </span>
              </td>
              <td className={`${amountCell} ${PHONE_HIDDEN}`}>{money(r.taxableAmount)}</td>
              <td className={amountCell}>
                {money(r.taxAmount)}
                {exchange && (
                  <span className="block text-xs text-slate-500 sm:hidden dark:text-slate-400">
                    {inTaxCurrency(r)}
                  </span>
                )}
              </td>
              {exchange && <td className={`${amountCell} ${PHONE_HIDDEN}`}>{inTaxCurrency(r)}</td>}
            </tr>
          ))}
        </Table>
      )}
      {exchange && (
        <p data-testid="tax-exchange">
          VAT in {exchange.currency}: {formatFiat(exchange.taxAmount, exchange.currency)} at 1{" "}
          {invoice.priceCurrency ?? invoice.currency} = {exchange.rate} {exchange.currency} (
          {exchange.source}, {formatDate(exchange.at)})
        </p>
      )}
      {notes.map((note) => (
        <p key={note} className="font-medium">
          {note}
        </p>
      ))}
    </section>
  );
}
