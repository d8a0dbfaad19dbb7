import type { ReactNode } from "react";
import { textLinkClass } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Muted, Pair } from "@/components/ui/page";
import { unappliedReasonText } from "@/components/ui/payment-words";
import { ACTIONS_COLUMN, right, Table, tdClass } from "@/components/ui/table";
import { useExplorerTxUrl } from "@/lib/client/explorer";
import { isPayable } from "@/lib/domain/invoice-state";
import {
  formatAmount,
  formatDateTime,
  formatFiat,
  formatUtcDate,
  isZero,
  minutes,
  paymentMethodLabel,
  shortAddress,
  shortHash,
  trimZeros,
} from "@/lib/format";
import type { OwnerInvoice, Payment } from "./types";

// Four columns fit the invoice page's card at 1280 px: the value sits under the amount, the
// payer and the ledger under the (shortened, copyable) transaction hash.
const COLUMNS = ["Transaction", right("Amount"), "Counted"];
const small = "block text-xs text-slate-500 dark:text-slate-400";
const STATUS_WORDS: Record<Payment["status"], string> = {
  CONFIRMED: "Confirmed",
  REFUNDED: "Refunded in full",
  FAILED: "Failed",
  VOIDED: "Voided",
};

/**
 * Every payment received for an invoice, each linked to the ledger explorer: applied or not
 * (with the reason in words), refunded so far. On a fiat-priced invoice each payment also
 * says what it counted for in the invoice's currency (`priceValue`) and whether it was paid
 * late (no live quote). "Value" is the payment's worth in the reporting currency when it
 * arrived (`fiatValue` at `rate`, from `rateSource`, fetched at `rateAt`: docs/decisions.md,
 * Fiat pricing). `action` fills a last column per payment (a button: the refund action, whose
 * form opens below the table, never inside a cell) when given.
 */
export function InvoicePayments({
  invoice,
  action,
}: {
  invoice: OwnerInvoice;
  action?: (payment: Payment) => ReactNode;
}) {
  const { status, payments, networkPassphrase } = invoice;
  const explorerTxUrl = useExplorerTxUrl();
  if (payments.length === 0) {
    return (
      <Muted>
        {isPayable(status)
          ? "No payment yet. Payments show up here seconds after they reach the ledger."
          : status === "DRAFT"
            ? "Send the invoice to make it payable."
            : "No payment recorded."}
      </Muted>
    );
  }
  return (
    <Table
      caption="Payments received"
      columns={action ? [...COLUMNS, ACTIONS_COLUMN] : COLUMNS}
      stacked
    >
      {payments.map((p) => (
        <tr key={p.id} data-testid="payment-row" data-applied={p.applied}>
          {p.transactionHash === null ? (
            // Received outside Stellar: how it came and the owner's reference, no hash.
            <td className={tdClass} data-testid="payment-method">
              <span className="break-words">{paymentMethodLabel(p.method, p.reference)}</span>
              <span className={`${small} whitespace-nowrap`}>
                Received {formatUtcDate(p.confirmedAt)} · recorded by you
              </span>
            </td>
          ) : (
            <td className={tdClass}>
              <span className="flex items-center gap-x-2 whitespace-nowrap">
                <a
                  href={explorerTxUrl(p.transactionHash, networkPassphrase)}
                  target="_blank"
                  rel="noreferrer"
                  className={`${textLinkClass} font-mono`}
                  title={p.transactionHash}
                >
                  {shortHash(p.transactionHash)}
                  <span className="sr-only"> (view on Stellar Expert, opens a new tab)</span>
                </a>
                <CopyButton
                  text={p.transactionHash}
                  label="Copy"
                  ariaLabel={`Copy transaction hash ${shortHash(p.transactionHash)}`}
                  variant="ghost"
                  buttonClassName="px-2! py-0.5! text-xs!"
                />
              </span>
              {p.fromWallet && (
                <span className={small} title={p.fromWallet}>
                  From <span className="font-mono">{shortAddress(p.fromWallet)}</span>
                </span>
              )}
              <span className={small}>
                Ledger {p.ledgerNumber} · {formatDateTime(p.confirmedAt)}
              </span>
            </td>
          )}
          <td className={`${tdClass} whitespace-nowrap text-right font-mono`}>
            {formatAmount(p.amount, p.asset)}
            {!isZero(p.amountRefunded) && (
              <span className={small}>{formatAmount(p.amountRefunded, p.asset)} refunded</span>
            )}
            {invoice.priceCurrency && p.priceValue !== null && (
              <span className={`${small} font-sans`}>
                counts for {formatFiat(p.priceValue, invoice.priceCurrency)}
              </span>
            )}
            {p.paidLate && (
              <span className={`${small} font-sans text-amber-800 dark:text-amber-200`}>
                paid late
              </span>
            )}
            <PaymentValue payment={p} />
          </td>
          <td className={tdClass}>
            {p.applied ? (
              "Applied"
            ) : p.status === "VOIDED" ? (
              "Not applied: voided"
            ) : (
              <span className="text-amber-800 dark:text-amber-200">
                Not applied: <span className="break-all">{unappliedReasonText(p)}</span>
              </span>
            )}
            {p.status !== "CONFIRMED" && <span className={small}>{STATUS_WORDS[p.status]}</span>}
          </td>
          {action && <td className={`${tdClass} text-right`}>{action(p)}</td>}
        </tr>
      ))}
    </Table>
  );
}

