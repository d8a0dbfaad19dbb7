import { defineRoute, methods } from "@/lib/http/route";
import { getOwnerQuote } from "@/lib/services/quotes/quotes";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getOwnerQuote, ({ ctx, params }) => getOwnerQuote(ctx, params.id)),
);
