import { defineRoute, methods } from "@/lib/http/route";
import { deactivateLink } from "@/lib/services/links/manage";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.deactivateLink, ({ ctx, params }) => deactivateLink(ctx, params.id)),
);
