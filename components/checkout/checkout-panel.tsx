"use client";

import { type ReactNode, type RefObject, useCallback, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert, StatusBadge } from "@/components/ui/card";
import { ApiError, api } from "@/lib/client/api";
import { approxUsd, explorerTxUrl, formatDate, formatDateTime, formatMoney } from "./format";

/**
 * The interactive part of the checkout (the rest of the page is server-rendered): the amount
 * due with its USD estimate, the two ways to pay, live status, and the receipt. The wallet
 * code and the QR encoder are loaded only when the payer picks that way to pay, so the first
 * load stays small on a phone.
 */

export type CheckoutReceipt = {
  transactionHash: string;
  ledgerNumber: number | null;
  payerWallet: string | null;
  paidAt: string | null;
};

export type CheckoutPanelProps = {
  invoiceId: string;
  kind: "INVOICE" | "LINK";
  status: string;
  total: string;
  currency: string;
  networkPassphrase: string;
  networkLabel: string;
  payeeName: string;
  dueDate: string | null;
  receipt: CheckoutReceipt | null;
};

type Intent = {
  transactionXdr: string | null;
  sep7Uri: string;
  amount: string;
  asset: { code: string; issuer: string | null };
  memo: string;
  destination: string;
  networkPassphrase: string;
};

type StatusBody = {
  status: string;
  transactionHash: string | null;
  ledgerNumber: number | null;
  paidAt: string | null;
  payerWallet: string | null;
};

type SubmitBody = {
  success: boolean;
  alreadyPaid?: boolean;
  pending?: boolean;
  transactionHash?: string | null;
  ledger?: number | null;
  paidAt?: string | null;
};

const PAYABLE = new Set(["PENDING", "PROCESSING", "FAILED", "EXPIRED"]);
const FINAL = new Set(["PAID", "CANCELLED"]);
/** Spec 4.3: poll every 5 seconds; faster for two minutes after the payer starts paying. */
const SLOW_POLL_MS = 5000;
const FAST_POLL_MS = 1500;
const FAST_WINDOW_MS = 120_000;

const STEPS = [
  { key: "connect", label: "Connecting to Freighter" },
  { key: "prepare", label: "Preparing transaction" },
  { key: "sign", label: "Waiting for your signature" },
  { key: "submit", label: "Submitting to the Stellar network" },
  { key: "paid", label: "Paid" },
] as const;
type StepKey = (typeof STEPS)[number]["key"];

type FreighterState = { step: StepKey; error: string | null; note: string | null };
type MobileState = { intent: Intent | null; qrSvg: string | null; error: string | null };

function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  // WalletError (lib/client/wallet) carries a user-facing message; it is loaded lazily, so
  // recognise it by shape rather than by class.
  if (err instanceof Error && "kind" in err && err.message) return err.message;
  return "Something went wrong. Please try again.";
}

