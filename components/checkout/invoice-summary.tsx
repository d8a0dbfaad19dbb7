import { formatAmount, formatMoney } from "./format";

/** Server-rendered: who is paid, what for, line items and totals. No client JavaScript. */

export type SummaryLineItem = {
  id: string;
  description: string;
  quantity: string;
  rate: string;
  amount: string;
};

export type InvoiceSummaryProps = {
  kind: "INVOICE" | "LINK";
  invoiceNumber: string;
  payeeName: string | null;
  payeeCompany: string | null;
  payeeWallet: string;
  clientName: string | null;
  description: string | null;
  reference: string | null;
  currency: string;
  assetIssuer: string | null;
  networkLabel: string;
  lineItems: SummaryLineItem[];
  subtotal: string;
  taxRate: string;
  taxAmount: string;
  discount: string;
  total: string;
};

const label = "text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-300";

export function InvoiceSummary(p: InvoiceSummaryProps) {
  const hasTax = Number(p.taxAmount) !== 0 || Number(p.taxRate) !== 0;
  const hasDiscount = Number(p.discount) !== 0;
  return (
    <section
      aria-labelledby="details-heading"
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900"
    >
      <h2 id="details-heading" className="text-base font-semibold">
        {p.kind === "LINK" ? "Payment details" : "Invoice details"}
      </h2>

      <dl className="mt-4 grid gap-4 text-sm sm:grid-cols-2">
        <div className="min-w-0">
          <dt className={label}>Pay to</dt>
          <dd className="mt-1">
            {p.payeeName && <span className="block font-medium">{p.payeeName}</span>}
            {p.payeeCompany && <span className="block">{p.payeeCompany}</span>}
            <span className="mt-1 block break-all font-mono text-xs text-slate-700 dark:text-slate-300">
              <span className="sr-only">Wallet </span>
              {p.payeeWallet}
            </span>
          </dd>
        </div>
        {p.clientName && p.kind === "INVOICE" && (
          <div>
            <dt className={label}>Billed to</dt>
            <dd className="mt-1 font-medium">{p.clientName}</dd>
          </div>
        )}
        <div>
          <dt className={label}>{p.kind === "LINK" ? "Reference" : "Invoice number"}</dt>
          <dd className="mt-1 font-mono">{p.reference ?? p.invoiceNumber}</dd>
        </div>
        <div className="min-w-0">
          <dt className={label}>Asset and network</dt>
          <dd className="mt-1">
            {p.currency} on the {p.networkLabel}
            {p.assetIssuer && (
              <span className="mt-1 block break-all font-mono text-xs text-slate-700 dark:text-slate-300">
                <span className="sr-only">Issuer </span>
                {p.assetIssuer}
              </span>
            )}
          </dd>
        </div>
      </dl>

      {p.description && (
        <div className="mt-4 text-sm">
          <h3 className={label}>Description</h3>
          <p className="mt-1 whitespace-pre-line text-slate-800 dark:text-slate-200">
            {p.description}
          </p>
        </div>
      )}

      {p.kind === "INVOICE" && p.lineItems.length > 0 && (
        <table className="mt-6 w-full text-left text-sm">
          <caption className="sr-only">Line items</caption>
          <thead>
            <tr className="border-b border-slate-200 text-slate-600 dark:border-slate-700 dark:text-slate-300">
              <th scope="col" className="py-2 pr-2 font-medium">
                Item
              </th>
              <th scope="col" className="hidden py-2 pr-2 text-right font-medium sm:table-cell">
                Qty
              </th>
              <th scope="col" className="hidden py-2 pr-2 text-right font-medium sm:table-cell">
                Rate
              </th>
              <th scope="col" className="py-2 text-right font-medium">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {p.lineItems.map((item) => (
              <tr key={item.id} className="border-b border-slate-100 dark:border-slate-800">
                <td className="py-2 pr-2 align-top">
                  {item.description}
                  <span className="block text-xs text-slate-600 sm:hidden dark:text-slate-300">
                    {formatAmount(item.quantity, 0)} × {formatAmount(item.rate)}
                  </span>
                </td>
                <td className="hidden py-2 pr-2 text-right align-top sm:table-cell">
                  {formatAmount(item.quantity, 0)}
                </td>
                <td className="hidden py-2 pr-2 text-right align-top sm:table-cell">
                  {formatAmount(item.rate)}
                </td>
                <td className="py-2 text-right align-top">{formatAmount(item.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <section aria-label="Totals" className="mt-4">
        <dl className="ml-auto max-w-xs space-y-1 text-sm">
          <TotalRow label="Subtotal" value={formatMoney(p.subtotal, p.currency)} />
          {hasTax && (
            <TotalRow
              label={`Tax (${formatAmount(p.taxRate, 0)}%)`}
              value={formatMoney(p.taxAmount, p.currency)}
            />
          )}
          {hasDiscount && (
            <TotalRow label="Discount" value={`−${formatMoney(p.discount, p.currency)}`} />
          )}
          <TotalRow label="Total" value={formatMoney(p.total, p.currency)} strong />
        </dl>
      </section>
    </section>
  );
}

function TotalRow({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <div
      className={`flex justify-between gap-6 ${strong ? "border-t border-slate-200 pt-2 font-semibold dark:border-slate-700" : ""}`}
    >
      <dt className={strong ? "" : "text-slate-600 dark:text-slate-300"}>{label}</dt>
      <dd className="text-right">{value}</dd>
    </div>
  );
}
