import { defineRoute, methods } from "@/lib/http/route";
import { clientPortalSessions, revokeClientPortalSessions } from "@/lib/services/portal/owner";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.listClientPortalSessions, ({ ctx, params }) =>
    clientPortalSessions(ctx, params.id),
  ),
  defineRoute(spec.revokeClientPortalSessions, ({ ctx, params }) =>
    revokeClientPortalSessions(ctx, params.id),
  ),
);
