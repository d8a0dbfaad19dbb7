import { defineRoute, methods, reply } from "@/lib/http/route";
import { submitPendingSerializer } from "@/lib/serializers/payments";
import { submitPayment } from "@/lib/services/payments/settle";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.submitPayment, async ({ ctx, body }) => {
    const outcome = await submitPayment(ctx, {
      invoiceId: body.invoiceId,
      envelopeXdr: (body.signedTransactionXdr ?? body.signedXdr) as string,
    });
    return outcome.kind === "pending" ? reply(outcome, submitPendingSerializer, 202) : outcome;
  }),
);
