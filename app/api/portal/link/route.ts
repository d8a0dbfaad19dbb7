import { defineRoute, methods } from "@/lib/http/route";
import { PORTAL_LINK_SENT } from "@/lib/schemas/portal";
import { requestPortalLink } from "@/lib/services/portal/link";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.requestPortalLink, async ({ ctx, body }) => {
    await requestPortalLink(ctx, body);
    return { message: PORTAL_LINK_SENT } as const;
  }),
);
