import { defineRoute, methods } from "@/lib/http/route";
import { recordManualPayment } from "@/lib/services/payments/manual-payment";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.recordManualPayment, ({ ctx, params, body }) =>
    recordManualPayment(ctx, params.id, body),
  ),
);
