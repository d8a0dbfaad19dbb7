import type { events } from "@/db/schema";
import type { DeliveredEventType, EventEnvelope } from "@/lib/schemas/events";

export type EventRow = Pick<typeof events.$inferSelect, "id" | "type" | "data" | "createdAt">;

/**
 * The envelope of an event (docs/decisions.md, Webhooks): `{id, type, created, data}` with
 * `created` the event's Unix time in seconds, typed by its one schema (`eventEnvelope`,
 * lib/schemas/events.ts). A delivery sends it as its body; `GET /api/events`
 * (lib/serializers/events.ts) answers it with a few more fields. `data` is sent as stored:
 * it was parsed by its type's schema when it entered the outbox (lib/services/events/outbox.ts).
 */
export function envelopeOf(event: EventRow): EventEnvelope {
  return {
    id: event.id,
    // writeEvent (lib/services/events/outbox.ts) stores no other type.
    type: event.type as DeliveredEventType,
    created: Math.floor(event.createdAt.getTime() / 1000),
    data: event.data,
  };
}

/**
 * The raw body of a delivery: the envelope, serialised once; these exact bytes are signed
 * and sent, and every retry of the event sends the same bytes.
 */
export function envelopeBody(event: EventRow): Buffer {
  return Buffer.from(JSON.stringify(envelopeOf(event)), "utf8");
}
