"use client";

import { useEffect, useState } from "react";
import { usePreferredNetwork } from "@/components/dashboard/network-preference";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Checkbox, Field, FieldError, Hint, OptionsSelect, TextArea } from "@/components/ui/field";
import { CURRENCY_OPTIONS, NETWORK_OPTIONS, priceOptions } from "@/components/ui/options";
import { useAction } from "@/lib/client/use-action";
import { AMOUNT_SPEC, checkDecimal, FIAT_SCALE } from "@/lib/domain/money";
import type { PaymentLinkBody } from "@/lib/schemas/links";

type Draft = {
  amount: string;
  asset: string;
  /** "" = priced in the asset; USD or EUR = priced in fiat, paid in `asset` at a quote. */
  priceCurrency: string;
  quoteTtlMinutes: string;
  network: string;
  title: string;
  reference: string;
  description: string;
  expiresAt: string;
  activateNewAccounts: boolean;
  /** The payer chooses the amount (at least `minAmount` when given). */
  openAmount: boolean;
  minAmount: string;
  /** Many payments: at most `maxPayments`, or unlimited when it is empty. */
  reusable: boolean;
  maxPayments: string;
};
type TextKey = Exclude<keyof Draft, "activateNewAccounts" | "openAmount" | "reusable">;

const EMPTY: Draft = {
  amount: "",
  asset: "XLM",
  priceCurrency: "",
  quoteTtlMinutes: "15",
  network: "testnet",
  title: "",
  reference: "",
  description: "",
  expiresAt: "",
  activateNewAccounts: false,
  openAmount: false,
  minAmount: "",
  reusable: false,
  maxPayments: "",
};

/**
 * POST /api/links: an amount to collect (or one the payer chooses), once or many times;
 * `onCreated` receives the new link.
 */
