import { defineRoute, methods, rawReply } from "@/lib/http/route";
import { signOutPortal } from "@/lib/services/portal/session";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.portalSignOut, async ({ ctx, request }) => {
    const setCookie = await signOutPortal(ctx, request);
    return rawReply(new Response(null, { status: 204, headers: { "set-cookie": setCookie } }));
  }),
);
