/** Form B bodies of the webhook API, inferred from their schemas (lib/schemas/webhooks.ts). */
export type {
  CreatedWebhookBody as CreatedWebhook,
  DeliveryBody as Delivery,
  DeliveryPageBody as DeliveryPage,
  RotatedWebhookSecretBody as RotatedSecret,
  WebhookBody as Webhook,
} from "@/lib/schemas/webhooks";
