import { defineRoute, methods } from "@/lib/http/route";
import { sendTestEvent } from "@/lib/webhooks/test-event";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.sendWebhookTestEvent, ({ ctx, params }) => sendTestEvent(ctx, params.id)),
);
