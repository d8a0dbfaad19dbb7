import { defineRoute, methods, rawReply } from "@/lib/http/route";
import { walletPortalSession } from "@/lib/services/portal/wallet";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.portalWalletSession, async ({ ctx, body }) => {
    const result = await walletPortalSession(ctx, body);
    if (result.status === "choose") return rawReply(Response.json(result));
    const { setCookie, ...answer } = result;
    return rawReply(Response.json(answer, { headers: { "set-cookie": setCookie } }));
  }),
);
