import { methods, publicEndpoint, reply } from "@/lib/http/endpoint";
import { payIntentPolicy } from "@/lib/ratelimit/policies";
import { payIntentSchema } from "@/lib/schemas/payments";
import { paymentIntentSerializer } from "@/lib/serializers/payments";
import { createPaymentIntent } from "@/lib/services/payments/pay-intent";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: publicEndpoint<{ invoiceId: string }>(async ({ ctx, params, body, limit, subject }) => {
    await limit(payIntentPolicy(ctx.config), subject);
    const input = await body(payIntentSchema);
    const intent = await createPaymentIntent(ctx, params.invoiceId, {
      sender: input.senderPublicKey ?? input.payerAddress,
      networkPassphrase: input.networkPassphrase,
    });
    return reply(intent, paymentIntentSerializer);
  }),
});
