"use client";

import { type ReactNode, useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { isPartlyPaid, paidAndRemaining } from "@/components/ui/payment-words";
import { DemoFunding } from "@/components/wallet/demo-funding";
import { WalletPicker } from "@/components/wallet/wallet-picker";
import { offeredWallets, type WalletOptions } from "@/lib/client/wallets/catalog";
import {
  formatMoney,
  formatPriced,
  formatUtcDate,
  isZero,
  minutes,
  pricingCode,
  statusWords,
  trimZeros,
} from "@/lib/format";
import type { Language } from "@/lib/i18n";
import { filler, type Messages } from "@/lib/i18n/fill";
import { formatDay, localizeAmount } from "@/lib/i18n/format";
import { networkOf } from "@/lib/stellar/networks";
import { CheckoutStatus } from "./checkout-status";
import { DocumentLinks } from "./document-links";
import { MobilePayment } from "./mobile-payment";
import { PayWithAsset } from "./pay-with-asset";
import { PaymentList } from "./payment-list";
import { PaymentSteps } from "./payment-steps";
import { QuotePanel } from "./quote-panel";
import { Receipt } from "./receipt";
import {
  type CheckoutProgress,
  type CheckoutReceipt,
  PAYABLE,
  type Quote,
  quoteExpired,
  usePaymentStatus,
  useUsdEstimate,
} from "./use-payment-status";
import { useWalletPayment } from "./use-wallet-payment";

/**
 * The interactive part of the checkout (the rest of the page is server-rendered): the amount
 * due with its USD estimate, the two ways to pay, live status, and the receipt. State lives in
 * the hooks (use-payment-status.ts, use-wallet-payment.ts); this is the markup.
 */
export type CheckoutPanelProps = {
  invoiceId: string;
  status: string;
  total: string;
  currency: string;
  /** USD or EUR for a fiat-priced invoice: the amounts are in it, paid in `currency`. */
  priceCurrency: string | null;
  quoteTtlMinutes: number;
  /** The live quote when the page was rendered (a reload keeps the countdown). */
  quote: Quote | null;
  networkPassphrase: string;
  networkLabel: string;
  payeeName: string;
  dueDate: string | null;
  receipt: CheckoutReceipt | null;
  /** Paid so far, left to pay and the payments received, as the status endpoint answers. */
  progress: CheckoutProgress;
  /** What the server lets the wallet picker offer (lib/client/wallets/options.ts). */
  walletOptions: WalletOptions;
  /** The signed links to the invoice PDF and the receipt (lib/services/invoices/public-documents.ts). */
  documents?: { invoicePdf: string; receipt: string };
  /** The invoice's language (docs/decisions.md, Languages): the panel's labels and amounts. */
  lang?: Language;
  /** Its `checkout.*` messages, from the server (the catalogues stay off the payer's load). */
  messages: Messages;
};

const muted = "text-sm text-slate-600 dark:text-slate-300";

export function CheckoutPanel(props: CheckoutPanelProps) {
  const { invoiceId, networkPassphrase, dueDate } = props;
  const payment = usePaymentStatus(invoiceId, props);
  const wallet = useWalletPayment(invoiceId, networkPassphrase, payment, props.walletOptions);
  const { status, receipt, paid, progress, quote, quoteReplaced } = payment;
  // A payment made the shown quote stale (it was for the amount due before it): the payer who
  // had one gets a new one for what is left, and a new QR code when paying from a phone.
  const { renewQuote } = wallet;
  const renewed = useRef(0);
  useEffect(() => {
    if (quoteReplaced === renewed.current) return;
    renewed.current = quoteReplaced;
    void renewQuote();
  }, [quoteReplaced, renewQuote]);
  // Paid in part: the amount shown, the pay buttons and the QR code are for what is left.
  const partly = isPartlyPaid({ status, ...progress });
  // A credit note lowered what is due below the total (docs/decisions.md, Credit notes).
  const credited =
    PAYABLE.has(status) &&
    !isZero(progress.amountDue) &&
    trimZeros(progress.amountDue) !== trimZeros(props.total);
  const shown = partly || credited ? progress.amountDue : props.total;
  const { priceCurrency } = props;
  // A fiat-priced invoice's amounts are fiat already: no estimate from the XLM feed.
  const usd = useUsdEstimate(priceCurrency ? "" : props.currency, shown);
  const { freighter, mobile } = wallet;
  const lang = props.lang ?? "en";
  const tr = filler(props.messages);
  // English keeps the checkout's hand-written day (server and browser agree on it).
  const day = (iso: string) =>
    lang === "en" ? formatUtcDate(iso) : formatDay(new Date(iso), lang);
  const money = (value: string) => localizeAmount(formatPriced(value, props, formatMoney), lang);
  const amount = money(props.total);
  const expired = quote !== null && quoteExpired(quote);
  // A QR code made at a quote no longer shown (a payment replaced it) would pay the old amount.
  const staleQr = Boolean(
    wallet.mobile?.intent?.quote && wallet.mobile.intent.quote.id !== quote?.id,
  );
  const received = (
    <PaymentList
      payments={progress.payments}
      networkPassphrase={networkPassphrase}
      priceCurrency={priceCurrency}
    />
  );

  return (
    <section
      aria-labelledby="payment-heading"
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900"
    >
      <h2 id="payment-heading" className="sr-only">
        Payment
      </h2>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className={`${muted} font-medium`}>
            {status === "PAID" ? tr("checkout.amountPaid") : tr("checkout.amountDue")}
          </p>
          <p className="text-3xl font-semibold tracking-tight text-slate-900 dark:text-white">
            {money(shown)}
          </p>
          {partly && (
            <p className={`${muted} mt-1 font-medium`} data-testid="paid-remaining">
              {paidAndRemaining(progress.amountPaid, progress.amountDue, pricingCode(props), (v) =>
                money(v),
              )}{" "}
              of {amount}
            </p>
          )}
          {credited && !partly && (
            <p className={`${muted} mt-1 font-medium`} data-testid="credited">
              Invoice total {amount}, less a credit note
            </p>
          )}
          {priceCurrency && status !== "PAID" && (
            <p className={`${muted} mt-1`} data-testid="paid-in">
              Priced in {priceCurrency}, paid in {props.currency} at a rate locked for{" "}
              {minutes(props.quoteTtlMinutes)} when you pay.
            </p>
          )}
          {usd && (
            <p className={`${muted} mt-1`} data-testid="usd">
              {usd}
            </p>
          )}
        </div>
        <div className="text-right">
          <span className="sr-only">Status: </span>
          <CheckoutStatus
            status={status}
            partly={partly}
            confirming={freighter?.step === "submit" && freighter.error === null}
            messages={lang === "en" ? undefined : props.messages}
          />
          {dueDate && !paid && status !== "PAID" && (
            <p className={`${muted} mt-2`}>{tr("checkout.dueDate", { date: day(dueDate) })}</p>
          )}
        </div>
      </div>
      <p className="mt-2 text-xs text-slate-600 dark:text-slate-300">
        {tr("checkout.paidOnNetwork", { network: props.networkLabel })}
      </p>

      <div className="mt-5 space-y-4">
        {paid && receipt ? (
          <Receipt
            receipt={receipt}
            headingRef={payment.receiptHeading}
            amount={amount}
            payeeName={props.payeeName}
            networkPassphrase={networkPassphrase}
            payments={received}
          >
            {freighter && <PaymentSteps wallet={freighter.wallet} current="paid" failed={false} />}
          </Receipt>
        ) : status === "CANCELLED" ? (
          <Notice title={tr("checkout.cancelledTitle")}>{tr("checkout.cancelledBody")}</Notice>
        ) : status === "DRAFT" ? (
          <Notice title={tr("checkout.draftTitle")}>{tr("checkout.draftBody")}</Notice>
        ) : status === "PAID" ? (
          // Paid without a ledger receipt: a payment the sender recorded (a bank transfer...).
          <Notice title={tr("checkout.paidTitle")}>{tr("checkout.paidBody")}</Notice>
        ) : !PAYABLE.has(status) ? (
          <Notice title="This invoice cannot be paid">
            Its status is {statusWords(status).toLowerCase()}. Contact its sender if you think this
            is a mistake.
          </Notice>
        ) : (
          <>
            {status === "EXPIRED" && (
              <Notice title={tr("checkout.pastDueTitle")}>
                {dueDate ? `${tr("checkout.pastDueOn", { date: day(dueDate) })} ` : ""}
                {tr("checkout.pastDueBody")}
              </Notice>
            )}
            {status === "FAILED" && !freighter && (
              <Notice title="A previous payment attempt failed">
                Nothing was paid. You can try again.
              </Notice>
            )}
            {quote && (
              <QuotePanel quote={quote} onRenew={wallet.renewQuote} renewDisabled={!wallet.ready} />
            )}
            <div className="grid gap-3">
              <WalletPicker
                wallets={offeredWallets(props.walletOptions, networkOf(networkPassphrase))}
                purpose="pay"
                onPick={wallet.payWith}
                disabled={!wallet.ready}
              />
              {(props.currency === "USDC" || props.currency === "EURC") &&
                props.walletOptions.demoLedgers[networkOf(networkPassphrase)] && (
                  <DemoFunding
                    code={props.currency}
                    network={networkOf(networkPassphrase)}
                    options={props.walletOptions}
                  />
                )}
              <Button
                variant="secondary"
                onClick={wallet.payWithMobile}
                disabled={!wallet.ready}
                className="w-full py-3 text-base"
              >
                Pay with a mobile wallet
              </Button>
            </div>
            {freighter && (
              <div className="space-y-3">
                <PaymentSteps
                  wallet={freighter.wallet}
                  current={freighter.step}
                  failed={freighter.error !== null}
                />
                <PayWithAsset controls={wallet.assets} />
                {freighter.note && <Alert kind="info">{freighter.note}</Alert>}
                {freighter.error && (
                  <Failure
                    message={freighter.error}
                    onRetry={wallet.retryWallet}
                    retry={freighter.quoteExpired ? "Try again with a new quote" : undefined}
                  />
                )}
              </div>
            )}
            {mobile?.error ? (
              <Failure message={mobile.error} onRetry={wallet.payWithMobile} />
            ) : (
              // An expired quote's QR code would pay the old amount: the quote asks for a new one.
              mobile &&
              !expired &&
              !staleQr && <MobilePayment state={mobile} networkLabel={props.networkLabel} />
            )}
          </>
        )}
        {!(paid && receipt) && received}
        {props.documents && (
          <DocumentLinks
            {...props.documents}
            hasReceipt={progress.payments.some((p) => p.applied)}
            messages={props.messages}
          />
        )}
      </div>
    </section>
  );
}

function Notice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div
      role="status"
      className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="font-semibold">{title}</p>
      <p className="mt-1">{children}</p>
    </div>
  );
}

function Failure({
  message,
  onRetry,
  retry = "Try again",
}: {
  message: string;
  onRetry: () => void;
  retry?: string;
}) {
  return (
    <div className="space-y-3">
      <Alert>{message}</Alert>
      <Button variant="secondary" onClick={onRetry}>
        {retry}
      </Button>
    </div>
  );
}
