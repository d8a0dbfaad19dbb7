import { authedEndpoint, methods, reply } from "@/lib/http/endpoint";
import { deliverySerializer } from "@/lib/serializers/webhooks";
import { retryDelivery } from "@/lib/webhooks/deliveries";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  /** Queues the delivery again, due now (202: the worker or cron sends it). */
  POST: authedEndpoint<{ id: string; deliveryId: string }>(async ({ ctx, params }) =>
    reply(await retryDelivery(ctx, params.id, params.deliveryId), deliverySerializer, 202),
  ),
});
