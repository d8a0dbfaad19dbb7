import { defineRoute, methods } from "@/lib/http/route";
import { createCreditNote } from "@/lib/services/credit-notes/credit-notes";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.createCreditNote, ({ ctx, params, body }) =>
    createCreditNote(ctx, params.id, body),
  ),
);
