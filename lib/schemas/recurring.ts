import {
  MAX_COUNT,
  MAX_DUE_IN_DAYS,
  MAX_INTERVAL_COUNT,
  SCHEDULE_INTERVALS,
} from "@/lib/domain/schedule";
import { z } from "@/lib/zod";
import { dueDateSchema } from "./common";
import { createBodyRule, invoiceTemplateObject } from "./invoices";
import {
  currency,
  decimal,
  deletedShape,
  type FormB,
  id,
  int,
  invoiceStatus,
  networkPassphrase,
  timestamp,
  wire,
} from "./wire";

/**
 * A recurring invoice's template: the create-invoice body without its dates and number (each
 * period's invoice gets the wallet's next number and a due date from the schedule), and
 * without the client-saving flags (docs/decisions.md, Recurring invoices).
 */
export const recurringTemplateSchema = invoiceTemplateObject.superRefine(createBodyRule);

export type RecurringTemplate = z.infer<typeof recurringTemplateSchema>;

export const NOT_BOTH_LIMITS = "Send either endDate or count, not both";

const whole = (name: string, min: number, max: number) =>
  z
    .number({ error: `${name} must be a whole number from ${min} to ${max}` })
    .int(`${name} must be a whole number from ${min} to ${max}`)
    .min(min, `${name} must be a whole number from ${min} to ${max}`)
    .max(max, `${name} must be a whole number from ${min} to ${max}`);

/** The schedule's fields; create requires interval and startDate, update takes any. */
const scheduleFields = {
  interval: z.enum(SCHEDULE_INTERVALS, { error: "interval must be week, month, quarter or year" }),
  intervalCount: whole("intervalCount", 1, MAX_INTERVAL_COUNT).describe(
    "Intervals between two invoices (default 1): `month` with 3 is every quarter",
  ),
  startDate: dueDateSchema.describe(
    "The first invoice's date (a UTC date, today or later); period n is n x intervalCount intervals later, month ends following the calendar (Jan 31, Feb 28/29, Mar 31)",
  ),
  endDate: dueDateSchema
    .nullish()
    .describe("The last date an invoice may fall on (inclusive); not with `count`"),
  count: whole("count", 1, MAX_COUNT)
    .nullish()
    .describe("How many invoices in all; not with `endDate`. Neither: until stopped"),
  dueInDays: whole("dueInDays", 0, MAX_DUE_IN_DAYS).describe(
    "Each invoice is due this many days after its date (default 14)",
  ),
  autoSend: z
    .boolean()
    .describe(
      "Send each invoice (and email the client) when it is created (default true); false: it stays a draft",
    ),
};

const notBothLimits = (v: { endDate?: unknown; count?: unknown }, ctx: z.RefinementCtx) => {
  if (v.endDate != null && v.count != null) {
    ctx.addIssue({ code: "custom", path: ["count"], message: NOT_BOTH_LIMITS });
  }
};

export const createRecurringSchema = z
  .object({
    template: recurringTemplateSchema,
    ...scheduleFields,
    intervalCount: scheduleFields.intervalCount.optional(),
    dueInDays: scheduleFields.dueInDays.optional(),
    autoSend: scheduleFields.autoSend.optional(),
  })
  .strict()
  .superRefine(notBothLimits);

export type CreateRecurringInput = z.infer<typeof createRecurringSchema>;

export const updateRecurringSchema = z
  .object({
    template: recurringTemplateSchema
      .optional()
      .describe("Replaces the template as a whole, for the invoices still to come"),
    interval: scheduleFields.interval.optional(),
    intervalCount: scheduleFields.intervalCount.optional(),
    startDate: scheduleFields.startDate.optional(),
    endDate: scheduleFields.endDate,
    count: scheduleFields.count,
    dueInDays: scheduleFields.dueInDays.optional(),
    autoSend: scheduleFields.autoSend.optional(),
  })
  .strict()
  .superRefine(notBothLimits);

export type UpdateRecurringInput = z.infer<typeof updateRecurringSchema>;

// ---- responses (lib/serializers/recurring.ts) ----------------------------------------------

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .meta({ description: "A UTC date", example: "2027-01-31" });

const recurring = z.object({
  id,
  template: z.record(z.string(), z.unknown()).meta({
    description: "The create-invoice body without dates, as validated and stored",
    example: {
      clientName: "Ada Client",
      clientEmail: "ada@example.com",
      currency: "USDC",
      lineItems: [{ description: "Retainer", quantity: "1", rate: "1500" }],
    },
  }),
  networkPassphrase,
  interval: z.enum(SCHEDULE_INTERVALS),
  intervalCount: int,
  startDate: day,
  endDate: day.nullable(),
  count: int.nullable(),
  dueInDays: int,
  autoSend: z.boolean(),
  status: z.enum(["active", "paused", "ended"]).meta({
    description:
      "`active`: invoices are created on their dates; `paused`: none until resumed; `ended`: every period is done (count or end date)",
  }),
  nextPeriod: int.meta({ description: "The next period to create (0-based)" }),
  nextDate: day
    .nullable()
    .meta({ description: "The date of the next invoice; null when paused or ended" }),
  invoicesCreated: int,
  lastRefusal: z
    .object({
      reason: z.string().meta({
        description:
          "Why: the invoice was not created (a limit, a template no longer accepted, an internal error: tried again on the next run), or was kept a draft because sending it was refused",
        example:
          "INV-0004 was kept as a draft: Your wallet cannot receive USDC on Testnet yet: the account is not activated on this network",
      }),
      period: int.meta({ description: "The period it concerns (0-based)" }),
      at: timestamp,
    })
    .nullable()
    .meta({
      description:
        "The recurring job's last refusal of this schedule; null once a period is created (and sent, with autoSend)",
    }),
  pausedAt: timestamp.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

const madeInvoice = z.object({
  id,
  invoiceNumber: z.string(),
  status: invoiceStatus,
  period: int.meta({ description: "The period it was created for (0-based)" }),
  periodDate: day,
  total: decimal,
  currency,
  dueDate: timestamp.nullable(),
  createdAt: timestamp,
});

export const recurringResponse = wire("RecurringInvoice", recurring, {
  description: "A recurring invoice: its template and schedule",
});

export const recurringDetail = wire(
  "RecurringInvoiceDetail",
  recurring.extend({
    invoices: z
      .array(madeInvoice)
      .meta({ description: "The invoices it made, newest period first (deleted ones left out)" }),
  }),
);

export const recurringList = wire(
  "RecurringInvoiceList",
  z.array(recurring).meta({ description: "Newest first; deleted ones left out" }),
);

export const recurringDeleted = deletedShape("RecurringInvoiceDeleted");

export type RecurringBody = FormB<typeof recurringResponse>;
export type RecurringDetailBody = FormB<typeof recurringDetail>;

export const cronRecurringResult = wire(
  "CronRecurringResult",
  z.object({
    created: int.meta({ description: "Invoices created (one per due period)" }),
    sent: int.meta({ description: "Of those, sent (autoSend)" }),
    unsent: int.meta({
      description: "autoSend refused (the wallet cannot receive the asset): left as drafts",
    }),
    failed: int.meta({ description: "Schedules whose period failed, left for the next run" }),
    deferred: int.meta({
      description:
        "Schedules whose wallet has used up its invoice-creation limit (the one POST /api/invoices counts): their period is left for a later run",
    }),
    more: z.boolean().meta({ description: "Work was left for another pass" }),
  }),
);
