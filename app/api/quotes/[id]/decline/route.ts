import { defineRoute, methods } from "@/lib/http/route";
import { declineQuote } from "@/lib/services/quotes/accept";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.declineQuote, ({ ctx, params, body }) =>
    declineQuote(ctx, params.id, { reason: body?.reason }),
  ),
);
