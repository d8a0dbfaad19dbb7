/** Form B shapes of the webhook API (lib/serializers/webhooks.ts). */

export type Webhook = {
  id: string;
  url: string;
  events: string[];
  status: "active" | "disabled";
  createdAt: string;
  disabledAt: string | null;
  failingSince: string | null;
};

/** The create response: the only one that carries the signing secret. */
export type CreatedWebhook = {
  id: string;
  url: string;
  events: string[];
  secret: string;
  createdAt: string;
};

export type Delivery = {
  id: string;
  eventId: string;
  eventType: string | null;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
};

export type DeliveryPage = {
  deliveries: Delivery[];
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
};
