import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { recurringSchedules } from "@/db/schema";
import { isDomainError } from "@/lib/domain/errors";

// Why the recurring job refused a schedule's period (docs/decisions.md, Recurring invoices):
// stored on the schedule, shown in GET /api/recurring/:id (`lastRefusal`) and on the
// Recurring page, instead of only in the worker's log. One writer for every kind of refusal.

/** A refusal as the schedule keeps it: the period it concerns and when it happened. */
export type Refusal = { reason: string; period: number; at: Date };

/** The stored reason's bound: a domain error's message is one sentence. */
const REASON_MAX = 500;

/** A period that failed for a reason that is not the owner's to fix (a bug, the database). */
export const REFUSAL_INTERNAL =
  "The invoice could not be created because of an internal error; it is tried again on the next run";

/**
 * Records the job's refusal of a schedule's period on the schedule (the last one wins):
 * the recurring job calls it when a period's invoice is not created, or is created and kept a
 * draft because sending it was refused; any new refusal (a limit) goes through it too. Runs
 * in the caller's transaction when given one.
 */
export async function recordRefusal(
  db: DbOrTx,
  scheduleId: string,
  refusal: Refusal,
): Promise<void> {
  await db
    .update(recurringSchedules)
    .set({
      refusalReason: refusal.reason.slice(0, REASON_MAX),
      refusedPeriod: refusal.period,
      refusedAt: refusal.at,
    })
    .where(eq(recurringSchedules.id, scheduleId));
}

/** The columns that clear the last refusal: a period was created (and sent when asked). */
export const NO_REFUSAL = { refusalReason: null, refusedPeriod: null, refusedAt: null } as const;

/**
 * A failure in the owner's words: a domain error's message (a limit, a template the API
 * refuses now) is theirs to read; anything else is an internal error, whose details stay in
 * the log.
 */
export function refusalReasonOf(err: unknown): string {
  return isDomainError(err) ? err.message : REFUSAL_INTERNAL;
}
