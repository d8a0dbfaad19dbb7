import { and, desc, eq, gt, sql } from "drizzle-orm";
import { events, webhookDeliveries, webhookSubscriptions } from "@/db/schema";
import { RateLimitedError } from "@/lib/domain/errors";
import { newId } from "@/lib/ids";
import { webhookTestPolicy } from "@/lib/ratelimit/policies";
import { PING_EVENT } from "@/lib/schemas/events";
import type { AuthedContext } from "@/lib/services/context";
import { withTransaction } from "@/lib/services/db";
import { writeEvent } from "@/lib/services/events/outbox";
import type { DeliveryView } from "@/lib/webhooks/deliveries";
import { getWebhookForOwnerOrThrow } from "@/lib/webhooks/subscriptions";

export const PING_MESSAGE = "Test event from the webhook settings: no invoice or payment changed.";

/**
 * POST /api/webhooks/:id/test (docs/decisions.md, Webhooks: test events): the owner queues a
 * signed `ping` to one of their endpoints. The event goes through the outbox (its schema is
 * `EVENT_DATA.ping`) but is written already fanned out, with one pending delivery to this
 * endpoint only, so the usual delivery job signs and sends it (within WEBHOOK_INTERVAL_MS)
 * and the delivery log shows it like any other. An endpoint disabled for failing is enabled
 * again, as a manual retry does: asking for a test says the receiver is back.
 *
 * At most webhookTestPolicy's 5 per minute per endpoint, counted on the outbox under the
 * endpoint's row lock, so concurrent requests cannot pass the limit together.
 */
export async function sendTestEvent(ctx: AuthedContext, webhookId: string): Promise<DeliveryView> {
  const now = ctx.now();
  return withTransaction(ctx.db, async (tx) => {
    const subscription = await getWebhookForOwnerOrThrow(tx, ctx, webhookId, true);
    const windowStart = new Date(now.getTime() - webhookTestPolicy.windowSeconds * 1000);
    const recent = await tx
      .select({ createdAt: events.createdAt })
      .from(events)
      .where(
        and(
          eq(events.wallet, subscription.wallet),
          eq(events.type, PING_EVENT),
          sql`${events.data}->>'webhookId' = ${subscription.id}`,
          gt(events.createdAt, windowStart),
        ),
      )
      .orderBy(desc(events.createdAt))
      .limit(webhookTestPolicy.limit);
    if (recent.length >= webhookTestPolicy.limit) {
      const oldest = recent[webhookTestPolicy.limit - 1].createdAt;
      const retryAfter = Math.ceil((oldest.getTime() - windowStart.getTime()) / 1000);
      throw new RateLimitedError(webhookTestPolicy.message, Math.max(1, retryAfter));
    }
    const eventId = await writeEvent(tx, {
      type: PING_EVENT,
      data: { webhookId: subscription.id, message: PING_MESSAGE },
      wallet: subscription.wallet,
      invoiceId: null,
      at: now,
    });
    // Already fanned out: the fan-out (lib/webhooks/fan-out.ts) never offers it to the
    // wallet's other endpoints.
    const [event] = await tx
      .update(events)
      .set({ fannedOutAt: now })
      .where(eq(events.id, eventId))
      .returning({ seq: events.seq });
    if (subscription.disabledAt) {
      await tx
        .update(webhookSubscriptions)
        .set({ disabledAt: null, failingSince: null })
        .where(eq(webhookSubscriptions.id, subscription.id));
    }
    const [delivery] = await tx
      .insert(webhookDeliveries)
      .values({
        id: newId(),
        subscriptionId: subscription.id,
        eventId,
        eventSeq: event.seq,
        invoiceId: null,
        status: "pending",
        attempts: 0,
        nextAttemptAt: now,
        createdAt: now,
      })
      .returning();
    return { ...delivery, eventType: PING_EVENT };
  });
}
