import { defaultPageSize } from "@/lib/http/forms";
import { defineRoute, methods } from "@/lib/http/route";
import { listEvents } from "@/lib/services/events/list-events";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.listEvents, ({ ctx, query, form }) =>
    listEvents(ctx, {
      limit: query.limit ?? defaultPageSize(form),
      startingAfter: query.starting_after,
      type: query.type,
    }),
  ),
);
