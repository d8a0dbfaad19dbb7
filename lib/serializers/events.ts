import { sameInBothForms } from "@/lib/http/forms";
import { eventPage } from "@/lib/schemas/events";
import type { FormB } from "@/lib/schemas/wire";
import type { EventListRow, EventPage } from "@/lib/services/events/list-events";
import { envelopeOf } from "@/lib/webhooks/envelope";

/**
 * An event as the webhook delivery's body has it (lib/webhooks/envelope.ts), plus its time as
 * ISO and its invoice: an integration can feed both to the same handler.
 */
const event = (e: EventListRow): FormB<typeof eventPage>["events"][number] => ({
  ...envelopeOf(e),
  createdAt: e.createdAt.toISOString(),
  invoiceId: e.invoiceId,
});

export const eventPageSerializer = sameInBothForms(
  eventPage,
  (p: EventPage): FormB<typeof eventPage> => ({
    events: p.events.map(event),
    limit: p.limit,
    hasMore: p.hasMore,
  }),
);
