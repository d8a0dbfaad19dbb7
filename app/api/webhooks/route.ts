import { authedEndpoint, methods, reply } from "@/lib/http/endpoint";
import { createWebhookSchema } from "@/lib/schemas/webhooks";
import { createdWebhookSerializer, webhookListSerializer } from "@/lib/serializers/webhooks";
import { createWebhook, listWebhooks } from "@/lib/webhooks/subscriptions";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  /** 201 with the signing secret, shown this once. */
  POST: authedEndpoint(async ({ ctx, body }) => {
    const input = await body(createWebhookSchema);
    return reply(await createWebhook(ctx, input), createdWebhookSerializer, 201);
  }),
  GET: authedEndpoint(async ({ ctx }) => reply(await listWebhooks(ctx), webhookListSerializer)),
});
