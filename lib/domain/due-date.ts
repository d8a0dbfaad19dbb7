import { ValidationError } from "./errors";

// The due-date rule, in one place: a due date is a UTC calendar date (stored as 00:00 UTC of
// that day). It may be today or later when set, and the invoice expires at 00:00 UTC of the
// day after it. The request schema, the create/update services and the expiry job all read
// it from here.

const DAY_MS = 24 * 60 * 60 * 1000;

/** `YYYY-MM-DD`, or an ISO 8601 timestamp with an offset. */
export const DUE_DATE_PATTERN =
  /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;
export const INVALID_DUE_DATE = "must be an ISO 8601 date";
export const DUE_DATE_IN_PAST = "Due date cannot be in the past";

/** 00:00 UTC of `d`'s UTC date. */
export function startOfUtcDay(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

/**
 * A due date as sent (see DUE_DATE_PATTERN) -> 00:00 UTC of its UTC date; null when the text
 * is not a date. A bare date is a UTC date; a timestamp keeps the UTC date it falls on.
 */
export function parseDueDate(value: string): Date | null {
  if (!DUE_DATE_PATTERN.test(value)) return null;
  const d = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isNaN(d.getTime()) ? null : startOfUtcDay(d);
}

/** The first instant the invoice is expired: 00:00 UTC of the day after the due date. */
export function dueDateExpiresAt(dueDate: Date): Date {
  if (Number.isNaN(dueDate.getTime())) throw new RangeError("dueDate is not a valid date");
  return new Date(startOfUtcDay(dueDate).getTime() + DAY_MS);
}

/**
 * isExpired as a cutoff for SQL: at `now`, exactly the due dates before this instant are
 * over (a due date on an earlier UTC day ends at or before 00:00 UTC today).
 */
export function expiredDueDatesBefore(now: Date): Date {
  return startOfUtcDay(now);
}

/** True from the first millisecond after the due date's UTC day; never without a due date. */
export function isExpired(dueDate: Date | null | undefined, now: Date): boolean {
  if (dueDate == null) return false;
  return now.getTime() >= dueDateExpiresAt(dueDate).getTime();
}

/** A due date being set must be today (UTC) or later: 400 `dueDate` otherwise. */
export function assertDueDateNotPast(dueDate: Date | null | undefined, now: Date): void {
  if (isExpired(dueDate, now)) {
    throw new ValidationError("Invalid request", { dueDate: DUE_DATE_IN_PAST });
  }
}
