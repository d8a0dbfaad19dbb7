import { defineRoute, methods } from "@/lib/http/route";
import { revokeApiKey } from "@/lib/services/auth/api-keys";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.revokeApiKey, ({ ctx, params }) => revokeApiKey(ctx, params.id)),
);
