import { successBody } from "@/lib/http/forms";
import { defineRoute, methods, rawReply } from "@/lib/http/route";
import { portalWalletSerializer } from "@/lib/serializers/portal";
import { walletPortalSession } from "@/lib/services/portal/wallet";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.portalWalletSession, async ({ ctx, body, form }) => {
    const result = await walletPortalSession(ctx, body);
    const { setCookie, ...answer } =
      result.status === "signed_in" ? result : { ...result, setCookie: null };
    const wire = { appUrl: ctx.config.appUrl, now: ctx.now() };
    // The answer in the caller's form, with the session cookie when signed in.
    return rawReply(
      Response.json(successBody(form, answer, portalWalletSerializer, wire), {
        headers: setCookie ? { "set-cookie": setCookie } : {},
      }),
    );
  }),
);
