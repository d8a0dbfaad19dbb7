import { defineRoute, methods } from "@/lib/http/route";
import { resumeRecurring } from "@/lib/services/recurring/schedules";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.resumeRecurring, ({ ctx, params }) => resumeRecurring(ctx, params.id)),
);
