import { TotalsList } from "@/components/ui/totals";
import { formatAmount, formatPriced, trimZeros } from "@/lib/format";
import type { PublicQuoteBody } from "@/lib/schemas/quotes";

/**
 * A quote's lines and totals (the client's page and the owner's detail): amounts as the
 * invoice pages write them (lib/format.ts), the totals through the invoices' TotalsList.
 * `labels` are the page's words (the client's language), English by default.
 */
export function QuoteLines({
  quote,
  localize = (s) => s,
  labels,
}: {
  quote: Pick<
    PublicQuoteBody,
    | "lineItems"
    | "subtotal"
    | "taxRate"
    | "taxAmount"
    | "discount"
    | "total"
    | "currency"
    | "priceCurrency"
  >;
  localize?: (text: string) => string;
  labels?: {
    description: string;
    quantity: string;
    amount: string;
    subtotal: string;
    tax: string;
    discount: string;
    total: string;
  };
}) {
  const money = (v: string) => localize(formatPriced(v, quote));
  return (
    <div className="space-y-4">
      <div className="overflow-x-auto">
        <table className="w-full min-w-[18rem] text-sm">
          <thead>
            <tr className="border-b border-slate-200 text-left text-xs uppercase text-slate-600 dark:border-slate-700 dark:text-slate-300">
              <th scope="col" className="py-2 pr-2 font-semibold">
                {labels?.description ?? "Description"}
              </th>
              <th scope="col" className="py-2 pr-2 text-right font-semibold">
                {labels?.quantity ?? "Qty"}
              </th>
              <th scope="col" className="py-2 text-right font-semibold">
                {labels?.amount ?? "Amount"}
              </th>
            </tr>
          </thead>
          <tbody>
            {quote.lineItems.map((l) => (
              <tr key={l.id} className="border-b border-slate-100 dark:border-slate-800">
                <td className="py-2 pr-2 align-top [overflow-wrap:anywhere]">
                  {l.description}
                  <span className="block text-xs text-slate-600 dark:text-slate-300">
                    {localize(formatAmount(l.rate))}
                    {l.taxRate !== null && ` · ${trimZeros(l.taxRate)}%`}
                  </span>
                </td>
                <td className="py-2 pr-2 text-right align-top">{trimZeros(l.quantity)}</td>
                <td className="py-2 text-right align-top whitespace-nowrap">{money(l.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <TotalsList
        totals={quote}
        money={money}
        className="ml-auto max-w-xs"
        labels={
          labels && {
            subtotal: labels.subtotal,
            tax: labels.tax,
            discount: labels.discount,
            total: labels.total,
          }
        }
      />
    </div>
  );
}
