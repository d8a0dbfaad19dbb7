import type { Serializer } from "@/lib/http/forms";
import type { DeliveryPage, DeliveryView } from "@/lib/webhooks/deliveries";
import type { CreatedSubscription, SubscriptionRow } from "@/lib/webhooks/subscriptions";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Never includes the secret: it is shown once, by the create response. */
const webhook = (w: SubscriptionRow) => ({
  id: w.id,
  url: w.url,
  events: w.events,
  status: w.disabledAt ? "disabled" : "active",
  createdAt: w.createdAt.toISOString(),
  disabledAt: iso(w.disabledAt),
  failingSince: iso(w.failingSince),
});

const created = (w: CreatedSubscription) => ({
  id: w.id,
  url: w.url,
  events: w.events,
  secret: w.secret,
  createdAt: w.createdAt.toISOString(),
});

export const createdWebhookSerializer: Serializer<CreatedSubscription> = { a: created, b: created };

export const webhookListSerializer: Serializer<SubscriptionRow[]> = {
  a: (list) => list.map(webhook),
  b: (list) => list.map(webhook),
};

export const webhookDeletedSerializer: Serializer<{ id: string }> = {
  a: (v) => ({ id: v.id, deleted: true }),
  b: () => ({ success: true }),
};

const delivery = (d: DeliveryView) => ({
  id: d.id,
  eventId: d.eventId,
  eventType: d.eventType,
  status: d.status,
  attempts: d.attempts,
  lastStatusCode: d.lastStatusCode,
  lastError: d.lastError,
  lastAttemptAt: iso(d.lastAttemptAt),
  nextAttemptAt: d.status === "pending" ? d.nextAttemptAt.toISOString() : null,
  deliveredAt: iso(d.deliveredAt),
  createdAt: d.createdAt.toISOString(),
});

export const deliverySerializer: Serializer<DeliveryView> = { a: delivery, b: delivery };

const page = (p: DeliveryPage) => ({
  deliveries: p.deliveries.map(delivery),
  total: p.total,
  limit: p.limit,
  offset: p.offset,
  hasMore: p.hasMore,
});

export const deliveryPageSerializer: Serializer<DeliveryPage> = { a: page, b: page };
