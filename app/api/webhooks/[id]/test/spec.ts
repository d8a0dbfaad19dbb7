import { RateLimitedError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { webhookTestPolicy } from "@/lib/ratelimit/policies";
import { idPath } from "@/lib/schemas/wire";
import { deliverySerializer } from "@/lib/serializers/webhooks";
import { notOwner, webhookNotFound } from "../../../common-errors";

/** Owner only, like rotate-secret (docs/decisions.md, Webhooks: test events). */
export const sendWebhookTestEvent = operation({
  method: "POST",
  path: "/api/webhooks/{id}/test",
  params: idPath,
  auth: "authed",
  scope: ["webhooks:write"],
  errors: [
    notOwner,
    webhookNotFound,
    new RateLimitedError(webhookTestPolicy.message, webhookTestPolicy.windowSeconds),
  ],
  responses: [
    {
      status: 202,
      description: "The queued delivery of the `ping` event (pending)",
      serializer: deliverySerializer,
    },
  ],
  operationId: "sendWebhookTestEvent",
  tag: "Webhooks",
  summary: "Send a test event to an endpoint",
  description:
    "Queues a signed `ping` event (see the webhook events of this document) to this endpoint only, whatever events it asked for; the worker or the cron route sends it within seconds and `GET /api/webhooks/{id}/deliveries` shows it (`eventType` `ping`) with its result. Nothing else changes and `GET /api/events` does not list it. A disabled endpoint is enabled again. Owner only: 403 `Unauthorized` for another wallet's endpoint, 404 for an unknown one. At most 5 per minute per endpoint.",
});
