import { defineRoute, methods } from "@/lib/http/route";
import { portalSessionOf } from "@/lib/services/portal/session";
import { portalOverview } from "@/lib/services/portal/view";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getPortal, async ({ ctx, request }) =>
    portalOverview(ctx, await portalSessionOf(ctx, request)),
  ),
);
