import { defineRoute, methods } from "@/lib/http/route";
import { createRefund } from "@/lib/services/refunds/create-refund";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.createRefund, ({ ctx, params, body }) =>
    createRefund(ctx, params.id, params.paymentId, { amount: body?.amount }),
  ),
);
