import { defineRoute, methods } from "@/lib/http/route";
import { listLinkPayments } from "@/lib/services/links/checkout";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.listLinkPayments, ({ ctx, params }) => listLinkPayments(ctx, params.id)),
);