/**
 * Under the amount: "worth 131.25 USD" with its rate, source and time; nothing when no price
 * was known.
 */
function PaymentValue({ payment: p }: { payment: Payment }) {
  if (p.fiatValue === null || p.fiatCurrency === null) return null;
  return (
    <>
      <span className={`${small} font-sans`}>
        worth <span className="font-mono">{formatFiat(p.fiatValue, p.fiatCurrency)}</span>
      </span>
      {p.rate !== null && (
        <span className={`${small} whitespace-normal font-sans`}>
          1 {p.asset} = {trimZeros(p.rate)} {p.fiatCurrency}
          {p.rateSource && <> · {p.rateSource}</>}
          {p.rateAt && <> · {formatDateTime(p.rateAt)}</>}
        </span>
      )}
    </>
  );
}

/** When things happened, who paid, and the settling transaction. */
export function InvoiceTimes({ invoice }: { invoice: OwnerInvoice }) {
  const moments = [
    ["Created", invoice.createdAt],
    ["Last updated", invoice.updatedAt],
    ["Sent", invoice.sentAt],
    ["Paid", invoice.paidAt],
    ["Cancelled", invoice.cancelledAt],
  ] as const;
  const mono = "break-all font-mono text-xs";
  const explorerTxUrl = useExplorerTxUrl();
  return (
    <dl className="space-y-2 text-sm">
      {moments.map(
        ([label, at]) =>
          at && (
            <Pair key={label} label={label}>
              {formatDateTime(at)}
            </Pair>
          ),
      )}
      {invoice.priceCurrency && (
        <Pair label="Priced in">
          {invoice.priceCurrency}, paid in {invoice.currency}; a quote holds{" "}
          {minutes(invoice.quoteTtlMinutes)}
        </Pair>
      )}
      {!isZero(invoice.paymentTolerance) && (
        <Pair label="Payment tolerance">{trimZeros(invoice.paymentTolerance)}%</Pair>
      )}
      {invoice.payerWallet && (
        <Pair label="Paid by" className={mono}>
          {invoice.payerWallet}
        </Pair>
      )}
      {invoice.transactionHash && (
        <Pair label="Transaction" className={mono}>
          <a
            href={explorerTxUrl(invoice.transactionHash, invoice.networkPassphrase)}
            target="_blank"
            rel="noreferrer"
            className={textLinkClass}
          >
            {invoice.transactionHash}
          </a>
        </Pair>
      )}
    </dl>
  );
}
