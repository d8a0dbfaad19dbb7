import { and, asc, eq, inArray, isNull, lt, lte, or } from "drizzle-orm";
import { invoices } from "@/db/schema";
import { expiredDueDatesBefore } from "@/lib/domain/due-date";
import { EXPIRABLE_STATUSES, transition } from "@/lib/domain/invoice-state";
import { emitEvent, SYSTEM_ACTOR, writeAudit } from "@/lib/services/audit";
import type { ServiceContext } from "@/lib/services/context";
import { withTransaction } from "@/lib/services/db";

/**
 * PENDING/PROCESSING invoices whose due date (a UTC date) has ended, i.e. from 00:00 UTC the
 * day after, and payment links past their expiresAt, become EXPIRED, with audit EXPIRED and event invoice.expired in the same
 * transaction. Bounded batches; rows are claimed with FOR UPDATE SKIP LOCKED, so two
 * processes running it at once never expire the same invoice twice. Idempotent.
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
        const move = transition(row.status, "expire");
        if (!move.changed) continue;
        await tx
          .update(invoices)
          .set({ status: move.to, expiredAt: now, updatedAt: now })
          .where(eq(invoices.id, row.id));
        await writeAudit(tx, {
          invoiceId: row.id,
          action: "EXPIRED",
          actorWallet: SYSTEM_ACTOR,
          changes: { status: { from: move.from, to: move.to } },
          at: now,
        });
        // Links have no expiry event type (spec 6); their audit entry records it.
        if (row.kind === "LINK") continue;
        await emitEvent(tx, {
          type: "invoice.expired",
          wallet: row.freelancerWallet,
          invoiceId: row.id,
          at: now,
          data: {
            id: row.id,
            invoiceNumber: row.invoiceNumber,
            status: move.to,
            previousStatus: move.from,
            dueDate: row.dueDate?.toISOString() ?? null,
            expiredAt: now.toISOString(),
          },
        });
      }
      return rows.length;
    });
    expired += claimed;
    if (claimed < batchSize) break;
  }
  return { expired };
}
