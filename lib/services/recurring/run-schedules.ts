import { and, asc, eq, isNull, lte, notInArray } from "drizzle-orm";
import type { Transaction } from "@/db/client";
import { recurringSchedules } from "@/db/schema";
import { nextRunAt, periodDate, periodDueDate } from "@/lib/domain/schedule";
import { recurringTemplateSchema } from "@/lib/schemas/recurring";
import type { AuthedContext, ServiceContext } from "../context";
import { withTransaction } from "../db";
import { sendInvoice } from "../invoices/change-status";
import { createInvoice } from "../invoices/create-invoice";
import { NO_REFUSAL, recordRefusal, refusalReasonOf } from "./refusals";
import { type RecurringRow, scheduleOf } from "./schedules";

/** What one period's creation did. */
export type PeriodResult = {
  scheduleId: string;
  period: number;
  invoiceId: string;
  /** autoSend: sent (PENDING, emailed); or why it stayed a draft. */
  sent: boolean;
  unsentReason: string | null;
};

export type PeriodHooks = {
  /** Tests: runs inside the period's transaction after the invoice is written. */
  afterInsert?: (tx: Transaction, result: PeriodResult) => Promise<void>;
};

/**
 * Creates the invoice of ONE due period of one schedule, exactly once (docs/decisions.md,
 * Recurring invoices). In one transaction: claim a schedule whose next period is due
 * (`FOR UPDATE SKIP LOCKED`: a schedule another worker holds is left to it), create the
 * invoice through the create-invoice service with (recurringId, recurringPeriod) (unique in
 * the database), send it when the schedule says so, and advance the schedule to its next
 * period. A crash anywhere rolls all of it back, so the period is created once by whoever
 * runs next. Returns null when no schedule is due (other than those in `skip`).
 */
export async function createDuePeriod(
  ctx: ServiceContext,
  skip: string[] = [],
  hooks: PeriodHooks = {},
): Promise<PeriodResult | null> {
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const [row] = await tx
      .select()
      .from(recurringSchedules)
      .where(
        and(
          lte(recurringSchedules.nextRunAt, now),
          isNull(recurringSchedules.pausedAt),
          isNull(recurringSchedules.deletedAt),
          ...(skip.length ? [notInArray(recurringSchedules.id, skip)] : []),
        ),
      )
      .orderBy(asc(recurringSchedules.nextRunAt), asc(recurringSchedules.id))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!row) return null;
    let result: PeriodResult;
    try {
      result = await createPeriod(ctx, tx, row, now);
    } catch (err) {
      // The job leaves this schedule for its next run and goes on with the others, and the
      // schedule says why (recordRefusal, after this transaction rolled back).
      throw Object.assign(new Error(`recurring ${row.id} period ${row.nextPeriod} failed`), {
        cause: err,
        scheduleId: row.id,
        period: row.nextPeriod,
      });
    }
    await hooks.afterInsert?.(tx, result);
    return result;
  });
}

async function createPeriod(
  ctx: ServiceContext,
  tx: Transaction,
  row: RecurringRow,
  now: Date,
): Promise<PeriodResult> {
  const schedule = scheduleOf(row);
  const period = row.nextPeriod;
  // The owner acts through the standing instruction: no API key, the owner's wallet.
  const owner: AuthedContext = {
    ...ctx,
    db: tx,
    wallet: row.wallet,
    apiKey: undefined,
    session: undefined,
  };
  const template = recurringTemplateSchema.parse(row.template);
  const invoice = await createInvoice(
    owner,
    {
      ...template,
      network: undefined,
      networkPassphrase: row.networkPassphrase as typeof template.networkPassphrase,
      dueDate: periodDueDate(periodDate(schedule, period), row.dueInDays, now),
    },
    { recurringId: row.id, recurringPeriod: period },
  );
  await tx
    .update(recurringSchedules)
    .set({
      nextPeriod: period + 1,
      nextRunAt: nextRunAt(schedule, period + 1),
      ...NO_REFUSAL,
      updatedAt: now,
    })
    .where(eq(recurringSchedules.id, row.id));
  const result = {
    scheduleId: row.id,
    period,
    invoiceId: invoice.id,
    sent: false,
    unsentReason: null as string | null,
  };
  if (!row.autoSend) return result;
  try {
    // A savepoint: a refused send (the wallet cannot receive the asset: lib/services/payments/
    // recipient-readiness.ts) leaves the invoice a draft and the period done.
    await tx.transaction((sp) => sendInvoice({ ...owner, db: sp }, invoice.id));
    result.sent = true;
  } catch (err) {
    result.unsentReason = err instanceof Error ? err.message : String(err);
    await recordRefusal(tx, row.id, {
      reason: `${invoice.invoiceNumber} was kept as a draft: ${refusalReasonOf(err)}`,
      period,
      at: now,
    });
    ctx.logger.warn("recurring invoice kept as a draft: send refused", {
      scheduleId: row.id,
      period,
      invoiceId: invoice.id,
      reason: result.unsentReason,
    });
  }
  return result;
}
