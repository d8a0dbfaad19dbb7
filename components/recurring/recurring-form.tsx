"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import {
  ClientFields,
  FromYouFields,
  InvoiceFields,
  TaxAndTotals,
} from "@/components/invoices/invoice-form-fields";
import { LineItemsEditor } from "@/components/invoices/line-items-editor";
import { FormRecipientReadiness } from "@/components/invoices/recipient-readiness";
import { ServerErrorBox, useInvoiceFields } from "@/components/invoices/use-invoice-fields";
import { Button, buttonClass } from "@/components/ui/button";
import { errorDetails } from "@/lib/client/api";
import {
  createFormSchema,
  type InvoiceFormOutput,
  type InvoiceFormValues,
  initialValues,
  type TextKey,
} from "@/lib/client/invoice-form";
import {
  formDetails,
  newSchedule,
  type ScheduleOutput,
  type ScheduleValues,
  scheduleBody,
  scheduleFormSchema,
  scheduleValues,
  templateBody,
  templateValues,
} from "@/lib/client/recurring-form";
import { errorMessage, useApi } from "@/lib/client/session";
import { ScheduleFields } from "./schedule-fields";
import type { Recurring } from "./types";

const CLIENT_KEYS: readonly string[] = [
  "clientName",
  "clientEmail",
  "clientCompany",
  "clientAddress",
];
const SCHEDULE_KEYS = new Set(Object.keys(scheduleFormSchema.shape));
const TEMPLATE_KEYS = new Set([
  ...Object.keys(initialValues(undefined, "testnet")),
  "networkPassphrase",
  "clientId",
]);
const isShownInline = (key: string) =>
  SCHEDULE_KEYS.has(key) || TEMPLATE_KEYS.has(key) || /^lineItems\.\d+\.\w+$/.test(key);

/**
 * A recurring invoice, new or edited: the invoice form's own sections for the template
 * (several lines, tax, price currency, the saved client, which stays linked: each invoice
 * takes its details when it is made) and the schedule. Two react-hook-form forms in one
 * `<form>`: the template on the invoice form's values and rules (components/invoices/
 * use-invoice-fields.tsx), the schedule on POST /api/recurring's. An edit applies to the
 * invoices still to come.
 */
export function RecurringForm({ today, schedule }: { today: string; schedule?: Recurring }) {
  const api = useApi();
  const router = useRouter();
  const editing = schedule !== undefined;
  const [start] = useState(() => (schedule ? templateValues(schedule) : null));
  const form = useForm<InvoiceFormValues, unknown, InvoiceFormOutput>({
    resolver: zodResolver(createFormSchema),
    defaultValues: start?.values ?? { ...initialValues(undefined, "testnet"), currency: "USDC" },
  });
  const when = useForm<ScheduleValues, unknown, ScheduleOutput>({
    resolver: zodResolver(scheduleFormSchema),
    defaultValues: schedule ? scheduleValues(schedule) : newSchedule(today),
  });
  const fields = useInvoiceFields(form);
  const { server, setServer, live, errorFor, amountsProblem } = fields;
  const [clientId, setClientId] = useState<string | null>(start?.clientId ?? null);
  const [saved, setSaved] = useState(false);
  const { register, control } = form;

  /** A client field is the saved client's while it is linked: shown, not typed. */
  const text = (key: TextKey) => ({
    ...fields.text(key),
    ...(clientId && CLIENT_KEYS.includes(key) ? { readOnly: true } : {}),
  });

  async function save(values: InvoiceFormOutput, times: ScheduleOutput) {
    const problem = amountsProblem();
    setServer(problem);
    if (problem) return;
    const body = { template: templateBody(values, clientId), ...scheduleBody(times, schedule) };
    try {
      const done = await api<Recurring>(
        editing ? `/api/recurring/${schedule.id}` : "/api/recurring",
        { method: editing ? "PATCH" : "POST", body },
      );
      setSaved(true);
      router.push(`/recurring?${editing ? "saved" : "created"}=${done.id}`);
    } catch (err) {
      setServer({ message: errorMessage(err), details: formDetails(errorDetails(err)) });
    }
  }

  /** Both parts checked at once, so every field's message shows; sent when both pass. */
  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const timesOk = await when.trigger();
    await form.handleSubmit(
      async (values) => {
        if (timesOk) await save(values, scheduleFormSchema.parse(when.getValues()));
      },
      () => setServer(amountsProblem()),
    )();
  }

  const busy = form.formState.isSubmitting || saved;

  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-6"
      aria-label={editing ? "Edit recurring invoice" : "Recurring invoice"}
    >
      <ServerErrorBox server={server} isShownInline={isShownInline} />
      <ClientFields
        text={text}
        emailBox={register("emailClient")}
        onPick={(c) => {
          fields.pickClient(c);
          setClientId(c.id);
        }}
        link={{
          clientId,
          onUnlink: () => setClientId(null),
          error: errorFor("clientId"),
          hint: "Each invoice takes this saved client's details as they are when it is made. Choose none to type them instead.",
        }}
      />
      <InvoiceFields
        text={text}
        editing={false}
        template
        currency={register("currency")}
        pricing={{
          asset: fields.currency,
          value: fields.priceCurrency,
          priceCurrency: register("priceCurrency"),
          quoteTtlMinutes: register("quoteTtlMinutes"),
          priceError: errorFor("priceCurrency"),
          ttlError: errorFor("quoteTtlMinutes"),
        }}
        network={register("network")}
        networkError={errorFor("networkPassphrase") ?? errorFor("network")}
      />
      <LineItemsEditor
        form={form}
        live={live}
        errorFor={errorFor}
        onRemoved={() => setServer((s) => s && { ...s, details: {} })}
      />
      <TaxAndTotals
        text={text}
        live={live}
        currency={fields.priceCurrency || fields.currency}
        fiat={fields.priceCurrency !== ""}
        explain={fields.totalsExplain}
      />
      <ScheduleFields form={when} schedule={schedule} serverError={(key) => server?.details[key]} />
      <FromYouFields text={text} />
      <FormRecipientReadiness control={control} live={live} />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={busy} aria-busy={busy}>
          {editing ? "Save changes" : "Create recurring invoice"}
        </Button>
        <Link href="/recurring" className={buttonClass("secondary")}>
          Back without saving
        </Link>
      </div>
    </form>
  );
}
