import { ValidationError } from "@/lib/domain/errors";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { listDeliveriesQuerySchema } from "@/lib/schemas/webhooks";
import { idPath } from "@/lib/schemas/wire";
import { deliveryPageSerializer } from "@/lib/serializers/webhooks";
import { notOwner, webhookNotFound } from "../../../common-errors";

export const listWebhookDeliveries = operation({
  method: "GET",
  path: "/api/webhooks/{id}/deliveries",
  operationId: "listWebhookDeliveries",
  tag: "Webhooks",
  summary: "Delivery log of an endpoint",
  description:
    "Newest first; `limit` defaults to 50 in Form B and 20 in Form A (max 100). Finished deliveries are kept for 30 days after they were queued (a manual retry restarts the clock); pending ones until they finish. `lastError` is one of a fixed set (`Timed out`, `Connection failed`, `TLS error`, `URL not allowed`, `HTTP <status>`, `Event no longer available`, `Webhook deleted`, `Webhook disabled after failing for <n> days`) and never names an address, a port or a socket error.",
  auth: "authed",
  scope: ["webhooks:write"],
  params: idPath,
  query: listDeliveriesQuerySchema,
  responses: [
    { status: 200, description: "One page of deliveries", serializer: deliveryPageSerializer },
  ],
  errors: [new ValidationError(INVALID_REQUEST), notOwner, webhookNotFound],
});
