import { defineRoute, methods } from "@/lib/http/route";
import { getPaymentStatus } from "@/lib/services/payments/settle";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getPaymentStatus, ({ ctx, params }) => getPaymentStatus(ctx, params.invoiceId)),
);
