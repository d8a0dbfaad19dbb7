import { operation } from "@/lib/http/route";
import { cronWebhooksSerializer } from "@/lib/serializers/system";

export const cronWebhooks = operation({
  method: ["GET", "POST"],
  path: "/api/cron/webhooks",
  operationId: "cronWebhooks",
  tag: "Cron",
  summary: "Deliver due webhooks (cron)",
  description:
    "Fans new events out to the endpoints that want them and sends due deliveries (5-second timeout each, retries with exponential backoff).",
  auth: "cron",
  responses: [
    { status: 200, description: "What this pass did", serializer: cronWebhooksSerializer },
  ],
  errors: [],
});
