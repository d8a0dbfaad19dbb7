import { defineRoute, methods } from "@/lib/http/route";
import { duplicateInvoice } from "@/lib/services/invoices/duplicate-invoice";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.duplicateInvoice, ({ ctx, params }) => duplicateInvoice(ctx, params.id)),
);
