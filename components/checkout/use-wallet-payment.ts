"use client";

import { useCallback, useEffect, useState } from "react";
import { ApiError, api } from "@/lib/client/api";
import type { paymentIntent, submitPending, submitResult } from "@/lib/schemas/payments";
import type { FormB } from "@/lib/schemas/wire";
import type { StepKey } from "./payment-steps";
import type { CheckoutReceipt } from "./use-payment-status";

export type Intent = FormB<typeof paymentIntent>;
/** POST /api/payments/submit: applied, already paid, or (202) not confirmed yet. */
type SubmitBody = FormB<typeof submitResult> | FormB<typeof submitPending>;

export type FreighterState = { step: StepKey; error: string | null; note: string | null };
export type MobileState = { intent: Intent | null; qrSvg: string | null; error: string | null };

/** What the payment status hook offers a payment in progress (use-payment-status.ts). */
type StatusControls = {
  speedUp: () => void;
  settle: (receipt: CheckoutReceipt) => void;
  refresh: () => Promise<void>;
};

const NOT_CONFIRMED_YET =
  "The network has not confirmed the transaction yet. This page updates by itself when it does.";

function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  // WalletError (lib/client/wallet) carries a user-facing message; it is loaded lazily, so
  // recognise it by shape rather than by class.
  if (err instanceof Error && "kind" in err && err.message) return err.message;
  return "Something went wrong. Please try again.";
}

/**
 * The two ways to pay, one at a time: Freighter (connect, prepare, sign, submit, each step
 * shown) or a mobile wallet (a SEP-7 QR code and the raw details). The wallet code and the QR
 * encoder are imported only when the payer picks that way, so the first load stays small on a
 * phone. `ready` is false until the page is interactive (the buttons come from the server
 * before React runs; a click then would do nothing) and while a payment is under way.
 */
export function useWalletPayment(
  invoiceId: string,
  networkPassphrase: string,
  status: StatusControls,
) {
  const [freighter, setFreighter] = useState<FreighterState | null>(null);
  const [mobile, setMobile] = useState<MobileState | null>(null);
  const [mobileBusy, setMobileBusy] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const { speedUp, settle, refresh } = status;

  const payIntent = useCallback(
    (senderPublicKey?: string) =>
      api<Intent>(`/api/payments/${invoiceId}/pay-intent`, {
        method: "POST",
        body: { senderPublicKey, networkPassphrase },
      }),
    [invoiceId, networkPassphrase],
  );

  const payWithFreighter = useCallback(async () => {
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
      const intent = await payIntent(address);
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
      if (!result.success) return go("submit", NOT_CONFIRMED_YET);
      go("paid");
      if ("alreadyPaid" in result) return await refresh();
      settle({
        transactionHash: result.transactionHash,
        ledgerNumber: result.ledger,
        payerWallet: address,
        paidAt: result.paidAt,
      });
      // The receipt lists every payment: read them once more, with this one.
      await refresh().catch(() => undefined);
    } catch (err) {
      setFreighter({ step, error: messageOf(err), note: null });
    }
  }, [invoiceId, payIntent, speedUp, settle, refresh]);

  const payWithMobile = useCallback(async () => {
    setFreighter(null);
    setMobileBusy(true);
    setMobile({ intent: null, qrSvg: null, error: null });
    try {
      const intent = await payIntent();
      const QRCode = await import("qrcode");
      const qrSvg = await QRCode.toString(intent.sep7Uri, { type: "svg", margin: 2, width: 256 });
      setMobile({ intent, qrSvg, error: null });
      speedUp();
    } catch (err) {
      setMobile({ intent: null, qrSvg: null, error: messageOf(err) });
    } finally {
      setMobileBusy(false);
    }
  }, [payIntent, speedUp]);

  const freighterBusy = freighter !== null && freighter.error === null && freighter.note === null;
  const ready = hydrated && !freighterBusy && !mobileBusy;
  return { freighter, mobile, mobileBusy, ready, payWithFreighter, payWithMobile };
}
