import { unappliedReasonText } from "@/components/ui/payment-words";
import { useExplorerTxUrl } from "@/lib/client/explorer";
import {
  formatFiat,
  formatMoney,
  formatUtcDate,
  formatUtcDateTime,
  PAYMENT_METHOD_LABELS,
  shortHash,
} from "@/lib/format";
import type { ReceivedPaymentBody } from "@/lib/schemas/invoices";

/**
 * Every payment received for the invoice, as the payer sees it on the checkout and its
 * receipt: amount, transaction (linked to an explorer), ledger, time, and whether it counted
 * (with the reason when it did not). On a fiat-priced invoice, what each counted for in its
 * currency, and "paid late" when no quote was live (docs/decisions.md, Fiat pricing).
 */
export function PaymentList({
  payments,
  networkPassphrase,
  priceCurrency = null,
}: {
  payments: ReceivedPaymentBody[];
  networkPassphrase: string;
  priceCurrency?: string | null;
}) {
  const explorerTxUrl = useExplorerTxUrl();
  if (payments.length === 0) return null;
  return (
    <section aria-labelledby="payments-heading" className="space-y-2">
      <h3 id="payments-heading" className="text-sm font-semibold">
        Payments received
      </h3>
      <ul className="divide-y divide-slate-200 rounded-md border border-slate-200 text-sm dark:divide-slate-700 dark:border-slate-700">
        {payments.map((p) => (
          <li
            key={`${p.transactionHash ?? `${p.method}-${p.confirmedAt}-${p.amount}`}-${p.operationIndex}`}
            className="space-y-1 px-3 py-2"
            data-testid="received-payment"
            data-applied={p.applied}
          >
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <span className="font-semibold">{formatMoney(p.amount, p.asset)}</span>
              <span
                className={
                  p.applied
                    ? "text-emerald-800 dark:text-emerald-200"
                    : "text-amber-800 dark:text-amber-200"
                }
              >
                {p.applied
                  ? priceCurrency && p.priceValue !== null
                    ? `Counted for ${formatFiat(p.priceValue, priceCurrency)}`
                    : "Counted"
                  : `Not counted: ${unappliedReasonText(p)}`}
              </span>
            </div>
            {p.paidLate && (
              <p className="text-xs text-amber-800 dark:text-amber-200">
                Paid late: no quote was live, so it counted at the rate when it arrived.
              </p>
            )}
            <p className="text-xs text-slate-600 dark:text-slate-300">
              {p.transactionHash === null ? (
                // Received outside Stellar and recorded by the payee: no transaction to show.
                <>
                  {PAYMENT_METHOD_LABELS[p.method] ?? p.method} ·{" "}
                  <time dateTime={p.confirmedAt}>{formatUtcDate(p.confirmedAt)}</time>
                </>
              ) : (
                <>
                  <a
                    href={explorerTxUrl(p.transactionHash, networkPassphrase)}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="font-mono text-indigo-700 underline dark:text-indigo-300"
                    title={p.transactionHash}
                  >
                    {shortHash(p.transactionHash)}
                    <span className="sr-only"> (transaction, opens in a new tab)</span>
                  </a>{" "}
                  · Ledger {p.ledgerNumber} ·{" "}
                  <time dateTime={p.confirmedAt}>{formatUtcDateTime(p.confirmedAt)}</time>
                </>
              )}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
