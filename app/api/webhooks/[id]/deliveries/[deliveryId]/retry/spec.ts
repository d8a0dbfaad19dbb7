import { NotFoundError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { idParamSchema } from "@/lib/schemas/common";
import { deliverySerializer } from "@/lib/serializers/webhooks";
import { DELIVERY_NOT_FOUND } from "@/lib/webhooks/deliveries";
import { z } from "@/lib/zod";
import { notOwner, webhookNotFound } from "../../../../../common-errors";

export const retryWebhookDelivery = operation({
  method: "POST",
  path: "/api/webhooks/{id}/deliveries/{deliveryId}/retry",
  operationId: "retryWebhookDelivery",
  tag: "Webhooks",
  summary: "Send a delivery again",
  description:
    "Queues the delivery again, due now, with a fresh retry window; the worker or the cron route sends it. A disabled endpoint is enabled again.",
  auth: "authed",
  scope: ["webhooks:write"],
  params: z.object({
    id: idParamSchema.meta({ description: "Webhook endpoint id" }),
    deliveryId: idParamSchema.meta({ description: "Delivery id" }),
  }),
  responses: [{ status: 202, description: "Queued", serializer: deliverySerializer }],
  errors: [notOwner, webhookNotFound, new NotFoundError(DELIVERY_NOT_FOUND)],
});
