import { defineRoute, methods } from "@/lib/http/route";
import { listInvoiceEmails } from "@/lib/services/email/invoice-email";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.listInvoiceEmails, ({ ctx, params }) => listInvoiceEmails(ctx, params.id)),
);
