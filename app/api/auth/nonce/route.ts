import { defineRoute, methods } from "@/lib/http/route";
import { createNonce } from "@/lib/services/auth/nonce";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.createNonce, ({ ctx, body }) => createNonce(ctx, body)),
);
