import { parseWith } from "@/lib/http/body";
import { authedEndpoint, methods, reply } from "@/lib/http/endpoint";
import { defaultPageSize, queryObject } from "@/lib/http/forms";
import { listDeliveriesQuerySchema } from "@/lib/schemas/webhooks";
import { deliveryPageSerializer } from "@/lib/serializers/webhooks";
import { listDeliveries } from "@/lib/webhooks/deliveries";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  /** The delivery log of one endpoint, newest first (`limit`, `offset`). */
  GET: authedEndpoint<{ id: string }>(async ({ ctx, params, query, form }) => {
    const q = parseWith(listDeliveriesQuerySchema, queryObject(query));
    const page = await listDeliveries(ctx, params.id, {
      limit: q.limit ?? defaultPageSize(form),
      offset: q.offset,
    });
    return reply(page, deliveryPageSerializer);
  }),
});
