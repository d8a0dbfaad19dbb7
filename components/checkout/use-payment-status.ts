"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "@/lib/client/api";
import { FINAL_STATUSES, useStatusStream } from "@/lib/client/use-status-stream";
import { approxUsd, trimZeros } from "@/lib/format";
import type { ReceivedPaymentBody } from "@/lib/schemas/invoices";
import type { paymentStatusResponse } from "@/lib/schemas/payments";
import type { FormB } from "@/lib/schemas/wire";

/** What the receipt shows: the payment that settled the invoice. */
export type CheckoutReceipt = {
  transactionHash: string;
  ledgerNumber: number | null;
  payerWallet: string | null;
  paidAt: string | null;
};

type StatusBody = FormB<typeof paymentStatusResponse>;

/** A locked quote of a fiat-priced invoice (docs/decisions.md, Fiat pricing). */
export type Quote = NonNullable<StatusBody["quote"]>;

/** True once the quote's time is over (its transaction's time bounds have passed). */
export const quoteExpired = (q: Quote, now = Date.now()) => Date.parse(q.expiresAt) <= now;

/** Paid so far, left to pay, and every payment received (docs/decisions.md, Partial payments). */
export type CheckoutProgress = {
  amountPaid: string;
  amountDue: string;
  payments: ReceivedPaymentBody[];
};

const FINAL = FINAL_STATUSES;
/** Statuses the checkout offers to pay (components/checkout/checkout-panel.tsx). */
export const PAYABLE = new Set(["PENDING", "PROCESSING", "FAILED", "EXPIRED"]);
/** Without the pushed status, polls faster for two minutes after the payer starts paying. */
const FAST_WINDOW_MS = 120_000;

/** True while the quote is for `amountDue` (the fiat amount due): no payment since it was locked. */
export const quoteCovers = (q: Quote, amountDue: string) =>
  trimZeros(q.fiatAmount) === trimZeros(amountDue);

/**
 * The server has no live quote (it expired, or a poll sent before a pay-intent answered):
 * the one shown stays while the invoice can be paid and it is still for the amount due, so
 * an expired one says "Get a new quote" instead of vanishing. A payment since it was locked
 * makes it stale: its amount would overpay, so it goes (and is replaced, `quoteReplaced`).
 * A pay attempt always asks the server again.
 */
const keptQuote = (q: Quote | null, s: Pick<StatusBody, "status" | "amountDue">) =>
  q && PAYABLE.has(s.status) && quoteCovers(q, s.amountDue) ? q : null;

/**
 * The invoice's live status: the page becomes a receipt however the invoice gets paid (this
 * page's wallet, a phone, another tab). It follows the pushed status
 * (GET /api/payments/{id}/events) until the status is final; when the stream cannot be had
 * (a host that cuts long responses, too many streams) it polls instead, pausing while the tab
 * is hidden, and `speedUp()` polls faster while a payment is on its way. When a payment this
 * page saw settles, focus moves to the receipt's heading (`receiptHeading`), not on a load.
 * `progress` follows what was paid and what is left, and the payments received; `quote` the
 * live quote of a fiat-priced invoice (from the status poll, so a reload keeps it, or from a
 * pay-intent through `showQuote`). A quote that expired stays shown, as expired, until a new
 * one replaces it: the payer then sees why and asks for a new one.
 */
export function usePaymentStatus(
  invoiceId: string,
  initial: {
    status: string;
    receipt: CheckoutReceipt | null;
    progress: CheckoutProgress;
    quote: Quote | null;
  },
) {
  const [status, setStatus] = useState(initial.status);
  const [receipt, setReceipt] = useState(initial.receipt);
  const [progress, setProgress] = useState(initial.progress);
  const [quote, setQuote] = useState(initial.quote);
  const quoteRef = useRef(initial.quote);
  /** Counts the quotes a payment made stale while the invoice stayed payable. */
  const [quoteReplaced, setQuoteReplaced] = useState(0);
  const [pollKey, setPollKey] = useState(0);
  const fastUntil = useRef(0);
  const receiptHeading = useRef<HTMLHeadingElement>(null);
  const announceReceipt = useRef(false);
  const paid = status === "PAID" && receipt !== null;
  const done = FINAL.has(status) && (status !== "PAID" || receipt !== null);

  const speedUp = useCallback(() => {
    fastUntil.current = Date.now() + FAST_WINDOW_MS;
    setPollKey((k) => k + 1);
  }, []);

  /** The payment settled: show it as the receipt. */
  const settle = useCallback((r: CheckoutReceipt) => {
    announceReceipt.current = true;
    setReceipt(r);
    setStatus("PAID");
  }, []);

  const apply = useCallback(
    (s: StatusBody) => {
      setProgress({ amountPaid: s.amountPaid, amountDue: s.amountDue, payments: s.payments });
      const shown = quoteRef.current;
      const next = s.quote ?? keptQuote(shown, s);
      if (shown && !next && PAYABLE.has(s.status) && !quoteCovers(shown, s.amountDue)) {
        setQuoteReplaced((n) => n + 1);
      }
      quoteRef.current = next;
      setQuote(next);
      if (s.status === "PAID" && s.transactionHash) {
        const { transactionHash, ledgerNumber, payerWallet, paidAt } = s;
        settle({ transactionHash, ledgerNumber, payerWallet, paidAt });
      }
      setStatus(s.status);
    },
    [settle],
  );

  const fetchStatus = useCallback(
    () => api<StatusBody>(`/api/payments/${invoiceId}/status`),
    [invoiceId],
  );
  const refresh = useCallback(async () => apply(await fetchStatus()), [apply, fetchStatus]);

  useStatusStream(invoiceId, {
    active: !done,
    onStatus: apply,
    fast: () => Date.now() < fastUntil.current,
    restartKey: pollKey,
  });

  useEffect(() => {
    if (paid && announceReceipt.current) {
      announceReceipt.current = false;
      receiptHeading.current?.focus();
    }
  }, [paid]);

  const showQuote = useCallback((q: Quote | null) => {
    quoteRef.current = q;
    setQuote(q);
  }, []);

  return {
    status,
    receipt,
    progress,
    quote,
    quoteReplaced,
    paid,
    speedUp,
    settle,
    refresh,
    showQuote,
    receiptHeading,
  };
}

/** "≈ $12.34 USD" for an XLM amount from GET /api/prices/xlm; null otherwise or on failure. */
export function useUsdEstimate(currency: string, amount: string): string | null {
  const [usd, setUsd] = useState<string | null>(null);
  useEffect(() => {
    if (currency !== "XLM") return;
    const ctrl = new AbortController();
    api<{ usd: number }>("/api/prices/xlm", { signal: ctrl.signal })
      .then((p) => setUsd(approxUsd(amount, p.usd)))
      .catch(() => setUsd(null));
    return () => ctrl.abort();
  }, [currency, amount]);
  return usd;
}
