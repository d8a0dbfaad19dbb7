import { defineRoute, methods } from "@/lib/http/route";
import { startCheckout } from "@/lib/services/links/checkout";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.startLinkCheckout, ({ ctx, params, body }) =>
    startCheckout(ctx, params.id, body),
  ),
);
