import { defineRoute, methods } from "@/lib/http/route";
import { deleteRecurring, getRecurring, updateRecurring } from "@/lib/services/recurring/schedules";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getRecurring, ({ ctx, params }) => getRecurring(ctx, params.id)),
  defineRoute(spec.updateRecurring, ({ ctx, params, body }) =>
    updateRecurring(ctx, params.id, body),
  ),
  defineRoute(spec.deleteRecurring, async ({ ctx, params }) => {
    await deleteRecurring(ctx, params.id);
    return { id: params.id };
  }),
);
