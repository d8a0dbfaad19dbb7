import { defineRoute, methods } from "@/lib/http/route";
import { getOwnProfile, putProfile } from "@/lib/services/profile/profile";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.getProfile, ({ ctx }) => getOwnProfile(ctx)),
  defineRoute(spec.putProfile, ({ ctx, body }) => putProfile(ctx, body)),
);
