import type { ZodOpenApiPathsObject } from "zod-openapi";
import {
  DELIVERED_EVENT_TYPES,
  type DeliveredEventType,
  EVENT_ENVELOPES,
  EVENT_WHEN,
  PING_EVENT,
} from "@/lib/schemas/events";
import {
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  SIGNATURE_TOLERANCE_SECONDS,
  SIGNATURE_V2_HEADER,
  TIMESTAMP_HEADER,
} from "@/lib/webhooks/sign";
import { z } from "@/lib/zod";

/**
 * Webhook events for the OpenAPI 3.1 `webhooks` section. The envelope and each type's `data`
 * are the schemas the outbox parses every event with (lib/schemas/events.ts), so the
 * document is what is sent; this file adds only the delivery's headers and wording.
 */

const deliveryHeaders = z.object({
  [SIGNATURE_HEADER]: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .meta({
      description:
        "Lowercase hex HMAC-SHA256 of the raw request body, keyed with the endpoint's current secret (`whsec_...`, shown once when the webhook is created or its secret rotated, or WEBHOOK_SECRET). Compare in constant time; answer 401 on a mismatch. It does not cover the time: prefer the V2 header, which also stops replays.",
    }),
  [SIGNATURE_V2_HEADER]: z
    .string()
    .regex(/^t=\d+(,v1=[0-9a-f]{64})+$/)
    .meta({
      description: `\`t=<unix seconds>,v1=<hex>\`: each \`v1\` is the lowercase hex HMAC-SHA256 of \`<t>.<raw body>\` keyed with a secret of the endpoint. Accept the delivery when \`t\` is within ${SIGNATURE_TOLERANCE_SECONDS / 60} minutes of your clock and any \`v1\` matches (constant-time compare). For 24 hours after a secret rotation there are two \`v1\` entries, the new secret's first, then the old one's.`,
      example: "t=1768473000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd",
    }),
  [EVENT_ID_HEADER]: z.string().meta({ description: "The event id (same as `id` in the body)" }),
  [TIMESTAMP_HEADER]: z
    .string()
    .regex(/^\d+$/)
    .meta({ description: "Unix seconds of this delivery attempt" }),
});

/** To whom an event of `type` goes. */
function recipients(type: DeliveredEventType): string {
  return type === PING_EVENT
    ? "to the one endpoint tested"
    : `to every registered endpoint that asked for \`${type}\` (or \`*\`), at least once and in order per invoice`;
}

/** The OpenAPI 3.1 `webhooks` section: one entry per event type (the test event included). */
export function buildWebhooks(): ZodOpenApiPathsObject {
  return Object.fromEntries(
    DELIVERED_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(".", "_")}`,
          tags: ["Webhook events"],
          summary: type,
          description: `${EVENT_WHEN[type]}\n\nDelivered as an HTTP POST with a JSON body ${recipients(type)}. The service signs the exact bytes it sends: verify \`${SIGNATURE_V2_HEADER}\` (or the classic \`${SIGNATURE_HEADER}\`) over the raw body before parsing it.`,
          requestParams: { header: deliveryHeaders },
          requestBody: {
            required: true,
            content: { "application/json": { schema: EVENT_ENVELOPES[type] } },
          },
          responses: {
            "200": {
              description:
                "Any 2xx within 5 seconds acknowledges the event. Anything else (or no answer) is retried with exponential backoff for about three days.",
            },
          },
        },
      },
    ]),
  );
}
