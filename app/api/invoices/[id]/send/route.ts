import { defineRoute, methods } from "@/lib/http/route";
import { sendInvoice } from "@/lib/services/invoices/change-status";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.sendInvoice, ({ ctx, params }) => sendInvoice(ctx, params.id)),
);
