import { defineRoute, methods } from "@/lib/http/route";
import { rotateWebhookSecret } from "@/lib/webhooks/subscriptions";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.rotateWebhookSecret, ({ ctx, params }) => rotateWebhookSecret(ctx, params.id)),
);
