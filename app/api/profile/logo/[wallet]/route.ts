import { defineRoute, methods, rawReply } from "@/lib/http/route";
import { getPublicLogo } from "@/lib/services/profile/profile";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getProfileLogo, async ({ ctx, params }) => {
    const logo = await getPublicLogo(ctx.db, params.wallet);
    return rawReply(
      new Response(new Uint8Array(logo.data), {
        headers: {
          "content-type": logo.type,
          "content-length": String(logo.data.length),
          "content-disposition": "inline",
          "x-content-type-options": "nosniff",
          // An SVG opened on its own: no script, no loads (docs/decisions.md, Profile).
          "content-security-policy": "sandbox; default-src 'none'; style-src 'unsafe-inline'",
          "cache-control": "public, max-age=86400",
        },
      }),
    );
  }),
);
