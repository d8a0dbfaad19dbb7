import { defineRoute, methods } from "@/lib/http/route";
import { buildTrustline } from "@/lib/services/payments/trustline";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.buildTrustline, ({ ctx, body }) => buildTrustline(ctx, body)),
);
