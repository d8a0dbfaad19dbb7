import { clientIp } from "@/lib/http/client-ip";
import { defineRoute, methods } from "@/lib/http/route";
import { acceptQuote } from "@/lib/services/quotes/accept";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.acceptQuote, ({ ctx, params, body, request }) =>
    acceptQuote(ctx, params.id, { name: body.name, ip: clientIp(request.headers, ctx.config) }),
  ),
);
