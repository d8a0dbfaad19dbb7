import { READ_SCOPES } from "@/lib/domain/api-key-scopes";
import { operation } from "@/lib/http/route";
import { listEventsQuerySchema } from "@/lib/schemas/events";
import { eventPageSerializer } from "@/lib/serializers/events";
import { unknownCursor } from "@/lib/services/events/list-events";

export const listEvents = operation({
  method: "GET",
  path: "/api/events",
  operationId: "listEvents",
  tag: "Webhooks",
  summary: "Your events of the last 30 days",
  description:
    "The events your webhooks receive, newest first, so an integration can catch up after downtime: each is the webhook body `{id, type, created, data}` plus `createdAt` and `invoiceId`. Page with `starting_after` = the last event id of the previous page while `hasMore` is true; `type` keeps one event type. `limit` defaults to 50 in Form B and 20 in Form A (max 100). An unknown `starting_after`, or another wallet's event, is a 400 (`details.starting_after`). Through a restricted key, only the events of invoices and links on the key's network.",
  auth: "authed",
  scope: READ_SCOPES,
  query: listEventsQuerySchema,
  responses: [{ status: 200, description: "One page of events", serializer: eventPageSerializer }],
  errors: [unknownCursor()],
});
