import type { events } from "@/db/schema";

export type EventRow = Pick<typeof events.$inferSelect, "id" | "type" | "data" | "createdAt">;

/**
 * The raw body of a delivery (docs/decisions.md, Webhooks): `{id, type, created, data}` with
 * `created` the event's Unix time in seconds. Serialised once; these exact bytes are signed
 * and sent, and every retry of the event sends the same bytes.
 */
export function envelopeBody(event: EventRow): Buffer {
  const envelope = {
    id: event.id,
    type: event.type,
    created: Math.floor(event.createdAt.getTime() / 1000),
    data: event.data,
  };
  return Buffer.from(JSON.stringify(envelope), "utf8");
}
