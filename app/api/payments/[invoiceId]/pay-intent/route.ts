import { defineRoute, methods } from "@/lib/http/route";
import { createPaymentIntent } from "@/lib/services/payments/pay-intent";
import { pathAsset } from "@/lib/stellar/paths";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.createPaymentIntent, ({ ctx, params, body }) =>
    createPaymentIntent(ctx, params.invoiceId, {
      sender: body.senderPublicKey ?? body.payerAddress,
      feeAccount: body.feeAccount,
      networkPassphrase: body.networkPassphrase,
      sendAsset: body.sendAsset && pathAsset(body.sendAsset),
    }),
  ),
);
