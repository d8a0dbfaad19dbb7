import { and, asc, eq, inArray, isNull, lt, lte, or } from "drizzle-orm";
import { invoices } from "@/db/schema";
import { expiredDueDatesBefore } from "@/lib/domain/due-date";
import { EXPIRABLE_STATUSES } from "@/lib/domain/invoice-state";
import type { ServiceContext } from "@/lib/services/context";
import { withTransaction } from "@/lib/services/db";
import { applyTransition, SYSTEM_ACTOR } from "@/lib/services/invoices/lifecycle";

/**
 * PENDING, PROCESSING and FAILED invoices whose due date has ended (lib/domain/due-date.ts) and payment
 * links past their expiresAt become EXPIRED through applyTransition (audit EXPIRED, event
 * invoice.expired for invoices), each in the batch's transaction. Bounded batches; rows are
 * claimed with FOR UPDATE SKIP LOCKED, so two processes running it at once never expire the
 * same invoice twice. Idempotent.
 */
export async function expireDueInvoices(
  ctx: Pick<ServiceContext, "db" | "now">,
  opts: { batchSize?: number } = {},
): Promise<{ expired: number }> {
  const batchSize = opts.batchSize ?? 500;
  const now = ctx.now();
  const cutoff = expiredDueDatesBefore(now);
  let expired = 0;
  for (;;) {
    const claimed = await withTransaction(ctx.db, async (tx) => {
      const rows = await tx
        .select()
        .from(invoices)
        .where(
          and(
            inArray(invoices.status, [...EXPIRABLE_STATUSES]),
            or(
              and(eq(invoices.kind, "INVOICE"), lt(invoices.dueDate, cutoff)),
              and(eq(invoices.kind, "LINK"), lte(invoices.linkExpiresAt, now)),
            ),
            isNull(invoices.deletedAt),
          ),
        )
        .orderBy(asc(invoices.dueDate))
        .limit(batchSize)
        .for("update", { skipLocked: true });
      for (const row of rows) {
        await applyTransition(tx, row, "expire", { actor: SYSTEM_ACTOR, at: now });
      }
      return rows.length;
    });
    expired += claimed;
    if (claimed < batchSize) break;
  }
  return { expired };
}
