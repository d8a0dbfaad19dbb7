// The recurring schedule rule, in one place (docs/decisions.md, Recurring invoices): period n's
// date is computed from the ANCHOR (the start date) each time, never from period n - 1, so
// month ends follow the calendar without drift: Jan 31 -> Feb 28 (29) -> Mar 31 -> Apr 30.
// Dates are UTC calendar dates (00:00 UTC, as due dates in lib/domain/due-date.ts).

export const SCHEDULE_INTERVALS = ["week", "month", "quarter", "year"] as const;
export type ScheduleInterval = (typeof SCHEDULE_INTERVALS)[number];

/** Bounds of the schedule fields (the request schema reads them). */
export const MAX_INTERVAL_COUNT = 12;
export const MAX_DUE_IN_DAYS = 365;
export const MAX_COUNT = 1000;

export type Schedule = {
  interval: ScheduleInterval;
  intervalCount: number;
  /** Period 0's date (00:00 UTC). */
  startDate: Date;
  /** The last date a period may fall on (inclusive); null: no end date. */
  endDate?: Date | null;
  /** How many periods in all; null: no count. */
  count?: number | null;
};

const DAY_MS = 24 * 60 * 60 * 1000;
const MONTHS: Record<Exclude<ScheduleInterval, "week">, number> = {
  month: 1,
  quarter: 3,
  year: 12,
};

const daysInMonth = (year: number, month: number) =>
  new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/**
 * Period n's date: startDate plus n x intervalCount intervals. Months (quarter = 3, year =
 * 12) keep the anchor's day, clamped to the target month's last day.
 */
export function periodDate(schedule: Schedule, n: number): Date {
  if (!Number.isInteger(n) || n < 0) throw new RangeError("period must be a whole number >= 0");
  const start = schedule.startDate;
  const y = start.getUTCFullYear();
  const m = start.getUTCMonth();
  const d = start.getUTCDate();
  if (schedule.interval === "week") {
    return new Date(Date.UTC(y, m, d) + n * schedule.intervalCount * 7 * DAY_MS);
  }
  const months = m + n * schedule.intervalCount * MONTHS[schedule.interval];
  const year = y + Math.floor(months / 12);
  const month = ((months % 12) + 12) % 12;
  return new Date(Date.UTC(year, month, Math.min(d, daysInMonth(year, month))));
}

/** True when period n is within the schedule's count and end date. */
export function periodExists(schedule: Schedule, n: number): boolean {
  if (schedule.count != null && n >= schedule.count) return false;
  if (schedule.endDate && periodDate(schedule, n).getTime() > schedule.endDate.getTime()) {
    return false;
  }
  return true;
}

/** When period n is due for creation: its date, or null when the schedule has ended. */
export function nextRunAt(schedule: Schedule, n: number): Date | null {
  return periodExists(schedule, n) ? periodDate(schedule, n) : null;
}

/**
 * The first period whose date is at or after `at` (resume and PATCH start from there): periods
 * before it are in the past.
 */
export function firstPeriodFrom(schedule: Schedule, at: Date, from = 0): number {
  let n = from;
  while (periodDate(schedule, n).getTime() < at.getTime()) n++;
  return n;
}

/**
 * The due date of a period's invoice: dueInDays after the period's date, or after the day it
 * is actually created when that is later (a period caught up after downtime still gets its
 * full payment term, and a due date is never in the past: lib/domain/due-date.ts).
 */
export function periodDueDate(period: Date, dueInDays: number, createdAt: Date): Date {
  const today = Date.UTC(
    createdAt.getUTCFullYear(),
    createdAt.getUTCMonth(),
    createdAt.getUTCDate(),
  );
  return new Date(Math.max(period.getTime(), today) + dueInDays * DAY_MS);
}

/** `YYYY-MM-DD` of a period date. */
export const isoDay = (d: Date): string => d.toISOString().slice(0, 10);
