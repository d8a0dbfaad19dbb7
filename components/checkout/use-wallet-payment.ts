"use client";

import { useCallback, useEffect, useState } from "react";
import { ApiError, api } from "@/lib/client/api";
import { type WalletId, type WalletOptions, walletInfo } from "@/lib/client/wallets/catalog";
import type { paymentIntent, submitPending, submitResult } from "@/lib/schemas/payments";
import type { FormB } from "@/lib/schemas/wire";
import { networkOf } from "@/lib/stellar/networks";
import { type SendAsset, useAssetChoice } from "./pay-with-asset";
import type { StepKey } from "./payment-steps";
import { payerWords } from "./recipient-message";
import { type CheckoutReceipt, type Quote, quoteExpired } from "./use-payment-status";

export type Intent = FormB<typeof paymentIntent>;
/** POST /api/payments/submit: applied, already paid, or (202) not confirmed yet. */
type SubmitBody = FormB<typeof submitResult> | FormB<typeof submitPending>;

export type FreighterState = {
  /** The wallet paying (its name labels the connect step). */
  wallet: string;
  step: StepKey;
  error: string | null;
  note: string | null;
  /** The error is an expired quote: the retry is "Get a new quote". */
  quoteExpired?: boolean;
};
export type MobileState = { intent: Intent | null; qrSvg: string | null; error: string | null };

/** What the payment status hook offers a payment in progress (use-payment-status.ts). */
type StatusControls = {
  speedUp: () => void;
  settle: (receipt: CheckoutReceipt) => void;
  refresh: () => Promise<void>;
  showQuote: (quote: Quote | null) => void;
};

/**
 * Signing takes the payer a while: a quote with less time left than this is let run out and
 * replaced before the wallet is asked, so the signed transaction is not already expired.
 */
const MIN_SIGNING_MS = 20_000;

/** A fiat-priced invoice's quote ran out before the transaction was signed or sent. */
class QuoteExpiredError extends Error {
  constructor() {
    super("The quote expired before the payment was sent. Nothing was paid: get a new quote.");
  }
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const NOT_CONFIRMED_YET =
  "The network has not confirmed the transaction yet. This page updates by itself when it does.";

/** submit's refusal of a transaction past its time bounds (an expired quote's). */
const isTimedOut = (err: unknown) =>
  err instanceof ApiError && err.status === 400 && /timed out/i.test(err.message);

function messageOf(err: unknown): string {
  if (err instanceof ApiError) return payerWords(err.message);
  if (err instanceof QuoteExpiredError) return err.message;
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
  walletOptions: WalletOptions,
) {
  const [freighter, setFreighter] = useState<FreighterState | null>(null);
  /** The browser wallet picked last ("Try again" uses it again). */
  const [picked, setPicked] = useState<WalletId>("freighter");
  const [mobile, setMobile] = useState<MobileState | null>(null);
  const [mobileBusy, setMobileBusy] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const { speedUp, settle, refresh, showQuote } = status;
  /** The asset to pay with, picked after connecting (pay-with-asset.tsx). */
  const assets = useAssetChoice(invoiceId);

  /** A pay-intent; a fiat-priced invoice's answer carries the quote, shown at once. */
  const payIntent = useCallback(
    async (senderPublicKey?: string, sendAsset?: SendAsset, feeAccount?: string) => {
      const intent = await api<Intent>(`/api/payments/${invoiceId}/pay-intent`, {
        method: "POST",
        body: { senderPublicKey, networkPassphrase, sendAsset, feeAccount },
      });
      if (intent.quote) showQuote(intent.quote);
      return intent;
    },
    [invoiceId, networkPassphrase, showQuote],
  );

  /**
   * A pay-intent whose quote leaves time to sign: one about to run out is waited out and
   * replaced (the server returns the live quote until it expires).
   */
  const freshIntent = useCallback(
    async (senderPublicKey: string, sendAsset?: SendAsset, feeAccount?: string) => {
      const intent = await payIntent(senderPublicKey, sendAsset, feeAccount);
      const left = intent.quote ? Date.parse(intent.quote.expiresAt) - Date.now() : Infinity;
      if (left >= MIN_SIGNING_MS) return intent;
      await sleep(Math.max(0, left) + 1000);
      return payIntent(senderPublicKey, sendAsset, feeAccount);
    },
    [payIntent],
  );

  const payWith = useCallback(
    async (id: WalletId) => {
      setMobile(null);
      setPicked(id);
      const name = walletInfo(id).name;
      let step: StepKey = "connect";
      const go = (next: StepKey, note: string | null = null) => {
        step = next;
        setFreighter({ wallet: name, step: next, error: null, note });
      };
      go("connect");
      try {
        const wallet = await import("@/lib/client/wallet");
        const fundOn = [networkOf(networkPassphrase)];
        const address = await wallet.connectWallet(id, walletOptions, fundOn);
        // A smart wallet (C...) pays in the invoice's asset through its asset contract, its
        // fee payer sending the transaction (docs/decisions.md, Smart-wallet payers).
        const feeAccount = walletInfo(id).smart
          ? ((await wallet.smartWalletFeeAccount(walletOptions)) ?? undefined)
          : undefined;
        const sendAsset = feeAccount ? undefined : await assets.choose(address);
        go("prepare");
        const intent = await freshIntent(address, sendAsset, feeAccount);
        const { transactionXdr, contractPayment } = intent;
        if (!transactionXdr) throw new Error("No transaction to sign");
        const { quote } = intent;
        // Never ask the wallet to sign, nor send, a transaction whose quote is over.
        if (quote && quoteExpired(quote)) throw new QuoteExpiredError();
        go("sign");
        const signed = contractPayment
          ? await wallet.signSmartPayment(
              { transactionXdr, networkPassphrase: intent.networkPassphrase, contractPayment },
              walletOptions,
            )
          : await wallet.signPayment(
              transactionXdr,
              intent.networkPassphrase,
              address,
              walletOptions,
            );
        if (quote && quoteExpired(quote)) throw new QuoteExpiredError();
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
        const expired = err instanceof QuoteExpiredError || isTimedOut(err);
        setFreighter({
          wallet: name,
          step,
          error: messageOf(err),
          note: null,
          quoteExpired: expired,
        });
      }
    },
    [
      invoiceId,
      networkPassphrase,
      walletOptions,
      freshIntent,
      speedUp,
      settle,
      refresh,
      assets.choose,
    ],
  );
  /** "Try again": the same wallet. */
  const retryWallet = useCallback(() => payWith(picked), [payWith, picked]);

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

  /**
   * "Get a new quote": a new QR code when the payer is paying from a phone, else a new quote
   * shown (the next Freighter attempt signs at it).
   */
  const [renewing, setRenewing] = useState(false);
  const renewQuote = useCallback(async () => {
    if (mobile) return payWithMobile();
    setRenewing(true);
    try {
      await payIntent();
      setFreighter((f) => (f?.quoteExpired ? null : f));
    } catch (err) {
      setFreighter((f) => ({
        wallet: f?.wallet ?? walletInfo(picked).name,
        step: "prepare",
        error: messageOf(err),
        note: null,
      }));
    } finally {
      setRenewing(false);
    }
  }, [mobile, payWithMobile, payIntent, picked]);

  const freighterBusy = freighter !== null && freighter.error === null && freighter.note === null;
  const ready = hydrated && !freighterBusy && !mobileBusy && !renewing;
  return {
    freighter,
    mobile,
    mobileBusy,
    ready,
    payWith,
    retryWallet,
    payWithMobile,
    renewQuote,
    assets,
  };
}
