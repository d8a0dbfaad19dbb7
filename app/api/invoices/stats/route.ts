import { defineRoute, methods } from "@/lib/http/route";
import { getInvoiceStats } from "@/lib/services/invoices/invoice-stats";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getInvoiceStats, ({ ctx, query }) => getInvoiceStats(ctx, query)),
);
