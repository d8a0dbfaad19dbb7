import { z } from "zod";
import { EVENT_TYPES } from "@/lib/domain/invoice-state";
import { id, int, timestamp, wire } from "./wire";

/**
 * `GET /api/events` (docs/decisions.md, Events): the wallet's events of the last 30 days,
 * newest first, a cursor page at a time.
 */

export const EVENT_ID = /^evt_[a-z0-9]{20,40}$/;
export const UNKNOWN_EVENT_TYPE = `Unknown event type. Use one of ${EVENT_TYPES.join(", ")}`;

export const listEventsQuerySchema = z
  .object({
    limit: z.coerce
      .number({ error: "limit must be a whole number from 1 to 100" })
      .int("limit must be a whole number from 1 to 100")
      .min(1, "limit must be a whole number from 1 to 100")
      .max(100, "limit must be a whole number from 1 to 100")
      .optional()
      .meta({ description: "Events per page, 1 to 100 (default 20 in Form A, 50 in Form B)" }),
    starting_after: z
      .string()
      .regex(EVENT_ID, "starting_after must be an event id (evt_...)")
      .optional()
      .meta({
        description:
          "An event id from the previous page (its last one): the page continues after it, older events",
        example: "evt_clx8f2k9p0000abcd1234efgh",
      }),
    type: z
      .enum(EVENT_TYPES, { error: UNKNOWN_EVENT_TYPE })
      .optional()
      .meta({ description: "Only events of this type" }),
  })
  .strict();

export type ListEventsQuery = z.infer<typeof listEventsQuerySchema>;

// ---- responses (lib/serializers/events.ts) -------------------------------------------------

const event = z
  .object({
    id: z.string().regex(/^evt_/).meta({
      description: "Event id (`evt_...`), the same as the webhook delivery's `id`",
      example: "evt_clx8f2k9p0000abcd1234efgh",
    }),
    type: z.enum(EVENT_TYPES),
    created: int.meta({
      description: "Unix time in seconds, as in the webhook body",
      example: 1768473000,
    }),
    data: z.record(z.string(), z.unknown()).meta({
      description:
        "The event's fields, exactly what the webhook delivery of the event carries (see the webhook events of this document for each type)",
    }),
    createdAt: timestamp,
    invoiceId: id.nullable().meta({ description: "The invoice (or payment link) it is about" }),
  })
  .meta({
    id: "Event",
    description:
      "The webhook envelope `{id, type, created, data}`, plus `createdAt` and `invoiceId`",
  });

export const eventPage = wire(
  "EventPage",
  z.object({
    events: z.array(event),
    limit: int,
    hasMore: z.boolean().meta({ description: "More (older) events after the last one" }),
  }),
);
