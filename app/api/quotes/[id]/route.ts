import { defineRoute, methods } from "@/lib/http/route";
import { deleteQuote, getPublicQuote, updateQuote } from "@/lib/services/quotes/quotes";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getPublicQuote, ({ ctx, params }) => getPublicQuote(ctx, params.id)),
  defineRoute(spec.updateQuote, ({ ctx, params, body }) => updateQuote(ctx, params.id, body)),
  defineRoute(spec.deleteQuote, async ({ ctx, params }) => {
    await deleteQuote(ctx, params.id);
    return { id: params.id };
  }),
);
