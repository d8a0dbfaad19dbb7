import { defineRoute, methods } from "@/lib/http/route";
import { sendClientStatement } from "@/lib/services/portal/owner";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.sendClientStatement, ({ ctx, params, body }) =>
    sendClientStatement(ctx, params.id, body),
  ),
);
