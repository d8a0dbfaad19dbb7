"use client";

import { useEffect, useRef, useState } from "react";
import { ApiError, api } from "@/lib/client/api";
import type { paymentStatusResponse } from "@/lib/schemas/payments";
import type { FormB } from "@/lib/schemas/wire";

/** GET /api/payments/{id}/status's body, and each message of its stream. */
export type PaymentStatusBody = FormB<typeof paymentStatusResponse>;

/** Statuses after which nothing more is pushed or polled. */
export const FINAL_STATUSES = new Set(["PAID", "CANCELLED"]);
/** Without the pushed status: poll every 5 seconds (`fast()`: every 1.5). */
const SLOW_POLL_MS = 5000;
const FAST_POLL_MS = 1500;
/** Errors in a row, without a message between them, before the stream is given up for polling. */
const STREAM_ATTEMPTS = 3;

/**
 * Follows an invoice's payment status while `active` (docs/decisions.md, "Pushed status"): the
 * pushed status (GET /api/payments/{id}/events, EventSource) and, when the stream cannot be
 * had (a host that cuts long responses, too many streams), polling GET
 * /api/payments/{id}/status instead, paused while the tab is hidden. `onStatus` gets every
 * body; the latest `onStatus` is always the one called (no restart when it changes).
 * `fast()` says whether to poll at the fast pace; a new `restartKey` restarts the poll loop
 * (e.g. at the fast pace). The checkout (components/checkout/use-payment-status.ts) and the
 * freelancer's invoice page (components/invoices/invoice-detail.tsx) both follow it.
 */
export function useStatusStream(
  invoiceId: string,
  options: {
    active: boolean;
    onStatus: (s: PaymentStatusBody) => void;
    fast?: () => boolean;
    restartKey?: number;
  },
): void {
  const { active, restartKey = 0 } = options;
  const onStatus = useRef(options.onStatus);
  onStatus.current = options.onStatus;
  const fast = useRef(options.fast);
  fast.current = options.fast;
  const [streamFailed, setStreamFailed] = useState(false);
  const streaming = !streamFailed && typeof EventSource !== "undefined";

  useEffect(() => {
    if (!active || !streaming) return;
    const source = new EventSource(`/api/payments/${invoiceId}/events`);
    let errors = 0;
    source.onmessage = (e: MessageEvent<string>) => {
      errors = 0;
      let body: PaymentStatusBody;
      try {
        body = JSON.parse(e.data) as PaymentStatusBody;
      } catch {
        return; // Not a status body: wait for the next one.
      }
      onStatus.current(body);
    };
    // The browser reconnects by itself (`retry:`); a refused or failing stream means polling.
    source.onerror = () => {
      errors++;
      if (source.readyState === EventSource.CLOSED || errors >= STREAM_ATTEMPTS) {
        source.close();
        setStreamFailed(true);
      }
    };
    return () => source.close();
  }, [active, streaming, invoiceId]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: restartKey restarts the loop at the fast pace
  useEffect(() => {
    if (!active || streaming) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const delay = () => (fast.current?.() ? FAST_POLL_MS : SLOW_POLL_MS);
    const tick = async () => {
      if (document.visibilityState !== "hidden") {
        try {
          const s = await api<PaymentStatusBody>(`/api/payments/${invoiceId}/status`);
          if (stopped) return;
          onStatus.current(s);
          if (FINAL_STATUSES.has(s.status)) return;
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
  }, [active, streaming, restartKey, invoiceId]);
}
