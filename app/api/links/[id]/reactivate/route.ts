import { defineRoute, methods } from "@/lib/http/route";
import { reactivateLink } from "@/lib/services/links/manage";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.reactivateLink, ({ ctx, params }) => reactivateLink(ctx, params.id)),
);
