import type { ReactNode } from "react";
import { Pair } from "@/components/ui/page";
import { right, Table, tdClass } from "@/components/ui/table";
import { TotalsList } from "@/components/ui/totals";
import {
  formatAmount,
  formatDate,
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
  const columns = [
    "Description",
    right("Quantity", PHONE_HIDDEN),
    right(`Rate (${code})`, PHONE_HIDDEN),
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
          {invoice.clientAddress && <p className="whitespace-pre-line">{invoice.clientAddress}</p>}
        </Party>
      </div>

      <dl className="grid grid-cols-2 gap-4 text-sm sm:grid-cols-4">
        <Pair label="Number" className="font-medium">
          {invoice.invoiceNumber}
        </Pair>
        <Pair label="Issued">{formatDate(invoice.sentAt ?? invoice.createdAt)}</Pair>
        <Pair label="Due">{formatDate(invoice.dueDate)}</Pair>
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
            <td className={amountCell}>{formatAmount(item.amount)}</td>
          </tr>
        ))}
      </Table>

      <TotalsList
        totals={invoice}
        money={(amount) => formatPriced(amount, invoice)}
        className="ml-auto max-w-xs"
        valueClassName="whitespace-nowrap font-mono"
      />

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
