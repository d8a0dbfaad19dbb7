import { Th, tableClass, tdClass } from "./controls";
import { formatAmount, formatDate, NETWORK_LABELS, networkOf } from "./format";
import type { OwnerInvoice } from "./types";

const isZero = (s: string) => /^0*(\.0*)?$/.test(s);
const trimZeros = (s: string) => s.replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "");

/** The invoice itself (parties, lines, totals): the detail page and the printable view. */
export function InvoiceDocument({ invoice }: { invoice: OwnerInvoice }) {
  const c = invoice.currency;
  const from = [invoice.freelancerName, invoice.freelancerCompany, invoice.freelancerEmail].filter(
    Boolean,
  ) as string[];
  return (
    <div className="space-y-6">
      <div className="grid grid-cols-1 gap-6 sm:grid-cols-2">
        <div>
          <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400 print:text-slate-600">
            From
          </h3>
          {from.map((line) => (
            <p key={line} className="text-sm">
              {line}
            </p>
          ))}
          <p className="break-all font-mono text-xs text-slate-600 dark:text-slate-300 print:text-slate-700">
            {invoice.freelancerWallet}
          </p>
        </div>
        <div>
          <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400 print:text-slate-600">
            Bill to
          </h3>
          <p className="text-sm font-medium">{invoice.clientName}</p>
          {invoice.clientCompany && <p className="text-sm">{invoice.clientCompany}</p>}
          <p className="text-sm">{invoice.clientEmail}</p>
          {invoice.clientAddress && (
            <p className="whitespace-pre-line text-sm">{invoice.clientAddress}</p>
          )}
        </div>
      </div>

      <dl className="grid grid-cols-2 gap-4 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-xs text-slate-500 dark:text-slate-400 print:text-slate-600">
            Number
          </dt>
          <dd className="font-medium">{invoice.invoiceNumber}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500 dark:text-slate-400 print:text-slate-600">
            Issued
          </dt>
          <dd>{formatDate(invoice.sentAt ?? invoice.createdAt)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500 dark:text-slate-400 print:text-slate-600">Due</dt>
          <dd>{formatDate(invoice.dueDate)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500 dark:text-slate-400 print:text-slate-600">
            Paid in
          </dt>
          <dd>
            {c} on Stellar {NETWORK_LABELS[networkOf(invoice.networkPassphrase)]}
          </dd>
        </div>
      </dl>

      {invoice.description && <p className="whitespace-pre-line text-sm">{invoice.description}</p>}

      <div className="overflow-x-auto">
        <table className={tableClass}>
          <caption className="sr-only">Line items</caption>
          <thead>
            <tr>
              <Th>Description</Th>
              <Th align="right">Quantity</Th>
              <Th align="right">Rate</Th>
              <Th align="right">Amount</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
            {invoice.lineItems.map((item) => (
              <tr key={item.id}>
                <td className={tdClass}>{item.description}</td>
                <td className={`${tdClass} text-right font-mono`}>{trimZeros(item.quantity)}</td>
                <td className={`${tdClass} whitespace-nowrap text-right font-mono`}>
                  {formatAmount(item.rate)}
                </td>
                <td className={`${tdClass} whitespace-nowrap text-right font-mono`}>
                  {formatAmount(item.amount)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <dl className="ml-auto max-w-xs space-y-1 text-sm">
        <Line label="Subtotal" value={formatAmount(invoice.subtotal, c)} />
        {!isZero(invoice.taxAmount) && (
          <Line
            label={`Tax (${trimZeros(invoice.taxRate)}%)`}
            value={formatAmount(invoice.taxAmount, c)}
          />
        )}
        {!isZero(invoice.discount) && (
          <Line label="Discount" value={`−${formatAmount(invoice.discount, c)}`} />
        )}
        <Line label="Total" value={formatAmount(invoice.total, c)} strong />
      </dl>

      {invoice.notes && (
        <div>
          <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400 print:text-slate-600">
            Notes
          </h3>
          <p className="whitespace-pre-line text-sm">{invoice.notes}</p>
        </div>
      )}
    </div>
  );
}

function Line({
  label,
  value,
  strong = false,
}: {
  label: string;
  value: string;
  strong?: boolean;
}) {
  return (
    <div
      className={`flex justify-between gap-4 ${strong ? "border-t border-slate-300 pt-2 text-base font-semibold dark:border-slate-600" : ""}`}
    >
      <dt>{label}</dt>
      <dd className="whitespace-nowrap font-mono">{value}</dd>
    </div>
  );
}
