import { defaultPageSize } from "@/lib/http/forms";
import { defineRoute, methods } from "@/lib/http/route";
import { listCreditNotes } from "@/lib/services/credit-notes/credit-notes";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.listCreditNotes, ({ ctx, query, form }) =>
    listCreditNotes(ctx, { ...query, defaultLimit: defaultPageSize(form) }),
  ),
);
