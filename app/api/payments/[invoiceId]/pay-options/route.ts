import { defineRoute, methods } from "@/lib/http/route";
import { payOptions } from "@/lib/services/payments/pay-options";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getPayOptions, ({ ctx, params, query }) =>
    payOptions(ctx, params.invoiceId, query.account),
  ),
);
