import { defaultPageSize } from "@/lib/http/forms";
import { defineRoute, methods } from "@/lib/http/route";
import { createQuote, listQuotes } from "@/lib/services/quotes/quotes";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.createQuote, ({ ctx, body }) => createQuote(ctx, body)),
  defineRoute(spec.listQuotes, ({ ctx, query, form }) =>
    listQuotes(ctx, { ...query, defaultLimit: defaultPageSize(form) }),
  ),
);
