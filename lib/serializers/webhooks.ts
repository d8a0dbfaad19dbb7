import { publicDeliveryError } from "@/lib/domain/webhook-errors";
import { sameInBothForms } from "@/lib/http/forms";
import {
  createdWebhook,
  rotatedWebhookSecret,
  webhookDeleted,
  webhookDelivery,
  webhookDeliveryPage,
  webhookList,
} from "@/lib/schemas/webhooks";
import type { FormB } from "@/lib/schemas/wire";
import type { DeliveryPage, DeliveryView } from "@/lib/webhooks/deliveries";
import type {
  CreatedSubscription,
  RotatedSecret,
  SubscriptionRow,
} from "@/lib/webhooks/subscriptions";
import { deletedSerializer, iso } from "./common";

/** Never includes the secret: it is shown once, by the create response. */
const webhook = (w: SubscriptionRow): FormB<typeof webhookList>[number] => ({
  id: w.id,
  url: w.url,
  events: w.events,
  network: w.network,
  status: w.disabledAt ? "disabled" : "active",
  createdAt: w.createdAt.toISOString(),
  disabledAt: iso(w.disabledAt),
  failingSince: iso(w.failingSince),
});

export const createdWebhookSerializer = sameInBothForms(
  createdWebhook,
  (w: CreatedSubscription): FormB<typeof createdWebhook> => ({
    id: w.id,
    url: w.url,
    events: w.events,
    network: w.network,
    secret: w.secret,
    createdAt: w.createdAt.toISOString(),
  }),
);

/** The new secret, shown this once, and when the old one stops signing. */
export const rotatedSecretSerializer = sameInBothForms(
  rotatedWebhookSecret,
  (r: RotatedSecret): FormB<typeof rotatedWebhookSecret> => ({
    id: r.id,
    secret: r.secret,
    previousSecretExpiresAt: r.previousSecretExpiresAt.toISOString(),
  }),
);

export const webhookListSerializer = sameInBothForms(
  webhookList,
  (list: SubscriptionRow[]): FormB<typeof webhookList> => list.map(webhook),
);

export const webhookDeletedSerializer = deletedSerializer(webhookDeleted);

const delivery = (d: DeliveryView): FormB<typeof webhookDelivery> => ({
  id: d.id,
  eventId: d.eventId,
  eventType: d.eventType,
  status: d.status,
  attempts: d.attempts,
  lastStatusCode: d.lastStatusCode,
  // Rows written before the fixed set read as one of its values (lib/domain/webhook-errors.ts).
  lastError: publicDeliveryError(d.lastError),
  lastAttemptAt: iso(d.lastAttemptAt),
  nextAttemptAt: d.status === "pending" ? d.nextAttemptAt.toISOString() : null,
  deliveredAt: iso(d.deliveredAt),
  createdAt: d.createdAt.toISOString(),
});

export const deliverySerializer = sameInBothForms(webhookDelivery, delivery);

export const deliveryPageSerializer = sameInBothForms(
  webhookDeliveryPage,
  (p: DeliveryPage): FormB<typeof webhookDeliveryPage> => ({
    deliveries: p.deliveries.map(delivery),
    total: p.total,
    limit: p.limit,
    offset: p.offset,
    hasMore: p.hasMore,
  }),
);
