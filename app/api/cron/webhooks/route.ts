import { defineRoute, methods } from "@/lib/http/route";
import { deliverWebhooks } from "@/lib/jobs/deliver-webhooks";
import * as spec from "./spec";

/** Fans out new events and sends due webhook deliveries (Vercel Cron; guarded by CRON_SECRET). */
export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.cronWebhooks, ({ ctx }) => deliverWebhooks(ctx)),
);
