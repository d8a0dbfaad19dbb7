"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect } from "react";
import { type RegisterOptions, useForm, useWatch } from "react-hook-form";
import { usePreferredNetwork } from "@/components/dashboard/network-preference";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Checkbox, Field, FieldError, Hint, OptionsSelect, TextArea } from "@/components/ui/field";
import { CURRENCY_OPTIONS, NETWORK_OPTIONS, priceOptions } from "@/components/ui/options";
import { fromInput, fromTextBox, labelled, typedNumber } from "@/lib/client/form-schema";
import { useAction } from "@/lib/client/use-action";
import { ValidationError } from "@/lib/domain/errors";
import { parseLinkAmount } from "@/lib/domain/link-payments";
import type { Currency, PriceCurrency } from "@/lib/domain/money";
import type { NetworkName } from "@/lib/format";
import { type CreateLinkInput, createLinkSchema, type PaymentLinkBody } from "@/lib/schemas/links";
import { z } from "@/lib/zod";

type Draft = {
  amount: string;
  asset: Currency;
  /** "" = priced in the asset; USD or EUR = priced in fiat, paid in `asset` at a quote. */
  priceCurrency: PriceCurrency | "";
  quoteTtlMinutes: string;
  network: NetworkName;
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

const shape = createLinkSchema.shape;

/** datetime-local is the viewer's local time; the API wants an instant. */
const instant = (local: string) => {
  if (local.trim() === "") return undefined;
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? local : at.toISOString();
};

/** An amount in the link's unit (lib/domain/link-payments.ts): 2 decimals when priced in fiat. */
function linkAmountRule(value: unknown, price: string | undefined, label: string) {
  if (value === undefined) return null;
  try {
    parseLinkAmount(value, price ?? null, label);
    return null;
  } catch (err) {
    if (err instanceof ValidationError) return err.message;
    throw err;
  }
}

/**
 * The form's rules: POST /api/links's own schema (lib/schemas/links.ts) on the boxes that
 * apply (an open amount has no amount, a single-use link no maximum, a quote lifetime is for
 * a fiat price only, account activation for XLM only), and the link's unit for its amounts.
 * Which combinations the service accepts (an amount or an open amount...) it answers itself.
 */
const linkObject = z
  .object({
    amount: fromTextBox(shape.amount),
    minAmount: fromTextBox(shape.minAmount),
    maxPayments: fromInput(shape.maxPayments, typedNumber),
    asset: shape.asset,
    priceCurrency: fromInput(shape.priceCurrency, (v: string) => v || undefined),
    quoteTtlMinutes: fromInput(shape.quoteTtlMinutes, typedNumber),
    network: shape.network.unwrap(),
    title: fromTextBox(shape.title),
    reference: fromTextBox(shape.reference),
    description: fromTextBox(shape.description),
    expiresAt: fromInput(shape.expiresAt, instant),
    activateNewAccounts: shape.activateNewAccounts.unwrap(),
    openAmount: shape.openAmount.unwrap(),
    reusable: shape.reusable.unwrap(),
  })
  .superRefine((v, ctx) => {
    const amounts = [
      ["amount", "Amount", v.amount],
      ["minAmount", "Minimum amount", v.minAmount],
    ] as const;
    for (const [key, label, value] of amounts) {
      // Without a fiat price the unit is the asset's: the field's own schema has checked it.
      const message = v.priceCurrency && linkAmountRule(value, v.priceCurrency, label);
      if (message) ctx.addIssue({ code: "custom", path: [key], message });
    }
  });

type LinkFormOutput = z.output<typeof linkObject>;

export const linkFormSchema = fromInput(
  linkObject,
  (d: Draft): Draft => ({
    ...d,
    amount: d.openAmount ? "" : d.amount,
    minAmount: d.openAmount ? d.minAmount : "",
    maxPayments: d.reusable ? d.maxPayments : "",
    quoteTtlMinutes: d.priceCurrency ? d.quoteTtlMinutes : "",
    activateNewAccounts: d.asset === "XLM" && d.activateNewAccounts,
  }),
);

/** POST /api/links's body: the flags only when set, as the API documents them. */
const requestOf = (v: LinkFormOutput): CreateLinkInput => ({
  ...v,
  openAmount: v.openAmount || undefined,
  reusable: v.reusable || undefined,
  activateNewAccounts: v.asset === "XLM" ? v.activateNewAccounts : undefined,
});

/**
 * POST /api/links: an amount to collect (or one the payer chooses), once or many times;
 * `onCreated` receives the new link. On react-hook-form with the API's schema: each field's
 * error (the schema's as it is typed, else the server's detail) is shown beside it.
 */
export function NewLinkForm({
  api,
  onCreated,
}: {
  api: <T>(path: string, opts: { method: string; body: unknown }) => Promise<T>;
  onCreated: (link: PaymentLinkBody) => void;
}) {
  const [preferred, , ready] = usePreferredNetwork();
  const form = useForm<Draft, unknown, LinkFormOutput>({
    resolver: zodResolver(linkFormSchema),
    defaultValues: EMPTY,
    mode: "onChange",
  });
  const { register, handleSubmit, setValue, control, reset, getValues } = form;
  const { errors } = form.formState;
  const { busy, notice, details, run } = useAction();
  const [asset, priceCurrency, openAmount, reusable] = useWatch({
    control,
    name: ["asset", "priceCurrency", "openAmount", "reusable"],
  });

  useEffect(() => {
    if (ready) setValue("network", preferred);
  }, [ready, preferred, setValue]);

  const errorOf = (key: keyof Draft, label: string) =>
    details[key] ?? labelled(errors[key]?.message, label);
  const text = (key: TextKey, label = "", options?: RegisterOptions<Draft, TextKey>) => ({
    ...register(key, options),
    error: errorOf(key, label),
  });
  const fiat = priceCurrency !== "";
  const xlm = asset === "XLM";

  const create = (values: LinkFormOutput) =>
    run("create", async () => {
      const link = await api<PaymentLinkBody>("/api/links", {
        method: "POST",
        body: requestOf(values),
      });
      onCreated(link);
      const kept = getValues();
      reset({
        ...EMPTY,
        network: kept.network,
        asset: kept.asset,
        priceCurrency: kept.priceCurrency,
        quoteTtlMinutes: kept.quoteTtlMinutes,
        openAmount: kept.openAmount,
        reusable: kept.reusable,
      });
    });

  return (
    <Card title="New payment link">
      <form
        onSubmit={handleSubmit(create)}
        noValidate
        className="space-y-4"
        aria-label="New payment link"
      >
        {notice && <Alert>{notice.text}</Alert>}
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          {openAmount ? (
            <Field
              label={fiat ? `Minimum amount (${priceCurrency})` : "Minimum amount"}
              inputMode="decimal"
              {...text("minAmount", "Minimum amount")}
              hint={<Hint>Optional.</Hint>}
            />
          ) : (
            <Field
              label={fiat ? `Amount (${priceCurrency})` : "Amount"}
              inputMode="decimal"
              required
              {...text("amount", "Amount")}
            />
          )}
          <OptionsSelect label="Asset" options={CURRENCY_OPTIONS} {...text("asset")} />
          <OptionsSelect
            label="Network"
            options={NETWORK_OPTIONS}
            {...text("network")}
            error={details.network ?? details.networkPassphrase ?? errors.network?.message}
          />
          <OptionsSelect
            label="Price in"
            options={priceOptions(asset)}
            // A fiat price changes the amounts' unit (2 decimals): they are checked again.
            {...text("priceCurrency", "", { deps: ["amount", "minAmount"] })}
            hint={
              <Hint>
                {fiat
                  ? `The payer sends ${asset} at a rate locked when they pay.`
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
          {...register("openAmount")}
          hint="Tips, donations, top-ups: the payer types the amount, at least your minimum."
        />
        <Checkbox
          label="Reusable"
          {...register("reusable")}
          hint="Accept many payments through the same link, each listed as its own payment."
        />
        {reusable && (
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
          hint={
            <Hint>
              Your local time, at most 90 days ahead. Empty: 24 hours from now, or never for a
              reusable link.
            </Hint>
          }
        />
        {xlm && (
          <Checkbox
            label="Activate new accounts"
            {...register("activateNewAccounts")}
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
