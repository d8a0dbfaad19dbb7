import { cronEndpoint, methods, reply } from "@/lib/http/endpoint";
import { sameInBothForms } from "@/lib/http/forms";
import { deliverWebhooks } from "@/lib/jobs/deliver-webhooks";

/** Fans out new events and sends due webhook deliveries (Vercel Cron; guarded by CRON_SECRET). */
const run = cronEndpoint(async ({ ctx }) => reply(await deliverWebhooks(ctx), sameInBothForms()));

export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: run, POST: run });
