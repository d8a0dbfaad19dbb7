import { defaultPageSize } from "@/lib/http/forms";
import { defineRoute, methods } from "@/lib/http/route";
import { listDeliveries } from "@/lib/webhooks/deliveries";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.listWebhookDeliveries, ({ ctx, params, query, form }) =>
    listDeliveries(ctx, params.id, {
      limit: query.limit ?? defaultPageSize(form),
      offset: query.offset,
    }),
  ),
);
