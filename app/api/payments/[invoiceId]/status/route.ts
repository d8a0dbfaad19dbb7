import { methods, publicEndpoint, reply } from "@/lib/http/endpoint";
import { paymentStatusSerializer } from "@/lib/serializers/payments";
import { getPaymentStatus } from "@/lib/services/payments/settle";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: publicEndpoint<{ invoiceId: string }>(
    async ({ ctx, params }) =>
      reply(await getPaymentStatus(ctx, params.invoiceId), paymentStatusSerializer),
    { internalError: "Failed to fetch payment status" },
  ),
});
