import { defineRoute, methods } from "@/lib/http/route";
import { createWebhook, listWebhooks } from "@/lib/webhooks/subscriptions";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.createWebhook, ({ ctx, body }) => createWebhook(ctx, body)),
  defineRoute(spec.listWebhooks, ({ ctx }) => listWebhooks(ctx)),
);
