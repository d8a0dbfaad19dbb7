import { defineRoute, methods } from "@/lib/http/route";
import { voidManualPayment } from "@/lib/services/payments/manual-payment";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.voidManualPayment, ({ ctx, params }) =>
    voidManualPayment(ctx, params.id, params.paymentId),
  ),
);
