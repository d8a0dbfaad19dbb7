import { methods, publicEndpoint, reply } from "@/lib/http/endpoint";
import { submitSchema } from "@/lib/schemas/payments";
import { submitSerializer } from "@/lib/serializers/payments";
import { submitPayment } from "@/lib/services/payments/settle";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: publicEndpoint(
    async ({ ctx, body }) => {
      const input = await body(submitSchema);
      const outcome = await submitPayment(ctx, {
        invoiceId: input.invoiceId,
        envelopeXdr: (input.signedTransactionXdr ?? input.signedXdr) as string,
      });
      return reply(outcome, submitSerializer, outcome.kind === "pending" ? 202 : 200);
    },
    { internalError: "Payment processing failed", idempotent: true },
  ),
});
