import { defineRoute, methods } from "@/lib/http/route";
import { exportInvoices } from "@/lib/services/exports/invoices";
import { csvReply } from "../csv-reply";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.exportInvoices, async ({ ctx, query }) =>
    csvReply(exportInvoices(ctx, query), "invoices", query),
  ),
);
