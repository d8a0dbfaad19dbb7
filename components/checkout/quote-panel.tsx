"use client";

import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { formatCountdown, formatMoney, formatRate, formatUtcDateTime } from "@/lib/format";
import type { Quote } from "./use-payment-status";

/**
 * The locked quote of a fiat-priced invoice (docs/decisions.md, Fiat pricing): what to send,
 * at which rate, and a live countdown to `expiresAt`. The countdown is a `timer` (not read out
 * each second); a polite live region says the time left only as it crosses a few marks (more
 * than 5 minutes, each minute of the last 5, the last minute, expired). Once expired, the
 * payer gets a new quote; the wallet never signs at an expired one (use-wallet-payment.ts).
 */
export function QuotePanel({
  quote,
  onRenew,
  renewDisabled,
}: {
  quote: Quote;
  onRenew: () => void;
  renewDisabled: boolean;
}) {
  const now = useNow(Date.parse(quote.expiresAt));
  const left = now === null ? null : Date.parse(quote.expiresAt) - now;
  const expired = left !== null && left <= 0;
  // Six significant digits: the quote keeps its exact rate (docs/decisions.md, Fiat pricing).
  const rate = `1 ${quote.asset} = ${formatRate(quote.rate)} ${quote.priceCurrency}`;

  return (
    <section
      aria-labelledby="quote-heading"
      data-testid="quote"
      data-expired={expired}
      className={`rounded-md border px-4 py-3 text-sm ${
        expired
          ? "border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
          : "border-indigo-200 bg-indigo-50 text-indigo-950 dark:border-indigo-800 dark:bg-indigo-950 dark:text-indigo-100"
      }`}
    >
      <h3 id="quote-heading" className="sr-only">
        Quote
      </h3>
      <p className="text-base font-semibold">
        Pay <span className="break-all">{formatMoney(quote.assetAmount, quote.asset)}</span>{" "}
        <span className="font-normal">({rate})</span>
      </p>
      {expired ? (
        <div className="mt-2 space-y-2">
          <p>This quote expired. Nothing was paid at it: get a new quote at the current rate.</p>
          <Button onClick={onRenew} disabled={renewDisabled}>
            Get a new quote
          </Button>
        </div>
      ) : (
        <p className="mt-1">
          {left === null ? (
            <>Quote valid until {formatUtcDateTime(quote.expiresAt)}</>
          ) : (
            <>
              Quote expires in{" "}
              <span role="timer" className="font-mono font-semibold tabular-nums">
                {formatCountdown(left)}
              </span>
            </>
          )}
        </p>
      )}
      <p className="sr-only" aria-live="polite" data-testid="quote-announcement">
        {left === null ? "" : announcement(left)}
      </p>
    </section>
  );
}

/** The words the live region says: they change a few times per quote, never each second. */
function announcement(left: number): string {
  if (left <= 0) return "The quote expired. Get a new quote to pay.";
  if (left <= 60_000) return "Less than a minute left on this quote.";
  const minutes = Math.ceil(left / 60_000);
  if (minutes <= 5) return `${minutes} minutes left on this quote.`;
  return "More than 5 minutes left on this quote.";
}

/**
 * The browser's clock, ticking each second until `until` (then it stops). Null on the server
 * and before hydration, so the server's HTML and the first client render agree.
 */
function useNow(until: number): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      const t = Date.now();
      setNow(t);
      // Next when the seconds left change (they are rounded up, formatCountdown).
      if (t < until) timer = setTimeout(tick, ((until - t) % 1000 || 1000) + 5);
    };
    tick();
    return () => clearTimeout(timer);
  }, [until]);
  return now;
}
