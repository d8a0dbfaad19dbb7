import { defineRoute, methods } from "@/lib/http/route";
import { openBooks } from "@/lib/services/team/team";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.openTeamBooks, ({ ctx, params }) => openBooks(ctx, params.owner)),
);
