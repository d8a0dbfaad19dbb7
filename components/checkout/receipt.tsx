import type { ReactNode, RefObject } from "react";
import { useExplorerTxUrl } from "@/lib/client/explorer";
import { formatUtcDateTime } from "@/lib/format";
import type { CheckoutReceipt } from "./use-payment-status";

/**
 * The paid invoice: what was paid to whom, the transaction that settled it with a link to an
 * explorer, and every payment received (`payments`, after the facts).
 */
export function Receipt({
  receipt,
  headingRef,
  amount,
  payeeName,
  networkPassphrase,
  payments,
  children,
}: {
  receipt: CheckoutReceipt;
  headingRef: RefObject<HTMLHeadingElement | null>;
  amount: string;
  payeeName: string;
  networkPassphrase: string;
  payments?: ReactNode;
  children?: ReactNode;
}) {
  const { transactionHash, ledgerNumber, payerWallet, paidAt } = receipt;
  const explorerTxUrl = useExplorerTxUrl();
  return (
    <section aria-labelledby="receipt-heading" className="space-y-4">
      <div className="rounded-md border border-emerald-200 bg-emerald-50 px-4 py-3 text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100">
        <h3
          id="receipt-heading"
          ref={headingRef}
          tabIndex={-1}
          className="text-lg font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600"
        >
          Payment received
        </h3>
        <p className="mt-1 text-sm">
          {amount} was paid to {payeeName}. Keep this page as your receipt.
        </p>
      </div>
      {children}
      <dl className="grid gap-3 text-sm">
        <Row label="Transaction hash" mono>
          {transactionHash}
        </Row>
        {ledgerNumber !== null && <Row label="Ledger">{ledgerNumber}</Row>}
        {payerWallet && (
          <Row label="Paid by" mono>
            {payerWallet}
          </Row>
        )}
        {paidAt && (
          <Row label="Paid">
            <time dateTime={paidAt}>{formatUtcDateTime(paidAt)}</time>
          </Row>
        )}
      </dl>
      <a
        href={explorerTxUrl(transactionHash, networkPassphrase)}
        target="_blank"
        rel="noopener noreferrer"
        className="inline-block text-sm font-medium text-indigo-700 underline hover:text-indigo-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 dark:text-indigo-300"
      >
        View the transaction on Stellar Expert
        <span className="sr-only"> (opens in a new tab)</span>
      </a>
      {payments}
    </section>
  );
}

function Row({ label, mono, children }: { label: string; mono?: boolean; children: ReactNode }) {
  return (
    <div>
      <dt className="font-medium text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className={`text-slate-900 dark:text-slate-100 ${mono ? "break-all font-mono" : ""}`}>
        {children}
      </dd>
    </div>
  );
}
