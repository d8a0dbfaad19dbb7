// Reminder rules (docs/decisions.md, Reminders and receipts). Pure: the job
// lib/jobs/send-reminders.ts applies them to the invoices it scans.

import { PAYABLE_STATUSES } from "./invoice-state";

const DAY_MS = 86_400_000;

/** Offsets are whole days relative to the due date: -60 to 60, at most 5, no repeats. */
export const REMINDER_OFFSET_MIN = -60;
export const REMINDER_OFFSET_MAX = 60;
export const MAX_REMINDERS = 5;

/** A sent invoice still waiting for its money: the payable statuses (an EXPIRED one too). */
export const REMINDED_STATUSES = PAYABLE_STATUSES;

/**
 * When the reminder of `offset` is due: 00:00 UTC of the due date's UTC day, plus `offset`
 * days. A due date of 2026-03-10T15:00Z with offset -3 is due from 2026-03-07T00:00Z.
 */
export function reminderMoment(dueDate: Date, offset: number): Date {
  const day = Math.floor(dueDate.getTime() / DAY_MS) * DAY_MS;
  return new Date(day + offset * DAY_MS);
}

/**
 * The one reminder to queue now, or null: the latest offset whose moment has come (`<= now`)
 * and came after the invoice was sent (the invoice email covers the earlier ones). Earlier
 * offsets that were missed (the invoice was sent late, or no job ran for days) are not sent
 * after it: a client gets the latest reminder, never a burst. Each offset is queued at most
 * once (its dedupe key, `reminder:<invoiceId>:<offset>`), so a later run returning the same
 * offset queues nothing.
 */
export function dueReminderOffset(
  offsets: readonly number[],
  dueDate: Date,
  sentAt: Date,
  now: Date,
): number | null {
  let latest: number | null = null;
  for (const offset of offsets) {
    const at = reminderMoment(dueDate, offset).getTime();
    if (at <= now.getTime() && at > sentAt.getTime() && (latest === null || offset > latest)) {
      latest = offset;
    }
  }
  return latest;
}

/** How a reminder speaks of the due date: "is due in 3 days", "is due today", "is 7 days overdue". */
export function reminderWhen(offset: number): string {
  const days = (n: number) => `${n} day${n === 1 ? "" : "s"}`;
  if (offset < 0) return `is due in ${days(-offset)}`;
  if (offset === 0) return "is due today";
  return `is ${days(offset)} overdue`;
}

/** An invoice that may be reminded: sent, unpaid, not cancelled, deleted or unsubscribed. */
export function isRemindable(invoice: {
  kind: string;
  status: string;
  sentAt: Date | null;
  deletedAt: Date | null;
  remindersStoppedAt: Date | null;
}): boolean {
  return (
    invoice.kind === "INVOICE" &&
    invoice.sentAt !== null &&
    invoice.deletedAt === null &&
    invoice.remindersStoppedAt === null &&
    (REMINDED_STATUSES as readonly string[]).includes(invoice.status)
  );
}
