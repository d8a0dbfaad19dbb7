import { defineRoute, methods } from "@/lib/http/route";
import { getOwnerInvoice } from "@/lib/services/invoices/view-invoice";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getOwnerInvoice, ({ ctx, params }) => getOwnerInvoice(ctx, params.id)),
);
