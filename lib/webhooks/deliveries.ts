import { and, count, desc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { events, webhookDeliveries, webhookSubscriptions } from "@/db/schema";
import { ForbiddenError, NotFoundError } from "@/lib/domain/errors";
import { isId } from "@/lib/ids";
import type { AuthedContext } from "@/lib/services/context";
import { withTransaction } from "@/lib/services/db";
import { getWebhookForOwnerOrThrow } from "@/lib/webhooks/subscriptions";

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
/** A delivery with its event's type (null when the event row is gone). */
export type DeliveryView = DeliveryRow & { eventType: string | null };
export type DeliveryPage = {
  deliveries: DeliveryView[];
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
};

export const DELIVERY_NOT_FOUND = "Delivery not found";

const view = { delivery: webhookDeliveries, eventType: events.type };

/** The delivery log of one of the caller's endpoints, newest first. */
export async function listDeliveries(
  ctx: AuthedContext,
  webhookId: string,
  page: { limit?: number; offset?: number },
): Promise<DeliveryPage> {
  await getWebhookForOwnerOrThrow(ctx.db, ctx, webhookId);
  const limit = page.limit ?? 50;
  const offset = page.offset ?? 0;
  const where = eq(webhookDeliveries.subscriptionId, webhookId);
  const [rows, [{ n }]] = await Promise.all([
    ctx.db
      .select(view)
      .from(webhookDeliveries)
      .leftJoin(events, eq(events.id, webhookDeliveries.eventId))
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.eventSeq))
      .limit(limit)
      .offset(offset),
    ctx.db.select({ n: count() }).from(webhookDeliveries).where(where),
  ]);
  return {
    deliveries: rows.map((r) => ({ ...r.delivery, eventType: r.eventType })),
    total: n,
    limit,
    offset,
    hasMore: offset + rows.length < n,
  };
}

/**
 * Why a delivery id is not under the caller's endpoint: 403 `Unauthorized` when it is another
 * wallet's delivery (docs/decisions.md, Ownership, whatever the path's depth), else 404.
 */
async function missingDelivery(db: DbOrTx, ctx: AuthedContext, deliveryId: string): Promise<Error> {
  const [other] = await db
    .select({ wallet: webhookSubscriptions.wallet })
    .from(webhookDeliveries)
    .innerJoin(webhookSubscriptions, eq(webhookSubscriptions.id, webhookDeliveries.subscriptionId))
    .where(eq(webhookDeliveries.id, deliveryId))
    .limit(1);
  return other && other.wallet !== ctx.wallet
    ? new ForbiddenError("Unauthorized")
    : new NotFoundError(DELIVERY_NOT_FOUND);
}

/**
 * Manual redelivery: the delivery goes back to pending, due now, with a fresh retry window
 * (its `createdAt` becomes the time it was re-queued). An endpoint that had been disabled
 * for failing is enabled again: asking for a retry says the receiver is back.
 */
export async function retryDelivery(
  ctx: AuthedContext,
  webhookId: string,
  deliveryId: string,
): Promise<DeliveryView> {
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const subscription = await getWebhookForOwnerOrThrow(tx, ctx, webhookId);
    if (!isId(deliveryId)) throw new NotFoundError(DELIVERY_NOT_FOUND);
    const [row] = await tx
      .update(webhookDeliveries)
      .set({ status: "pending", nextAttemptAt: now, createdAt: now, deliveredAt: null })
      .where(
        and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.subscriptionId, webhookId)),
      )
      .returning();
    if (!row) throw await missingDelivery(tx, ctx, deliveryId);
    if (subscription.disabledAt) {
      await tx
        .update(webhookSubscriptions)
        .set({ disabledAt: null, failingSince: null })
        .where(eq(webhookSubscriptions.id, webhookId));
    }
    const [event] = await tx
      .select({ type: events.type })
      .from(events)
      .where(eq(events.id, row.eventId));
    return { ...row, eventType: event?.type ?? null };
  });
}
