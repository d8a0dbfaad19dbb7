"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { Field, Hint } from "@/components/ui/field";
import { ApiError, api, errorDetails } from "@/lib/client/api";
import { AMOUNT_SPEC, checkDecimal, FIAT_SCALE } from "@/lib/domain/money";
import { formatMoney, formatPriced } from "@/lib/format";
import type { PaymentLinkBody } from "@/lib/schemas/links";

export type LinkAmountProps = {
  linkId: string;
  /** null: the payer chooses (open amount). */
  amount: string | null;
  minAmount: string | null;
  currency: string;
  priceCurrency: string | null;
  /** PAID once the link has received every payment it accepts. */
  status: string;
  paymentsCount: number;
  maxPayments: number | null;
  networkLabel: string;
};

/**
 * The first step of a reusable or open-amount link (docs/decisions.md, Payment links): the
 * payer picks the amount when it is theirs to choose, then POST /api/links/{id}/checkout
 * makes their own checkout, which this page continues to (/pay/<checkout id>).
 */
export function LinkAmount(props: LinkAmountProps) {
  const router = useRouter();
  const [value, setValue] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const pricing = { currency: props.currency, priceCurrency: props.priceCurrency };
  const unit = props.priceCurrency ?? props.currency;
  const open = props.amount === null;
  // A fiat amount is whole cents; an asset amount has at most 7 decimals.
  const spec = props.priceCurrency ? { ...AMOUNT_SPEC, scale: FIAT_SCALE } : AMOUNT_SPEC;

  if (props.status === "PAID") {
    return (
      <Card title="Payment">
        <Alert kind="info">This link has received all the payments it accepts.</Alert>
      </Card>
    );
  }

  async function start(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setFieldError(undefined);
    const amount = value.trim();
    if (open) {
      const check = checkDecimal(amount, spec, "Amount");
      if (amount === "" || !check.ok) {
        setFieldError(
          amount === ""
            ? "Enter the amount you want to pay"
            : (check as { message: string }).message,
        );
        return;
      }
    }
    setBusy(true);
    try {
      const child = await api<PaymentLinkBody>(`/api/links/${props.linkId}/checkout`, {
        method: "POST",
        body: open ? { amount } : {},
      });
      router.push(`/pay/${child.id}`);
    } catch (err) {
      const details = errorDetails(err);
      if (details.amount) setFieldError(`Amount ${details.amount}`);
      else setError(err instanceof ApiError ? err.message : String(err));
      setBusy(false);
    }
  }

  return (
    <Card title="Payment">
      <form onSubmit={start} noValidate className="space-y-4" aria-label="Choose the amount">
        {error && <Alert>{error}</Alert>}
        {open ? (
          <Field
            label={`Amount (${unit})`}
            name="amount"
            inputMode="decimal"
            required
            value={value}
            onChange={(e) => setValue(e.target.value)}
            error={fieldError}
            hint={
              <Hint>
                {props.minAmount
                  ? `At least ${formatPriced(props.minAmount, pricing, formatMoney)}.`
                  : "Any amount."}
                {props.priceCurrency ? ` Paid in ${props.currency} at a locked rate.` : ""}
              </Hint>
            }
          />
        ) : (
          <p className="text-2xl font-semibold tabular-nums">
            {formatPriced(props.amount, pricing, formatMoney)}
          </p>
        )}
        {props.maxPayments !== null && props.maxPayments > 1 && (
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {props.maxPayments - props.paymentsCount} of {props.maxPayments} payments left.
          </p>
        )}
        <Button type="submit" disabled={busy}>
          {busy ? "Preparing…" : "Continue to payment"}
        </Button>
        <p className="text-xs text-slate-600 dark:text-slate-300">
          Settles on the {props.networkLabel}. You pay from your own wallet on the next step.
        </p>
      </form>
    </Card>
  );
}
