import { cronWebhooksSerializer } from "@/lib/serializers/system";
import { cronOperation } from "../cron-operation";

export const cronWebhooks = cronOperation("webhooks", cronWebhooksSerializer, {
  summary: "Deliver due webhooks (cron)",
  description: `Fans new events out to the endpoints that want them and sends due deliveries (5-second timeout each, retries with exponential backoff); answers what this pass did.`,
});
