import { defineRoute, methods, reply } from "@/lib/http/route";
import { refundSerializer } from "@/lib/serializers/refunds";
import { submitRefund } from "@/lib/services/refunds/submit-refund";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.submitRefund, async ({ ctx, body }) => {
    const outcome = await submitRefund(ctx, {
      refundId: body.refundId,
      envelopeXdr: body.signedTransactionXdr,
    });
    return outcome.kind === "pending"
      ? reply(outcome.refund, refundSerializer, 202)
      : outcome.refund;
  }),
);
