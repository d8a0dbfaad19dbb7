import { defineRoute, methods } from "@/lib/http/route";
import { getCreditNote } from "@/lib/services/credit-notes/credit-notes";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getCreditNote, async ({ ctx, params }) => {
    const { note, invoice } = await getCreditNote(ctx, params.id);
    return { ...note, invoiceNumber: invoice.invoiceNumber };
  }),
);
