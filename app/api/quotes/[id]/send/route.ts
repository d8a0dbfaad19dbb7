import { defineRoute, methods } from "@/lib/http/route";
import { sendQuote } from "@/lib/services/quotes/quotes";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.sendQuote, ({ ctx, params }) => sendQuote(ctx, params.id)),
);
