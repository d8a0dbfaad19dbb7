import { methods, publicEndpoint, reply } from "@/lib/http/endpoint";
import { confirmSchema } from "@/lib/schemas/payments";
import { confirmSerializer } from "@/lib/serializers/payments";
import { confirmPayment } from "@/lib/services/payments/settle";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: publicEndpoint(async ({ ctx, body }) => {
    const input = await body(confirmSchema);
    return reply(await confirmPayment(ctx, input), confirmSerializer);
  }),
});
