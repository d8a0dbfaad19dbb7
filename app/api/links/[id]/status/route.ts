import { defineRoute, methods } from "@/lib/http/route";
import { getLink } from "@/lib/services/links/links";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getLinkStatus, ({ ctx, params }) => getLink(ctx, params.id)),
);
