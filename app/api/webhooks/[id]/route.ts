import { defineRoute, methods } from "@/lib/http/route";
import { deleteWebhook } from "@/lib/webhooks/subscriptions";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.deleteWebhook, async ({ ctx, params }) => {
    await deleteWebhook(ctx, params.id);
    return { id: params.id };
  }),
);
