"use client";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Checkbox, Field, Hint, OptionsSelect } from "@/components/ui/field";
import { CURRENCY_OPTIONS, type Options } from "@/components/ui/options";

export type RecurringDraft = {
  clientName: string;
  clientEmail: string;
  title: string;
  currency: string;
  description: string;
  quantity: string;
  rate: string;
  interval: string;
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

/** The API body of a draft: a one-line template and its schedule. */
export function bodyOf(d: RecurringDraft) {
  return {
    template: {
      clientName: d.clientName,
      clientEmail: d.clientEmail,
      ...(d.title.trim() ? { title: d.title } : {}),
      currency: d.currency,
      lineItems: [{ description: d.description, quantity: d.quantity, rate: d.rate }],
    },
    interval: d.interval,
    intervalCount: Number(d.intervalCount),
    startDate: d.startDate,
    ...(d.count.trim() ? { count: Number(d.count) } : {}),
    dueInDays: Number(d.dueInDays),
    autoSend: d.autoSend,
  };
}

/** New recurring invoice: who, what, and when (one line item; edit more through the API). */
export function RecurringForm({
  draft,
  onChange,
  onSave,
  details,
  busy,
}: {
  draft: RecurringDraft;
  onChange: (draft: RecurringDraft) => void;
  onSave: () => void;
  details: Record<string, string>;
  busy: boolean;
}) {
  type Key = Exclude<keyof RecurringDraft, "autoSend">;
  const field = (key: Key, errorKey: string = key) => ({
    name: key,
    value: draft[key],
    onChange: (e: { target: { value: string } }) => onChange({ ...draft, [key]: e.target.value }),
    error: details[errorKey],
  });
  return (
    <Card title="New recurring invoice" className="lg:order-2">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSave();
        }}
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
            {...field("quantity", "template.lineItems.0.quantity")}
          />
          <Field
            label="Rate"
            inputMode="decimal"
            required
            {...field("rate", "template.lineItems.0.rate")}
          />
        </div>
        <OptionsSelect label="Currency" options={CURRENCY_OPTIONS} {...field("currency")} />
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
          name="autoSend"
          checked={draft.autoSend}
          onChange={(e) => onChange({ ...draft, autoSend: e.target.checked })}
        />
        <Button type="submit" disabled={busy}>
          Create recurring invoice
        </Button>
      </form>
    </Card>
  );
}
