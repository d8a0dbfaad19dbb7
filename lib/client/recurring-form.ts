import { DEFAULT_QUOTE_TTL_MINUTES } from "@/lib/domain/fiat";
import type { ScheduleInterval } from "@/lib/domain/schedule";
import { networkOf } from "@/lib/format";
import { CLIENT_DETAILS } from "@/lib/schemas/invoices";
import {
  createRecurringSchema,
  type RecurringBody,
  type RecurringTemplate,
  recurringTemplateSchema,
} from "@/lib/schemas/recurring";
import { z } from "@/lib/zod";
import { fromInput, fromTextBox, typedNumber } from "./form-schema";
import {
  type InvoiceFormOutput,
  type InvoiceFormValues,
  initialValues,
  requestBody,
} from "./invoice-form";

/**
 * The recurring invoice form's values and rules. The template is the invoice form's own
 * values and rules (lib/client/invoice-form.ts: the create body's schema, whose `.omit` the
 * template is), its number and due date left blank: each period's invoice gets its own. The
 * schedule's boxes take POST /api/recurring's schedule fields (lib/schemas/recurring.ts).
 */

export type ScheduleValues = {
  interval: ScheduleInterval;
  intervalCount: string;
  startDate: string;
  /** Number of invoices in all, as typed; blank: until stopped (or the end date kept). */
  count: string;
  dueInDays: string;
  autoSend: boolean;
};

const schedule = createRecurringSchema.shape;

/** The schedule's boxes: "Every" and "Due after" as typed, "Number of invoices" when given. */
export const scheduleFormSchema = z.object({
  interval: schedule.interval,
  intervalCount: fromInput(schedule.intervalCount, (v: string) => Number(v.trim())),
  startDate: fromTextBox(schedule.startDate),
  count: fromInput(schedule.count, typedNumber),
  dueInDays: fromInput(schedule.dueInDays, (v: string) => Number(v.trim())),
  autoSend: schedule.autoSend.unwrap(),
});

export type ScheduleOutput = z.output<typeof scheduleFormSchema>;

/** A new schedule: monthly from today, due 14 days after each date, sent. */
export const newSchedule = (today: string): ScheduleValues => ({
  interval: "month",
  intervalCount: "1",
  startDate: today,
  count: "",
  dueInDays: "14",
  autoSend: true,
});

/** An existing schedule's values, for its edit page. */
export const scheduleValues = (r: RecurringBody): ScheduleValues => ({
  interval: r.interval,
  intervalCount: String(r.intervalCount),
  startDate: r.startDate,
  count: r.count === null ? "" : String(r.count),
  dueInDays: String(r.dueInDays),
  autoSend: r.autoSend,
});

const text = (v: unknown) => (v === null || v === undefined ? "" : String(v));

/**
 * A stored template as the invoice form's values (read by the template's own schema), and
 * its saved client. A template without `currency` makes XLM invoices (the create default).
 */
export function templateValues(r: RecurringBody): {
  values: InvoiceFormValues;
  clientId: string | null;
} {
  const parsed = recurringTemplateSchema.safeParse(r.template);
  const t = (parsed.success ? parsed.data : r.template) as RecurringTemplate;
  const lines = t.lineItems ?? t.items ?? [];
  return {
    clientId: t.clientId ?? null,
    values: {
      ...initialValues(undefined, networkOf(r.networkPassphrase)),
      clientName: text(t.clientName),
      clientEmail: text(t.clientEmail),
      clientCompany: text(t.clientCompany),
      clientAddress: text(t.clientAddress),
      title: text(t.title),
      description: text(t.description),
      notes: text(t.notes),
      currency: t.currency ?? "XLM",
      priceCurrency: t.priceCurrency ?? "",
      quoteTtlMinutes: String(t.quoteTtlMinutes ?? DEFAULT_QUOTE_TTL_MINUTES),
      taxRate: text(t.taxRate),
      discount: text(t.discount),
      paymentTolerance: text(t.paymentTolerance),
      freelancerName: text(t.freelancerName),
      freelancerEmail: text(t.freelancerEmail),
      freelancerCompany: text(t.freelancerCompany),
      emailClient: t.emailClient ?? true,
      reminders: Array.isArray(t.reminders) ? t.reminders.join(", ") : "",
      lineItems: lines.length
        ? lines.map((l) => ({
            description: l.description,
            quantity: text(l.quantity),
            rate: text(l.rate),
          }))
        : [{ description: "", quantity: "1", rate: "" }],
    },
  };
}

/**
 * The template from the invoice form's validated values: the create body without number,
 * due date and client-saving flags; with a saved client, its id instead of the client's
 * details (each invoice reads them when it is made).
 */
export function templateBody(
  values: InvoiceFormOutput,
  clientId: string | null,
): Record<string, unknown> {
  const {
    invoiceNumber: _n,
    dueDate: _d,
    saveClient: _s,
    favoriteClient: _f,
    ...body
  } = requestBody({ ...values, invoiceNumber: undefined, dueDate: null });
  if (!clientId) return body;
  // The saved client's details are its own: none of the typed ones go with its id.
  const rest = Object.fromEntries(
    Object.entries(body).filter(([k]) => !(CLIENT_DETAILS as readonly string[]).includes(k)),
  );
  return { ...rest, clientId };
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The schedule's part of the body. A new one sends every field; an edit sends the anchor
 * (interval, every, start) and the count only when they changed: the anchor is fixed once an
 * invoice is made, and a count replaces an end date.
 */
export function scheduleBody(v: ScheduleOutput, existing?: RecurringBody): Record<string, unknown> {
  const startDate = day(v.startDate);
  if (!existing) {
    return {
      interval: v.interval,
      intervalCount: v.intervalCount,
      startDate,
      ...(v.count != null ? { count: v.count } : {}),
      dueInDays: v.dueInDays,
      autoSend: v.autoSend,
    };
  }
  const count = v.count ?? null;
  return {
    ...(v.interval !== existing.interval ? { interval: v.interval } : {}),
    ...(v.intervalCount !== existing.intervalCount ? { intervalCount: v.intervalCount } : {}),
    ...(startDate !== existing.startDate ? { startDate } : {}),
    ...(count !== existing.count ? { count } : {}),
    dueInDays: v.dueInDays,
    autoSend: v.autoSend,
  };
}

/** A 400's details as the form's fields name them: `template.lineItems.0.rate` -> `lineItems.0.rate`. */
export function formDetails(details: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(details).map(([k, v]) => [k.replace(/^template\./, ""), v]),
  );
}
