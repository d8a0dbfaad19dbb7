import { defineRoute, methods } from "@/lib/http/route";
import { cancelInvoice } from "@/lib/services/invoices/change-status";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.cancelInvoice, ({ ctx, params, body }) =>
    cancelInvoice(ctx, params.id, body?.reason),
  ),
);
