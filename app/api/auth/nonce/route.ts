import { methods, publicEndpoint, reply } from "@/lib/http/endpoint";
import { sameInBothForms } from "@/lib/http/forms";
import { nonceRequestSchema } from "@/lib/schemas/auth";
import { createNonce, INVALID_ADDRESS } from "@/lib/services/auth/nonce";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: publicEndpoint(async ({ ctx, body }) => {
    const input = await body(nonceRequestSchema, INVALID_ADDRESS);
    return reply(await createNonce(ctx, input), sameInBothForms());
  }),
});
