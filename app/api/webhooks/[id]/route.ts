import { authedEndpoint, methods, reply } from "@/lib/http/endpoint";
import { webhookDeletedSerializer } from "@/lib/serializers/webhooks";
import { deleteWebhook } from "@/lib/webhooks/subscriptions";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  /** Owner only: 403 `Unauthorized` for another wallet's endpoint, 404 for an unknown one. */
  DELETE: authedEndpoint<{ id: string }>(async ({ ctx, params }) => {
    await deleteWebhook(ctx, params.id);
    return reply({ id: params.id }, webhookDeletedSerializer);
  }),
});
