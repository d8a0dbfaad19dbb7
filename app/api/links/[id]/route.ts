import { defineRoute, methods } from "@/lib/http/route";
import { getLink } from "@/lib/services/links/links";
import { updateLink } from "@/lib/services/links/manage";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getLink, ({ ctx, params }) => getLink(ctx, params.id)),
  defineRoute(spec.updateLink, ({ ctx, params, body }) => updateLink(ctx, params.id, body)),
);
