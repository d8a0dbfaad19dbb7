"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { Field, Hint, OptionsSelect } from "@/components/ui/field";
import { errorDetails } from "@/lib/client/api";
import { fromTextBox, labelled } from "@/lib/client/form-schema";
import { errorMessage, useApi } from "@/lib/client/session";
import { amountUnit } from "@/lib/domain/fiat";
import { isPayable } from "@/lib/domain/invoice-state";
import {
  MANUAL_PAYMENT_METHODS,
  type ManualPaymentMethod,
  REFERENCE_MAX,
} from "@/lib/domain/manual-payment";
import { formatMoney, PAYMENT_METHOD_LABELS } from "@/lib/format";
import { recordManualPaymentSchema } from "@/lib/schemas/payments";
import { z } from "@/lib/zod";
import type { OwnerInvoice } from "./types";

type Draft = {
  amount: string;
  receivedOn: string;
  method: ManualPaymentMethod;
  reference: string;
};

const shape = recordManualPaymentSchema.shape;

/** The form's rules: POST /api/invoices/:id/payments's own schema on the boxes. */
const formSchema = z.object({
  amount: fromTextBox(shape.amount),
  receivedOn: shape.receivedOn,
  method: shape.method,
  reference: fromTextBox(shape.reference),
});
type Values = z.output<typeof formSchema>;

const METHOD_OPTIONS = MANUAL_PAYMENT_METHODS.map((m) => [m, PAYMENT_METHOD_LABELS[m]] as const);

/** Today in the browser's time zone, as the date box writes it. */
function today(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * "Record payment": a bank transfer, cash or other payment received outside Stellar, on a
 * payable invoice (docs/decisions.md, Payments received outside Stellar). It counts like any
 * applied payment; `onRecorded` gets the invoice as it is after it.
 */
export function RecordPayment({
  invoice,
  onRecorded,
}: {
  invoice: OwnerInvoice;
  onRecorded: (invoice: OwnerInvoice) => void;
}) {
  const api = useApi();
  const [open, setOpen] = useState(false);
  const [details, setDetails] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const form = useForm<Draft, unknown, Values>({
    resolver: zodResolver(formSchema),
    defaultValues: { amount: "", receivedOn: today(), method: "bank_transfer", reference: "" },
  });
  const { register, handleSubmit, reset, formState } = form;
  // Payment links are paid on Stellar only (the service refuses them too).
  if (!isPayable(invoice.status)) return null;

  const unit = amountUnit(invoice);
  const due = invoice.amountDue;
  const error = (key: keyof Draft, label: string) =>
    details[key] ?? labelled(formState.errors[key]?.message, label);

  async function save(values: Values, draft: Draft) {
    setDetails({});
    setFailure(null);
    try {
      const updated = await api<OwnerInvoice>(`/api/invoices/${invoice.id}/payments`, {
        method: "POST",
        body: {
          amount: values.amount,
          // The date as typed: the schema checked it is a calendar date.
          receivedOn: draft.receivedOn,
          method: values.method,
          ...(values.reference ? { reference: values.reference } : {}),
        },
      });
      setDone(`Payment of ${formatMoney(String(values.amount), unit)} recorded.`);
      reset({ amount: "", receivedOn: today(), method: "bank_transfer", reference: "" });
      setOpen(false);
      onRecorded(updated);
    } catch (err) {
      setDetails(errorDetails(err));
      setFailure(errorMessage(err));
    }
  }

  if (!open) {
    return (
      <div className="mt-4 space-y-2">
        {done && <Alert kind="success">{done}</Alert>}
        <Button
          variant="secondary"
          onClick={() => {
            setDone(null);
            setOpen(true);
          }}
        >
          Record payment
        </Button>
      </div>
    );
  }
  return (
    <form
      onSubmit={handleSubmit((values) => save(values, form.getValues()))}
      noValidate
      aria-label="Record payment"
      className="mt-4 space-y-4 rounded-md border border-slate-200 p-4 dark:border-slate-700"
    >
      <p className="text-sm font-medium">Record a payment received outside Stellar</p>
      {failure && <Alert>{failure}</Alert>}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label={`Amount (${unit})`}
          inputMode="decimal"
          autoComplete="off"
          {...register("amount")}
          error={error("amount", "Amount")}
          hint={<Hint>At most the amount due, {formatMoney(due, unit)}.</Hint>}
        />
        <Field
          label="Date received"
          type="date"
          max={today()}
          {...register("receivedOn")}
          error={error("receivedOn", "Date received")}
        />
        <OptionsSelect
          label="Method"
          options={METHOD_OPTIONS}
          {...register("method")}
          error={error("method", "Method")}
        />
        <Field
          label="Reference (optional)"
          maxLength={REFERENCE_MAX}
          {...register("reference")}
          error={error("reference", "Reference")}
        />
      </div>
      <p className="text-xs text-slate-600 dark:text-slate-300">
        It counts towards the amount paid like a payment on Stellar, and cannot be refunded through
        Stellar.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={formState.isSubmitting}>
          Save payment
        </Button>
        <Button variant="ghost" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
