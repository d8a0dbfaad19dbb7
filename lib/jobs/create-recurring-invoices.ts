import type { ServiceContext } from "@/lib/services/context";
import { recordRefusal, refusalReasonOf } from "@/lib/services/recurring/refusals";
import {
  createDuePeriod,
  type PeriodHooks,
  type PeriodResult,
} from "@/lib/services/recurring/run-schedules";

/**
 * Creates the invoices of recurring schedules whose periods are due (docs/decisions.md,
 * Recurring invoices): one period per transaction, oldest first, every missed period once
 * (catching up after downtime). Safe from several processes at once: each period is claimed
 * with FOR UPDATE SKIP LOCKED and keyed (recurring_id, recurring_period). A schedule whose
 * period fails (logged), or whose wallet has used up its invoice-creation limit (`deferred`,
 * with `opts.rateLimiter`), is left for the next run so the others go on. Bounded: `more` says
 * work is left.
 */
export async function createRecurringInvoices(
  ctx: ServiceContext,
  opts: { batchSize?: number } & PeriodHooks = {},
): Promise<{
  created: number;
  sent: number;
  unsent: number;
  failed: number;
  deferred: number;
  more: boolean;
}> {
  const batchSize = opts.batchSize ?? 100;
  const failedIds: string[] = [];
  const deferredIds: string[] = [];
  const done: PeriodResult[] = [];
  while (done.length < batchSize) {
    let result: Awaited<ReturnType<typeof createDuePeriod>>;
    try {
      result = await createDuePeriod(ctx, [...failedIds, ...deferredIds], opts);
    } catch (err) {
      const {
        scheduleId: id,
        period,
        cause,
      } = err as {
        scheduleId?: string;
        period?: number;
        cause?: unknown;
      };
      ctx.logger.warn("recurring invoice failed", {
        error: String(err),
        cause: String(cause),
        scheduleId: id,
      });
      if (!id) throw err;
      failedIds.push(id);
      // Shown on the schedule (GET /api/recurring/:id, the Recurring page), not only logged.
      await recordRefusal(ctx.db, id, {
        reason: `The invoice was not created: ${refusalReasonOf(cause)}`,
        period: period ?? 0,
        at: ctx.now(),
      }).catch((e) =>
        ctx.logger.warn("recurring refusal not recorded", { error: String(e), scheduleId: id }),
      );
      continue;
    }
    if (!result) break;
    if ("deferred" in result) {
      deferredIds.push(result.scheduleId);
      continue;
    }
    done.push(result);
  }
  const sent = done.filter((r) => r.sent).length;
  return {
    created: done.length,
    sent,
    unsent: done.filter((r) => r.unsentReason !== null).length,
    failed: failedIds.length,
    deferred: deferredIds.length,
    more: done.length >= batchSize,
  };
}
