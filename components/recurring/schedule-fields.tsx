"use client";

import type { UseFormReturn } from "react-hook-form";
import { Card } from "@/components/ui/card";
import { Checkbox, Field, Hint, OptionsSelect } from "@/components/ui/field";
import type { Options } from "@/components/ui/options";
import { labelled } from "@/lib/client/form-schema";
import type { ScheduleOutput, ScheduleValues } from "@/lib/client/recurring-form";
import { formatDate } from "@/lib/format";
import type { Recurring } from "./types";

export const INTERVALS: Options = [
  ["week", "Weekly"],
  ["month", "Monthly"],
  ["quarter", "Quarterly"],
  ["year", "Yearly"],
];

const EVERY: Record<string, string> = {
  week: "week",
  month: "month",
  quarter: "quarter",
  year: "year",
};

/** "Every month from 2027-01-31, 12 in all". */
export const scheduleText = (r: Recurring) =>
  `Every ${r.intervalCount > 1 ? `${r.intervalCount} ${EVERY[r.interval]}s` : EVERY[r.interval]} from ${formatDate(r.startDate)}${r.count ? `, ${r.count} in all` : r.endDate ? ` until ${formatDate(r.endDate)}` : ""}`;

/**
 * When invoices are made: the rhythm and first date (fixed once an invoice has been made:
 * period numbers are the key of "one invoice per period"), how many, the payment term, and
 * whether each is sent.
 */
export function ScheduleFields({
  form: { register, formState },
  schedule,
  serverError,
}: {
  form: UseFormReturn<ScheduleValues, unknown, ScheduleOutput>;
  schedule?: Recurring;
  serverError: (key: string) => string | undefined;
}) {
  const field = (key: Exclude<keyof ScheduleValues, "autoSend">, label = "") => ({
    ...register(key),
    error: serverError(key) ?? labelled(formState.errors[key]?.message, label),
  });
  const anchorFixed = schedule !== undefined && schedule.nextPeriod > 0;
  return (
    <Card title="Schedule">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        {anchorFixed ? (
          <p className="text-sm text-slate-700 sm:col-span-2 dark:text-slate-200">
            {scheduleText(schedule)}.{" "}
            <Hint>Fixed once an invoice has been made: create a new one for another rhythm.</Hint>
          </p>
        ) : (
          <>
            <OptionsSelect label="Repeats" options={INTERVALS} {...field("interval")} />
            <Field
              label="Every"
              type="number"
              min={1}
              max={12}
              {...field("intervalCount")}
              hint={<Hint>1 to 12 intervals</Hint>}
            />
            <Field
              label="First invoice on"
              type="date"
              required
              {...field("startDate")}
              hint={<Hint>Month ends follow the calendar: Jan 31, Feb 28, Mar 31…</Hint>}
            />
          </>
        )}
        <Field
          label="Number of invoices"
          type="number"
          min={1}
          {...field("count")}
          hint={
            <Hint>
              {schedule?.endDate
                ? `Empty: until ${schedule.endDate}; a number replaces that end date`
                : "Empty: until you stop it"}
            </Hint>
          }
        />
        <Field label="Due after (days)" type="number" min={0} {...field("dueInDays")} />
        <div className="sm:col-span-2">
          <Checkbox
            label="Send each invoice and email the client when it is created"
            {...register("autoSend")}
          />
        </div>
      </div>
    </Card>
  );
}
