import { defineRoute, methods } from "@/lib/http/route";
import { exportCreditNotes } from "@/lib/services/exports/credit-notes";
import { csvReply } from "../csv-reply";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.exportCreditNotes, async ({ ctx, query }) =>
    csvReply(exportCreditNotes(ctx, query), "credit-notes", query),
  ),
);
