import type { events } from "@/db/schema";

export type EventRow = Pick<typeof events.$inferSelect, "id" | "type" | "data" | "createdAt">;

/**
 * The envelope of an event (docs/decisions.md, Webhooks): `{id, type, created, data}` with
 * `created` the event's Unix time in seconds. A delivery sends it as its body; `GET
 * /api/events` (lib/serializers/events.ts) answers it with a few more fields.
 */
export function envelopeOf(event: EventRow) {
  return {
    id: event.id,
    type: event.type,
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
