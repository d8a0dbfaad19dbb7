import { defineRoute, methods } from "@/lib/http/route";
import { retryDelivery } from "@/lib/webhooks/deliveries";
import * as spec from "./spec";

/** Queues the delivery again, due now (202: the worker or cron sends it). */
export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.retryWebhookDelivery, ({ ctx, params }) =>
    retryDelivery(ctx, params.id, params.deliveryId),
  ),
);
