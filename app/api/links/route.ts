import { defineRoute, methods } from "@/lib/http/route";
import { createLink, listLinks } from "@/lib/services/links/links";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.createLink, ({ ctx, body }) => createLink(ctx, body)),
  defineRoute(spec.listLinks, ({ ctx }) => listLinks(ctx)),
);
