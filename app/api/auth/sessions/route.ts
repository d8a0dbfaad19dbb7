import { defineRoute, methods, rawReply } from "@/lib/http/route";
import { revokeAllSessions } from "@/lib/services/auth/sessions";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.deleteSessions, async ({ ctx }) => {
    await revokeAllSessions(ctx, ctx.wallet);
    return rawReply(new Response(null, { status: 204 }));
  }),
);
