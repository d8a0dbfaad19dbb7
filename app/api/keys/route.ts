import { defineRoute, methods } from "@/lib/http/route";
import { createApiKey, listApiKeys } from "@/lib/services/auth/api-keys";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.createApiKey, ({ ctx, body }) => createApiKey(ctx, body)),
  defineRoute(spec.listApiKeys, ({ ctx }) => listApiKeys(ctx)),
);
