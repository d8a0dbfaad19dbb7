import { defineRoute, methods } from "@/lib/http/route";
import { createSession } from "@/lib/services/auth/create-session";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.createSession, ({ ctx, body }) => createSession(ctx, body)),
  defineRoute(spec.getSession, async ({ ctx }) => ({ walletAddress: ctx.wallet })),
);