export function NewLinkForm({
  api,
  onCreated,
}: {
  api: <T>(path: string, opts: { method: string; body: unknown }) => Promise<T>;
  onCreated: (link: PaymentLinkBody) => void;
}) {
  const [preferred, , ready] = usePreferredNetwork();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const { busy, notice, details, run } = useAction();

  useEffect(() => {
    if (ready) setDraft((d) => ({ ...d, network: preferred }));
  }, [ready, preferred]);

  const text = (key: TextKey) => ({
    name: key,
    value: draft[key],
    onChange: (e: { target: { value: string } }) =>
      setDraft((d) => ({ ...d, [key]: e.target.value })),
    error: details[key],
  });
  const amount = draft.amount.trim();
  const fiat = draft.priceCurrency !== "";
  // A fiat amount is whole cents (docs/decisions.md, Fiat pricing).
  const spec = fiat ? { ...AMOUNT_SPEC, scale: FIAT_SCALE } : AMOUNT_SPEC;
  const amountCheck = amount === "" ? null : checkDecimal(amount, spec, "Amount");
  const minAmount = draft.minAmount.trim();
  const minCheck = minAmount === "" ? null : checkDecimal(minAmount, spec, "Minimum amount");
  const maxPayments = draft.maxPayments.trim();
  const xlm = draft.asset === "XLM";
  const ttl = draft.quoteTtlMinutes.trim();

  const create = (e: { preventDefault: () => void }) => {
    e.preventDefault();
    const optional = (s: string) => s.trim() || undefined;
    return run("create", async () => {
      const link = await api<PaymentLinkBody>("/api/links", {
        method: "POST",
        body: {
          amount: draft.openAmount ? undefined : amount,
          openAmount: draft.openAmount || undefined,
          minAmount: draft.openAmount && minAmount ? minAmount : undefined,
          reusable: draft.reusable || undefined,
          // Sent as typed: the API answers a bad value with its own message (1 to 10000).
          maxPayments: draft.reusable && maxPayments ? Number(maxPayments) : undefined,
          asset: draft.asset,
          priceCurrency: fiat ? draft.priceCurrency : undefined,
          // Sent as typed: the API answers a bad value with its own message (1 to 120).
          quoteTtlMinutes: fiat && ttl !== "" ? Number(ttl) : undefined,
          network: draft.network,
          title: optional(draft.title),
          reference: optional(draft.reference),
          description: optional(draft.description),
          // datetime-local is the viewer's local time; the API wants an instant.
          expiresAt: draft.expiresAt ? new Date(draft.expiresAt).toISOString() : undefined,
          activateNewAccounts: xlm ? draft.activateNewAccounts : undefined,
        },
      });
      onCreated(link);
      setDraft({
        ...EMPTY,
        network: draft.network,
        asset: draft.asset,
        priceCurrency: draft.priceCurrency,
        quoteTtlMinutes: draft.quoteTtlMinutes,
        openAmount: draft.openAmount,
        reusable: draft.reusable,
      });
    });
  };

  return (
    <Card title="New payment link">
      <form onSubmit={create} noValidate className="space-y-4" aria-label="New payment link">
        {notice && <Alert>{notice.text}</Alert>}
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          {draft.openAmount ? (
            <Field
              label={fiat ? `Minimum amount (${draft.priceCurrency})` : "Minimum amount"}
              inputMode="decimal"
              {...text("minAmount")}
              error={details.minAmount ?? (minCheck?.ok === false ? minCheck.message : undefined)}
              hint={<Hint>Optional.</Hint>}
            />
          ) : (
            <Field
              label={fiat ? `Amount (${draft.priceCurrency})` : "Amount"}
              inputMode="decimal"
              required
              {...text("amount")}
              error={
                details.amount ?? (amountCheck?.ok === false ? amountCheck.message : undefined)
              }
            />
          )}
          <OptionsSelect label="Asset" options={CURRENCY_OPTIONS} {...text("asset")} />
          <OptionsSelect label="Network" options={NETWORK_OPTIONS} {...text("network")} />
          <OptionsSelect
            label="Price in"
            options={priceOptions(draft.asset)}
            {...text("priceCurrency")}
            hint={
              <Hint>
                {fiat
                  ? `The payer sends ${draft.asset} at a rate locked when they pay.`
                  : "Or USD / EUR, paid in the asset."}
              </Hint>
            }
          />
          {fiat && (
            <Field
              label="Quote lifetime (minutes)"
              inputMode="numeric"
              {...text("quoteTtlMinutes")}
              hint={<Hint>1 to 120.</Hint>}
            />
          )}
        </div>
        <Checkbox
          label="Let the payer choose the amount"
          name="openAmount"
          checked={draft.openAmount}
          onChange={(e) => setDraft((d) => ({ ...d, openAmount: e.target.checked }))}
          hint="Tips, donations, top-ups: the payer types the amount, at least your minimum."
        />
        <Checkbox
          label="Reusable"
          name="reusable"
          checked={draft.reusable}
          onChange={(e) => setDraft((d) => ({ ...d, reusable: e.target.checked }))}
          hint="Accept many payments through the same link, each listed as its own payment."
        />
        {draft.reusable && (
          <Field
            label="Maximum payments"
            inputMode="numeric"
            {...text("maxPayments")}
            hint={<Hint>Leave empty for unlimited.</Hint>}
          />
        )}
        <Field label="Title" {...text("title")} hint={<Hint>Shown to the payer.</Hint>} />
        <Field
          label="Reference"
          {...text("reference")}
          hint={<Hint>Your own reference, echoed in webhook events.</Hint>}
        />
        <TextArea label="Description" rows={2} {...text("description")} />
        <Field
          label="Expires at"
          type="datetime-local"
          {...text("expiresAt")}
          hint={<Hint>Your local time. Default: 24 hours from now; at most 90 days ahead.</Hint>}
        />
        {xlm && (
          <Checkbox
            label="Activate new accounts"
            name="activateNewAccounts"
            checked={draft.activateNewAccounts}
            onChange={(e) => setDraft((d) => ({ ...d, activateNewAccounts: e.target.checked }))}
            hint={
              details.activateNewAccounts ? (
                <FieldError>{details.activateNewAccounts}</FieldError>
              ) : (
                "If your wallet is not on the ledger yet, the payment creates it (at least 1 XLM)."
              )
            }
          />
        )}
        <Button type="submit" disabled={busy !== null}>
          Create payment link
        </Button>
      </form>
    </Card>
  );
}
