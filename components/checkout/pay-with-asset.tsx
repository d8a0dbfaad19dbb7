"use client";

import { useCallback, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { api } from "@/lib/client/api";
import type { payOptions } from "@/lib/schemas/payments";
import type { FormB } from "@/lib/schemas/wire";

/**
 * Paying with another asset the payer holds (docs/decisions.md, Path payments): once the wallet
 * is connected, GET .../pay-options lists what the account can pay with and what each costs
 * (Horizon's strict-receive paths); the payer picks one (the invoice's own asset is the
 * default) and pay-intent builds the path payment for it.
 */
type Options = FormB<typeof payOptions>;
type Option = Options["options"][number];
type WireAsset = Option["sendAsset"];
/** pay-intent's `sendAsset`. */
export type SendAsset = "XLM" | { code: string; issuer: string };

export type AssetChoice = Options & { selected: number };

const same = (a: WireAsset, b: WireAsset) =>
  a.issuer === b.issuer && (a.issuer === null || a.code === b.code);

const toSendAsset = (a: WireAsset): SendAsset =>
  a.issuer === null ? "XLM" : { code: a.code, issuer: a.issuer };

/** "252.5000000" -> "252.5" (display only; amounts stay strings). */
const trim = (amount: string) => (amount.includes(".") ? amount.replace(/\.?0+$/, "") : amount);

/** The payer closed the choice: nothing was prepared nor sent. */
class ChoiceCancelled extends Error {
  readonly kind = "cancelled";
  constructor() {
    super("Payment cancelled. Nothing was sent.");
  }
}

export function useAssetChoice(invoiceId: string) {
  const [choice, setChoice] = useState<AssetChoice | null>(null);
  const pending = useRef<((asset: SendAsset | null) => void) | null>(null);

  /**
   * The asset to pay with: undefined (the invoice's own, as before) when the account holds
   * nothing else that can pay or the options cannot be read; otherwise the payer's pick.
   */
  const choose = useCallback(
    async (account: string): Promise<SendAsset | undefined> => {
      let options: Options;
      try {
        options = await api<Options>(
          `/api/payments/${invoiceId}/pay-options?account=${encodeURIComponent(account)}`,
        );
      } catch {
        return undefined; // pay-intent answers with the reason, as without a choice
      }
      const own = options.options.findIndex((o) => same(o.sendAsset, options.asset));
      if (options.options.length === 0 || (options.options.length === 1 && own === 0)) {
        return undefined;
      }
      const picked = await new Promise<SendAsset | null>((resolve) => {
        pending.current = resolve;
        setChoice({ ...options, selected: Math.max(own, 0) });
      });
      if (picked === null) throw new ChoiceCancelled();
      return picked;
    },
    [invoiceId],
  );

  const settle = useCallback((asset: SendAsset | null) => {
    setChoice(null);
    pending.current?.(asset);
    pending.current = null;
  }, []);

  const select = useCallback(
    (index: number) => setChoice((c) => (c ? { ...c, selected: index } : c)),
    [],
  );
  const confirm = useCallback(() => {
    if (choice) settle(toSendAsset(choice.options[choice.selected].sendAsset));
  }, [choice, settle]);
  const cancel = useCallback(() => settle(null), [settle]);

  return { choice, choose, select, confirm, cancel };
}

export type AssetChoiceControls = ReturnType<typeof useAssetChoice>;

/** The payer's balances that can pay, with the estimated cost of each. */
export function PayWithAsset({ controls }: { controls: AssetChoiceControls }) {
  const { choice, select, confirm, cancel } = controls;
  if (!choice) return null;
  const chosen = choice.options[choice.selected];
  return (
    <fieldset
      data-testid="pay-with-asset"
      className="space-y-3 rounded-md border border-slate-200 p-4 dark:border-slate-700"
    >
      <legend className="px-1 text-sm font-semibold text-slate-900 dark:text-white">
        Pay with
      </legend>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        The recipient receives exactly {trim(choice.amount)} {choice.asset.code}. Another asset is
        converted on the Stellar network at the best price found.
      </p>
      <div className="space-y-2">
        {choice.options.map((o, i) => {
          const own = same(o.sendAsset, choice.asset);
          const id = `pay-with-${i}`;
          return (
            <label
              key={id}
              htmlFor={id}
              className="flex cursor-pointer items-start gap-3 rounded-md border border-slate-200 p-3 text-sm has-[:checked]:border-indigo-600 dark:border-slate-700"
            >
              <input
                id={id}
                type="radio"
                name="pay-with"
                className="mt-1"
                checked={i === choice.selected}
                onChange={() => select(i)}
              />
              <span>
                <span className="font-medium text-slate-900 dark:text-white">
                  {o.sendAsset.code}
                </span>
                <span className="block text-slate-600 dark:text-slate-300">
                  {own
                    ? `${trim(o.sourceAmount)} ${o.sendAsset.code}`
                    : `About ${trim(o.sourceAmount)} ${o.sendAsset.code} (at most ${trim(o.sendMax)})`}
                </span>
              </span>
            </label>
          );
        })}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button onClick={confirm}>Continue with {chosen.sendAsset.code}</Button>
        <Button variant="secondary" onClick={cancel}>
          Cancel
        </Button>
      </div>
    </fieldset>
  );
}
