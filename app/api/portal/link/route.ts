import { defineRoute, methods, rawReply } from "@/lib/http/route";
import { PORTAL_LINK_SENT } from "@/lib/schemas/portal";
import { requestPortalLink } from "@/lib/services/portal/link";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.requestPortalLink, async ({ ctx, body }) => {
    await requestPortalLink(ctx, body);
    return rawReply(Response.json({ message: PORTAL_LINK_SENT }, { status: 202 }));
  }),
);
