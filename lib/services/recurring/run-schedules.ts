import { and, asc, eq, isNull, lte, notInArray } from "drizzle-orm";
import type { Transaction } from "@/db/client";
import { recurringSchedules } from "@/db/schema";
import { nextRunAt, periodDate, periodDueDate } from "@/lib/domain/schedule";
import { invoiceCreatePolicy, walletSubject } from "@/lib/ratelimit/policies";
import type { RateLimiter, RateLimitResult } from "@/lib/ratelimit/types";
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

/** A due period left for a later run: the wallet's invoice-creation budget is used up. */
export type DeferredPeriod = {
  scheduleId: string;
  period: number;
  deferred: string;
};

export type PeriodHooks = {
  /** Tests: runs inside the period's transaction after the invoice is written. */
  afterInsert?: (tx: Transaction, result: PeriodResult) => Promise<void>;
  /**
   * The shared rate-limit counters: each period's invoice counts against the wallet's
   * invoice-creation limit, as `POST /api/invoices` does (docs/decisions.md, Limits). Absent
   * or with rate limits off: not counted.
   */
  rateLimiter?: RateLimiter;
};

/**
 * Creates the invoice of ONE due period of one schedule, exactly once (docs/decisions.md,
 * Recurring invoices). In one transaction: claim a schedule whose next period is due
 * (`FOR UPDATE SKIP LOCKED`: a schedule another worker holds is left to it), create the
 * invoice through the create-invoice service with (recurringId, recurringPeriod) (unique in
 * the database), send it when the schedule says so, and advance the schedule to its next
 * period. A crash anywhere rolls all of it back, so the period is created once by whoever
 * runs next. Returns null when no schedule is due (other than those in `skip`); a period over
 * the wallet's invoice-creation limit is left due and returned as deferred.
 */
export async function createDuePeriod(
  ctx: ServiceContext,
  skip: string[] = [],
  hooks: PeriodHooks = {},
): Promise<PeriodResult | DeferredPeriod | null> {
  const now = ctx.now();
  const limiter = ctx.config.rateLimitsEnabled ? hooks.rateLimiter : undefined;
  let counted: { result: RateLimitResult; subject: string } | null = null;
  const overBudget = async (wallet: string): Promise<string | null> => {
    if (!limiter) return null;
    const subject = walletSubject(wallet);
    const result = await limiter.hit(invoiceCreatePolicy(ctx.config), subject, now);
    counted = { result, subject };
    return result.allowed ? null : result.policy.message;
  };
  let outcome: PeriodResult | DeferredPeriod | null;
  try {
    outcome = await withTransaction(ctx.db, (tx) =>
      claimAndCreate(ctx, tx, now, skip, hooks, overBudget),
    );
  } catch (err) {
    // Nothing was created: the hit goes back.
    await releaseHit(limiter, counted);
    throw err;
  }
  // A refused hit goes back too: creation limits count successes only.
  if (outcome && "deferred" in outcome) await releaseHit(limiter, counted);
  return outcome;
}

async function releaseHit(
  limiter: RateLimiter | undefined,
  counted: { result: RateLimitResult; subject: string } | null,
): Promise<void> {
  if (limiter && counted) await limiter.release(counted.result, counted.subject);
}

async function claimAndCreate(
  ctx: ServiceContext,
  tx: Transaction,
  now: Date,
  skip: string[],
  hooks: PeriodHooks,
  overBudget: (wallet: string) => Promise<string | null>,
): Promise<PeriodResult | DeferredPeriod | null> {
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
  const refused = await overBudget(row.wallet);
  if (refused) {
    // Left due: a later run creates it once the wallet's hour allows.
    ctx.logger.warn("recurring invoice deferred: creation limit reached", {
      scheduleId: row.id,
      period: row.nextPeriod,
    });
    // Shown on the schedule (GET /api/recurring/:id, the Recurring page).
    await recordRefusal(tx, row.id, {
      reason: `The invoice was not created yet: ${refused} It is created on a later run.`,
      period: row.nextPeriod,
      at: now,
    });
    return { scheduleId: row.id, period: row.nextPeriod, deferred: refused };
  }
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
