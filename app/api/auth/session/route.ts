import { authedEndpoint, methods, publicEndpoint, reply } from "@/lib/http/endpoint";
import { sameInBothForms } from "@/lib/http/forms";
import { sessionRequestSchema } from "@/lib/schemas/auth";
import { createSession } from "@/lib/services/auth/create-session";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  /** Exchange a signed nonce for a session token. */
  POST: publicEndpoint(async ({ ctx, body }) => {
    const input = await body(sessionRequestSchema);
    return reply(await createSession(ctx, input), sameInBothForms());
  }),
  /** Who am I: the wallet of the credentials sent (a protected endpoint to try a token on). */
  GET: authedEndpoint(async ({ ctx }) => reply({ walletAddress: ctx.wallet }, sameInBothForms())),
});
