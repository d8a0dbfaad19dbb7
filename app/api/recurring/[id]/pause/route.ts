import { defineRoute, methods } from "@/lib/http/route";
import { pauseRecurring } from "@/lib/services/recurring/schedules";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.pauseRecurring, ({ ctx, params }) => pauseRecurring(ctx, params.id)),
);
