import { defineRoute, methods } from "@/lib/http/route";
import { createPaymentIntent } from "@/lib/services/payments/pay-intent";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.createPaymentIntent, ({ ctx, params, body }) =>
    createPaymentIntent(ctx, params.invoiceId, {
      sender: body.senderPublicKey ?? body.payerAddress,
      networkPassphrase: body.networkPassphrase,
    }),
  ),
);
