"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Checkbox, Field, Hint, OptionsSelect } from "@/components/ui/field";
import { CURRENCY_OPTIONS, type Options } from "@/components/ui/options";
import { fromInput, fromTextBox, labelled, typedNumber } from "@/lib/client/form-schema";
import type { Currency } from "@/lib/domain/money";
import type { ScheduleInterval } from "@/lib/domain/schedule";
import { lineItemInputSchema } from "@/lib/schemas/invoices";
import { createRecurringSchema, recurringTemplateSchema } from "@/lib/schemas/recurring";

export type RecurringDraft = {
  clientName: string;
  clientEmail: string;
  title: string;
  currency: Currency;
  description: string;
  quantity: string;
  rate: string;
  interval: ScheduleInterval;
  intervalCount: string;
  startDate: string;
  count: string;
  dueInDays: string;
  autoSend: boolean;
};

export const emptyDraft = (today: string): RecurringDraft => ({
  clientName: "",
  clientEmail: "",
  title: "",
  currency: "USDC",
  description: "",
  quantity: "1",
  rate: "",
  interval: "month",
  intervalCount: "1",
  startDate: today,
  count: "",
  dueInDays: "14",
  autoSend: true,
});

const INTERVALS: Options = [
  ["week", "Weekly"],
  ["month", "Monthly"],
  ["quarter", "Quarterly"],
  ["year", "Yearly"],
];

const template = recurringTemplateSchema.shape;
const line = lineItemInputSchema.shape;
const schedule = createRecurringSchema.shape;

/**
 * The form's rules: POST /api/recurring's own schemas (lib/schemas/recurring.ts, the template's
 * from lib/schemas/invoices.ts) on the boxes. "Every" and "Due after" are sent as typed (blank
 * is 0), "Number of invoices" only when given.
 */
export const recurringFormSchema = z.object({
  clientName: fromTextBox(template.clientName),
  clientEmail: fromTextBox(template.clientEmail),
  title: fromTextBox(template.title),
  currency: template.currency.unwrap(),
  description: fromTextBox(line.description),
  quantity: fromTextBox(line.quantity),
  rate: fromTextBox(line.rate),
  interval: schedule.interval,
  intervalCount: fromInput(schedule.intervalCount, (v: string) => Number(v.trim())),
  startDate: fromTextBox(schedule.startDate),
  count: fromInput(schedule.count, typedNumber),
  dueInDays: fromInput(schedule.dueInDays, (v: string) => Number(v.trim())),
  autoSend: schedule.autoSend.unwrap(),
});

export type RecurringFormOutput = z.output<typeof recurringFormSchema>;

/** The API body: a one-line template and its schedule. */
export function bodyOf(v: RecurringFormOutput) {
  return {
    template: {
      clientName: v.clientName,
      clientEmail: v.clientEmail,
      ...(v.title ? { title: v.title } : {}),
      currency: v.currency,
      lineItems: [{ description: v.description, quantity: v.quantity, rate: v.rate }],
    },
    interval: v.interval,
    intervalCount: v.intervalCount,
    // The schema reads the date as 00:00 UTC of that day: the same day back.
    startDate: v.startDate.toISOString().slice(0, 10),
    ...(v.count != null ? { count: v.count } : {}),
    dueInDays: v.dueInDays,
    autoSend: v.autoSend,
  };
}

export type RecurringBody = ReturnType<typeof bodyOf>;

/**
 * New recurring invoice: who, what, and when (one line item; edit more through the API). On
 * react-hook-form with the API's schemas: each field's error (the schema's, else the server's
 * detail for it) is shown beside it. `onSave` answers whether the schedule was created.
 */
export function RecurringForm({
  today,
  onSave,
  details,
  busy,
}: {
  today: string;
  onSave: (body: RecurringBody) => Promise<boolean>;
  details: Record<string, string>;
  busy: boolean;
}) {
  const form = useForm<RecurringDraft, unknown, RecurringFormOutput>({
    resolver: zodResolver(recurringFormSchema),
    defaultValues: emptyDraft(today),
  });
  const { register, handleSubmit, reset, getValues } = form;
  const { errors, isSubmitting } = form.formState;
  type Key = Exclude<keyof RecurringDraft, "autoSend">;
  /** The box's props; its error is the server's detail at `errorKey`, else the schema's. */
  const field = (key: Key, errorKey: string = key, label = "") => ({
    ...register(key),
    error: details[errorKey] ?? labelled(errors[key]?.message, label),
  });

  async function save(values: RecurringFormOutput) {
    if (await onSave(bodyOf(values))) reset(emptyDraft(getValues("startDate")));
  }

  return (
    <Card title="New recurring invoice" className="lg:order-2">
      <form
        onSubmit={handleSubmit(save)}
        noValidate
        className="space-y-4"
        aria-label="Recurring invoice"
      >
        <Field label="Client name" required {...field("clientName", "template.clientName")} />
        <Field
          label="Client email"
          type="email"
          required
          {...field("clientEmail", "template.clientEmail")}
        />
        <Field label="Title" {...field("title", "template.title")} />
        <Field
          label="Line item"
          required
          {...field("description", "template.lineItems.0.description")}
        />
        <div className="grid grid-cols-2 gap-3">
          <Field
            label="Quantity"
            inputMode="decimal"
            {...field("quantity", "template.lineItems.0.quantity", "Quantity")}
          />
          <Field
            label="Rate"
            inputMode="decimal"
            required
            {...field("rate", "template.lineItems.0.rate", "Rate")}
          />
        </div>
        <OptionsSelect
          label="Currency"
          options={CURRENCY_OPTIONS}
          {...field("currency", "template.currency")}
        />
        <div className="grid grid-cols-2 gap-3">
          <OptionsSelect label="Repeats" options={INTERVALS} {...field("interval")} />
          <Field
            label="Every"
            type="number"
            min={1}
            max={12}
            {...field("intervalCount")}
            hint={<Hint>1 to 12 intervals</Hint>}
          />
        </div>
        <Field
          label="First invoice on"
          type="date"
          required
          {...field("startDate")}
          hint={<Hint>Month ends follow the calendar: Jan 31, Feb 28, Mar 31…</Hint>}
        />
        <div className="grid grid-cols-2 gap-3">
          <Field
            label="Number of invoices"
            type="number"
            min={1}
            {...field("count")}
            hint={<Hint>Empty: until you stop it</Hint>}
          />
          <Field label="Due after (days)" type="number" min={0} {...field("dueInDays")} />
        </div>
        <Checkbox
          label="Send each invoice and email the client when it is created"
          {...register("autoSend")}
        />
        <Button type="submit" disabled={busy || isSubmitting}>
          Create recurring invoice
        </Button>
      </form>
    </Card>
  );
}
