import { defineRoute, methods, rawReply } from "@/lib/http/route";
import { createSession } from "@/lib/services/auth/create-session";
import { revokeSession } from "@/lib/services/auth/sessions";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.createSession, ({ ctx, body }) => createSession(ctx, body)),
  defineRoute(spec.getSession, async ({ ctx }) => ({ walletAddress: ctx.wallet })),
  defineRoute(spec.deleteSession, async ({ ctx }) => {
    if (ctx.session) await revokeSession(ctx, ctx.session);
    return rawReply(new Response(null, { status: 204 }));
  }),
);
