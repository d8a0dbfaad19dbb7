import { defineRoute, methods, rawReply } from "@/lib/http/route";
import { signInWithLink } from "@/lib/services/portal/link";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.portalSignIn, async ({ ctx, query }) => {
    const signedIn = await signInWithLink(ctx, query.token);
    const headers = new Headers({
      location: `${ctx.config.appUrl}/portal${signedIn ? "" : "?link=expired"}`,
      "referrer-policy": "no-referrer",
    });
    if (signedIn) headers.set("set-cookie", signedIn.setCookie);
    return rawReply(new Response(null, { status: 303, headers }));
  }),
);