export function CheckoutPanel(props: CheckoutPanelProps) {
  const { invoiceId, networkPassphrase } = props;
  const [status, setStatus] = useState(props.status);
  const [receipt, setReceipt] = useState<CheckoutReceipt | null>(props.receipt);
  const [usd, setUsd] = useState<string | null>(null);
  const [freighter, setFreighter] = useState<FreighterState | null>(null);
  const [mobile, setMobile] = useState<MobileState | null>(null);
  const [mobileBusy, setMobileBusy] = useState(false);
  const [pollKey, setPollKey] = useState(0);
  // The pay buttons come from the server before React runs; a click then would do nothing,
  // so they stay disabled until the page is interactive.
  const [interactive, setInteractive] = useState(false);
  useEffect(() => setInteractive(true), []);
  const fastUntil = useRef(0);
  const receiptHeading = useRef<HTMLHeadingElement>(null);
  const announceReceipt = useRef(false);

  const paid = status === "PAID" && receipt !== null;
  const payable = PAYABLE.has(status);

  const speedUp = useCallback(() => {
    fastUntil.current = Date.now() + FAST_WINDOW_MS;
    setPollKey((k) => k + 1);
  }, []);

  const applyStatus = useCallback((s: StatusBody) => {
    if (s.status === "PAID" && s.transactionHash) {
      announceReceipt.current = true;
      setReceipt({
        transactionHash: s.transactionHash,
        ledgerNumber: s.ledgerNumber,
        payerWallet: s.payerWallet,
        paidAt: s.paidAt,
      });
    }
    setStatus(s.status);
  }, []);

  // Approximate USD value of an XLM amount; quietly absent when the feed fails.
  useEffect(() => {
    if (props.currency !== "XLM") return;
    const ctrl = new AbortController();
    api<{ usd: number }>("/api/prices/xlm", { signal: ctrl.signal })
      .then((p) => setUsd(approxUsd(props.total, p.usd)))
      .catch(() => setUsd(null));
    return () => ctrl.abort();
  }, [props.currency, props.total]);

  // Live status: the page becomes a receipt however the invoice gets paid.
  // biome-ignore lint/correctness/useExhaustiveDependencies: pollKey restarts the loop at the fast pace
  useEffect(() => {
    if (FINAL.has(status) && (status !== "PAID" || receipt)) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const delay = () => (Date.now() < fastUntil.current ? FAST_POLL_MS : SLOW_POLL_MS);
    const tick = async () => {
      if (document.visibilityState !== "hidden") {
        try {
          const s = await api<StatusBody>(`/api/payments/${invoiceId}/status`);
          if (stopped) return;
          applyStatus(s);
          if (FINAL.has(s.status)) return;
        } catch (err) {
          if (stopped || (err instanceof ApiError && err.status === 404)) return;
        }
      }
      if (!stopped) timer = setTimeout(tick, delay());
    };
    timer = setTimeout(tick, delay());
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [invoiceId, status, receipt, pollKey, applyStatus]);

  // Move focus to the receipt when it replaces the payment options (not on a page load).
  useEffect(() => {
    if (paid && announceReceipt.current) {
      announceReceipt.current = false;
      receiptHeading.current?.focus();
    }
  }, [paid]);

  async function payWithFreighter() {
    setMobile(null);
    let step: StepKey = "connect";
    const go = (next: StepKey, note: string | null = null) => {
      step = next;
      setFreighter({ step: next, error: null, note });
    };
    go("connect");
    try {
      const wallet = await import("@/lib/client/wallet");
      const address = await wallet.connectWallet();
      go("prepare");
      const intent = await api<Intent>(`/api/payments/${invoiceId}/pay-intent`, {
        method: "POST",
        body: { senderPublicKey: address, networkPassphrase },
      });
      if (!intent.transactionXdr) throw new Error("No transaction to sign");
      go("sign");
      const signed = await wallet.signPayment(
        intent.transactionXdr,
        intent.networkPassphrase,
        address,
      );
      go("submit");
      speedUp();
      const result = await api<SubmitBody>("/api/payments/submit", {
        method: "POST",
        body: { invoiceId, signedTransactionXdr: signed },
      });
      if (result.success && result.transactionHash && !result.alreadyPaid) {
        go("paid");
        announceReceipt.current = true;
        setReceipt({
          transactionHash: result.transactionHash,
          ledgerNumber: result.ledger ?? null,
          payerWallet: address,
          paidAt: result.paidAt ?? null,
        });
        setStatus("PAID");
      } else if (result.success) {
        go("paid");
        applyStatus(await api<StatusBody>(`/api/payments/${invoiceId}/status`));
      } else {
        go(
          "submit",
          "The network has not confirmed the transaction yet. This page updates by itself when it does.",
        );
      }
    } catch (err) {
      setFreighter({ step, error: messageOf(err), note: null });
    }
  }

  async function payWithMobile() {
    setFreighter(null);
    setMobileBusy(true);
    setMobile({ intent: null, qrSvg: null, error: null });
    try {
      const intent = await api<Intent>(`/api/payments/${invoiceId}/pay-intent`, {
        method: "POST",
        body: { networkPassphrase },
      });
      const QRCode = await import("qrcode");
      const qrSvg = await QRCode.toString(intent.sep7Uri, { type: "svg", margin: 2, width: 256 });
      setMobile({ intent, qrSvg, error: null });
      speedUp();
    } catch (err) {
      setMobile({ intent: null, qrSvg: null, error: messageOf(err) });
    } finally {
      setMobileBusy(false);
    }
  }

  const freighterBusy =
    freighter !== null && freighter.error === null && freighter.note === null && !paid;

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
          <p className="text-sm font-medium text-slate-600 dark:text-slate-300">
            {paid ? "Amount paid" : "Amount due"}
          </p>
          <p className="text-3xl font-semibold tracking-tight text-slate-900 dark:text-white">
            {formatMoney(props.total, props.currency)}
          </p>
          {usd && (
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-300" data-testid="usd">
              {usd}
            </p>
          )}
        </div>
        <div className="text-right">
          <span className="sr-only">Status: </span>
          <StatusBadge status={status} />
          {props.dueDate && !paid && (
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
              Due {formatDate(props.dueDate)}
            </p>
          )}
        </div>
      </div>
      <p className="mt-2 text-xs text-slate-600 dark:text-slate-300">
        Paid on the {props.networkLabel}
      </p>

      <div className="mt-5 space-y-4">
        {paid && receipt ? (
          <Receipt
            receipt={receipt}
            headingRef={receiptHeading}
            props={props}
            steps={freighter ? <Steps current="paid" failed={false} /> : null}
          />
        ) : status === "CANCELLED" ? (
          <Notice title="This invoice was cancelled">
            The sender cancelled it, so it can no longer be paid. Contact them if you think this is
            a mistake.
          </Notice>
        ) : status === "DRAFT" ? (
          <Notice title="This invoice has not been sent yet">
            The sender is still preparing it. This page will let you pay as soon as it is sent.
          </Notice>
        ) : !payable ? (
          <Notice title="This invoice cannot be paid">Its status is {status}.</Notice>
        ) : (
          <>
            {status === "EXPIRED" && (
              <Notice title="This invoice is past due">
                {props.dueDate ? `It was due on ${formatDate(props.dueDate)}. ` : ""}You can still
                pay it.
              </Notice>
            )}
            {status === "FAILED" && !freighter && (
              <Notice title="A previous payment attempt failed">
                Nothing was paid. You can try again.
              </Notice>
            )}
            <div className="grid gap-3">
              <Button
                onClick={payWithFreighter}
                disabled={!interactive || freighterBusy || mobileBusy}
                className="w-full py-3 text-base"
              >
                Pay with Freighter
              </Button>
              <Button
                variant="secondary"
                onClick={payWithMobile}
                disabled={!interactive || freighterBusy || mobileBusy}
                className="w-full py-3 text-base"
              >
                Pay with a mobile wallet
              </Button>
            </div>
            {freighter && (
              <div className="space-y-3">
                <Steps current={freighter.step} failed={freighter.error !== null} />
                {freighter.note && <Alert kind="info">{freighter.note}</Alert>}
                {freighter.error && (
                  <div className="space-y-3">
                    <Alert>{freighter.error}</Alert>
                    <Button variant="secondary" onClick={payWithFreighter}>
                      Try again
                    </Button>
                  </div>
                )}
              </div>
            )}
            {mobile && (
              <MobilePayment
                state={mobile}
                busy={mobileBusy}
                networkLabel={props.networkLabel}
                onRetry={payWithMobile}
              />
            )}
          </>
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

function Steps({ current, failed }: { current: StepKey; failed: boolean }) {
  const at = STEPS.findIndex((s) => s.key === current);
  const currentLabel = STEPS[at].label;
  return (
    <div>
      <ol aria-label="Payment progress" className="space-y-2">
        {STEPS.map((s, i) => {
          const done = i < at || (current === "paid" && i === at);
          const active = i === at && !done;
          const state = done
            ? "done"
            : active
              ? failed
                ? "failed"
                : "in progress"
              : "not started";
          return (
            <li
              key={s.key}
              aria-current={active ? "step" : undefined}
              data-state={state}
              className={`flex items-center gap-3 text-sm ${done ? "text-emerald-800 dark:text-emerald-300" : active ? (failed ? "font-semibold text-red-700 dark:text-red-300" : "font-semibold text-slate-900 dark:text-white") : "text-slate-600 dark:text-slate-400"}`}
            >
              <span
                aria-hidden="true"
                className={`flex h-6 w-6 shrink-0 items-center justify-center rounded-full border text-xs ${done ? "border-emerald-600 bg-emerald-600 text-white" : active ? (failed ? "border-red-600 text-red-700" : "animate-pulse border-indigo-600 text-indigo-700") : "border-slate-300 text-slate-500"}`}
              >
                {done ? "✓" : active && failed ? "!" : i + 1}
              </span>
              <span>
                {s.label}
                <span className="sr-only"> ({state})</span>
              </span>
            </li>
          );
        })}
      </ol>
      <p className="sr-only" role="status" aria-live="polite">
        {failed ? `${currentLabel} failed` : currentLabel}
      </p>
    </div>
  );
}

function MobilePayment({
  state,
  busy,
  networkLabel,
  onRetry,
}: {
  state: MobileState;
  busy: boolean;
  networkLabel: string;
  onRetry: () => void;
}) {
  if (state.error) {
    return (
      <div className="space-y-3">
        <Alert>{state.error}</Alert>
        <Button variant="secondary" onClick={onRetry}>
          Try again
        </Button>
      </div>
    );
  }
  const { intent, qrSvg } = state;
  if (busy || !intent || !qrSvg) {
    return (
      <p role="status" className="text-sm text-slate-600 dark:text-slate-300">
        Preparing the payment request…
      </p>
    );
  }
  return (
    <section aria-labelledby="mobile-heading" className="space-y-4">
      <h3 id="mobile-heading" className="text-base font-semibold">
        Scan with your Stellar wallet
      </h3>
      <div className="flex flex-col items-center gap-3">
        <div
          role="img"
          aria-label="Payment QR code"
          className="rounded-md border border-slate-200 bg-white p-2 [&>svg]:h-64 [&>svg]:w-64"
          // The SVG comes from the qrcode encoder, never from user input.
          // biome-ignore lint/security/noDangerouslySetInnerHtml: encoder output
          dangerouslySetInnerHTML={{ __html: qrSvg }}
        />
        <a
          href={intent.sep7Uri}
          className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2"
        >
          Open in wallet
        </a>
      </div>
      <div>
        <p className="text-sm text-slate-700 dark:text-slate-200">
          Or send the payment by hand with exactly these details ({networkLabel}):
        </p>
        <dl className="mt-3 divide-y divide-slate-200 rounded-md border border-slate-200 text-sm dark:divide-slate-700 dark:border-slate-700">
          <Detail label="Destination" value={intent.destination} mono />
          <Detail label="Amount" value={intent.amount} suffix={intent.asset.code} />
          <Detail
            label="Asset"
            value={intent.asset.issuer ?? intent.asset.code}
            display={
              intent.asset.issuer
                ? `${intent.asset.code} issued by ${intent.asset.issuer}`
                : `${intent.asset.code} (native lumens)`
            }
            copy={intent.asset.issuer !== null}
            copyLabel="asset issuer"
            mono={intent.asset.issuer !== null}
          />
          <Detail
            label="Memo"
            value={intent.memo}
            mono
            hint="Text memo. Required: it matches your payment to this invoice."
          />
        </dl>
      </div>
      <p role="status" className="text-sm text-slate-600 dark:text-slate-300">
        Waiting for your payment. This page updates by itself when it arrives.
      </p>
    </section>
  );
}

function Detail({
  label,
  value,
  display,
  suffix,
  mono,
  hint,
  copy = true,
  copyLabel,
}: {
  label: string;
  value: string;
  display?: string;
  suffix?: string;
  mono?: boolean;
  hint?: string;
  copy?: boolean;
  copyLabel?: string;
}) {
  const [copied, setCopied] = useState(false);
  async function onCopy() {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // Older browsers or a denied permission: copy through a hidden selection.
      const area = document.createElement("textarea");
      area.value = value;
      area.setAttribute("readonly", "");
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.appendChild(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  }
  // A <dl> may only hold <div>s of <dt>/<dd>: the copy button lives inside the <dd>.
  return (
    <div className="px-3 py-2">
      <dt className="text-xs font-medium text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="flex flex-wrap items-start justify-between gap-2">
        <span className="min-w-0 flex-1 text-slate-900 dark:text-slate-100">
          <span className={`break-all ${mono ? "font-mono" : ""}`}>
            {display ?? value}
            {suffix ? ` ${suffix}` : ""}
          </span>
          {hint && (
            <span className="mt-1 block text-xs text-slate-600 dark:text-slate-300">{hint}</span>
          )}
        </span>
        {copy && (
          <span className="flex items-center gap-2">
            <span role="status" className="text-xs text-emerald-700 dark:text-emerald-300">
              {copied ? "Copied" : ""}
            </span>
            <Button variant="secondary" className="px-3 py-1" onClick={onCopy}>
              Copy<span className="sr-only"> {copyLabel ?? label.toLowerCase()}</span>
            </Button>
          </span>
        )}
      </dd>
    </div>
  );
}

function Receipt({
  receipt,
  headingRef,
  props,
  steps,
}: {
  receipt: CheckoutReceipt;
  headingRef: RefObject<HTMLHeadingElement | null>;
  props: CheckoutPanelProps;
  steps: ReactNode;
}) {
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
          {formatMoney(props.total, props.currency)} was paid to {props.payeeName}. Keep this page
          as your receipt.
        </p>
      </div>
      {steps}
      <dl className="grid gap-3 text-sm">
        <div>
          <dt className="font-medium text-slate-600 dark:text-slate-300">Transaction hash</dt>
          <dd className="break-all font-mono text-slate-900 dark:text-slate-100">
            {receipt.transactionHash}
          </dd>
        </div>
        {receipt.ledgerNumber !== null && (
          <div>
            <dt className="font-medium text-slate-600 dark:text-slate-300">Ledger</dt>
            <dd className="text-slate-900 dark:text-slate-100">{receipt.ledgerNumber}</dd>
          </div>
        )}
        {receipt.payerWallet && (
          <div>
            <dt className="font-medium text-slate-600 dark:text-slate-300">Paid by</dt>
            <dd className="break-all font-mono text-slate-900 dark:text-slate-100">
              {receipt.payerWallet}
            </dd>
          </div>
        )}
        {receipt.paidAt && (
          <div>
            <dt className="font-medium text-slate-600 dark:text-slate-300">Paid</dt>
            <dd className="text-slate-900 dark:text-slate-100">
              <time dateTime={receipt.paidAt}>{formatDateTime(receipt.paidAt)}</time>
            </dd>
          </div>
        )}
      </dl>
      <a
        href={explorerTxUrl(props.networkPassphrase, receipt.transactionHash)}
        target="_blank"
        rel="noopener noreferrer"
        className="inline-block text-sm font-medium text-indigo-700 underline hover:text-indigo-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 dark:text-indigo-300"
      >
        View the transaction on Stellar Expert
        <span className="sr-only"> (opens in a new tab)</span>
      </a>
    </section>
  );
}
