import { defineRoute, methods } from "@/lib/http/route";
import { submitTrustline } from "@/lib/services/payments/trustline";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.submitTrustline, ({ ctx, body }) => submitTrustline(ctx, body)),
);
