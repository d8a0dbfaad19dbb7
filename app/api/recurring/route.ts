import { defineRoute, methods } from "@/lib/http/route";
import { createRecurring, listRecurring } from "@/lib/services/recurring/schedules";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.listRecurring, ({ ctx }) => listRecurring(ctx)),
  defineRoute(spec.createRecurring, ({ ctx, body }) => createRecurring(ctx, body)),
);
