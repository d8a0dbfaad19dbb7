import { EVENT_TYPES } from "@/lib/domain/invoice-state";
import { DELIVERY_ERROR_DESCRIPTION, DELIVERY_ERROR_PATTERN } from "@/lib/domain/webhook-errors";
import { z } from "@/lib/zod";
import { deletedShape, type FormB, id, int, pageFields, timestamp, wire } from "./wire";

/** Event types a subscription may ask for; `*` is every type, present and future. */
export const WEBHOOK_EVENT_CHOICES = [...EVENT_TYPES, "*"] as const;

export const createWebhookSchema = z
  .object({
    // Only shape here: whether the target is allowed needs DNS, so the service checks it.
    url: z
      .string({ error: "url is required" })
      .trim()
      .min(1, "url is required")
      .max(2048, "url must be at most 2048 characters"),
    events: z
      .array(
        z.enum(WEBHOOK_EVENT_CHOICES, {
          error: `Unknown event type. Use one of ${WEBHOOK_EVENT_CHOICES.join(", ")}`,
        }),
        { error: "events must be an array of event types" },
      )
      .min(1, "events must list at least one event type")
      .max(WEBHOOK_EVENT_CHOICES.length, "events lists a type twice")
      .transform((list) => [...new Set(list)]),
  })
  .strict();

export type CreateWebhookInput = z.infer<typeof createWebhookSchema>;

export const listDeliveriesQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).optional(),
    offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
  })
  .strict();

// ---- responses (lib/serializers/webhooks.ts) -----------------------------------------------

const webhookEvents = z.array(z.string()).meta({
  description: "Event types, or `*` for all",
  example: ["invoice.paid", "invoice.expired"],
});

const webhook = z
  .object({
    id,
    url: z.string().meta({ example: "https://example.com/hooks/stellar" }),
    events: webhookEvents,
    network: z.enum(["testnet", "mainnet"]).nullable().meta({
      description:
        "Made by an API key: only events of that network's invoices and links; null: every network",
    }),
    status: z.enum(["active", "disabled"]).meta({
      description: "`disabled` after deliveries failed for days; a manual retry enables it again",
    }),
    createdAt: timestamp,
    disabledAt: timestamp.nullable(),
    failingSince: timestamp.nullable(),
  })
  .meta({ id: "Webhook" });

export const createdWebhook = wire(
  "CreatedWebhook",
  webhook.pick({ id: true, url: true, events: true, network: true, createdAt: true }).extend({
    secret: z.string().meta({
      description: "Signing secret (`whsec_...`), shown only in this response",
      example: "whsec_8f3c...",
    }),
  }),
);

export const rotatedWebhookSecret = wire(
  "RotatedWebhookSecret",
  z.object({
    id,
    secret: z.string().meta({
      description: "The new signing secret (`whsec_...`), shown only in this response",
      example: "whsec_5d1e...",
    }),
    previousSecretExpiresAt: timestamp.meta({
      description:
        "Until then deliveries also carry the old secret's signature (a second `v1=` of X-Service-Signature-V2)",
    }),
  }),
);

export const webhookList = wire("WebhookList", z.array(webhook));

export const webhookDeleted = deletedShape("WebhookDeleted");

export const webhookDelivery = wire(
  "WebhookDelivery",
  z.object({
    id,
    eventId: z.string().meta({ example: "evt_clx8f2k9p0000abcd1234efgh" }),
    eventType: z.string().nullable(),
    status: z.enum(["pending", "delivered", "failed"]),
    attempts: int,
    lastStatusCode: int.nullable(),
    lastError: z
      .string()
      .regex(DELIVERY_ERROR_PATTERN)
      .nullable()
      .meta({ description: DELIVERY_ERROR_DESCRIPTION, example: null }),
    lastAttemptAt: timestamp.nullable(),
    nextAttemptAt: timestamp.nullable().meta({ description: "Set while pending" }),
    deliveredAt: timestamp.nullable(),
    createdAt: timestamp,
  }),
);

export const webhookDeliveryPage = wire(
  "WebhookDeliveryPage",
  z.object({ deliveries: z.array(webhookDelivery.b), ...pageFields }),
);

/** Form B bodies, as the browser reads them. */
export type WebhookBody = FormB<typeof webhookList>[number];
export type CreatedWebhookBody = FormB<typeof createdWebhook>;
export type RotatedWebhookSecretBody = FormB<typeof rotatedWebhookSecret>;
export type DeliveryBody = FormB<typeof webhookDelivery>;
export type DeliveryPageBody = FormB<typeof webhookDeliveryPage>;
