import type { DbOrTx } from "@/db/client";
import { events } from "@/db/schema";
import { newEventId } from "@/lib/ids";
import { EVENT_DATA, type EventPayload } from "@/lib/schemas/events";
import { z } from "@/lib/zod";

/**
 * The outbox insert (docs/decisions.md, Webhooks; ARCHITECTURE.md, "Add an event"): the one
 * place an event row is written. Its `data` is parsed by its type's schema first
 * (`EVENT_DATA`, lib/schemas/events.ts, the same objects the OpenAPI document shows), so what
 * is delivered and what is documented cannot drift.
 *
 * A payload its schema refuses, or a type without a schema, throws `EventPayloadError`
 * before anything is written. Callers write events in the transaction of the change that
 * causes them, so the throw rolls that whole change back and the request answers 500 (or the
 * job's run fails and is logged): a bug in a builder stops the change rather than sending,
 * or silently dropping, an event receivers cannot rely on. Tests hit it, not production.
 */

/** An event as the outbox takes it. Nothing here needs an invoice row. */
export type OutboxEvent = EventPayload & {
  /** The wallet whose webhook subscriptions receive it. */
  wallet: string;
  /** The invoice or payment link it is about (deliveries keep its order), or null. */
  invoiceId: string | null;
  /** When it happened: the caller's ctx.now() (or the ledger's time). */
  at: Date;
};

/** A payload that its type's schema refuses (or a type with none): a bug, never input. */
export class EventPayloadError extends Error {
  override name = "EventPayloadError";
}

/** The `data` the outbox stores for `event`: parsed by its type's schema, or a throw. */
export function eventData(event: EventPayload): Record<string, unknown> {
  const schema: z.ZodObject | undefined = Object.hasOwn(EVENT_DATA, event.type)
    ? EVENT_DATA[event.type]
    : undefined;
  if (!schema) throw new EventPayloadError(`Unknown event type: ${String(event.type)}`);
  const parsed = schema.safeParse(event.data);
  if (!parsed.success) {
    throw new EventPayloadError(
      `${event.type} data does not match its schema:\n${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}

/** Writes `event` to the outbox in `tx` (the transaction of its cause); returns its id. */
export async function writeEvent(tx: DbOrTx, event: OutboxEvent): Promise<string> {
  const data = eventData(event);
  const id = newEventId();
  await tx.insert(events).values({
    id,
    type: event.type,
    wallet: event.wallet,
    invoiceId: event.invoiceId,
    data,
    createdAt: event.at,
  });
  return id;
}
