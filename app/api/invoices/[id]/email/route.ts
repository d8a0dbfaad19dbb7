import { defineRoute, methods } from "@/lib/http/route";
import { resendInvoiceEmail } from "@/lib/services/email/invoice-email";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.resendInvoiceEmail, ({ ctx, params, body }) =>
    resendInvoiceEmail(ctx, params.id, body),
  ),
);
