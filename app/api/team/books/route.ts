import { defineRoute, methods } from "@/lib/http/route";
import { listBooks } from "@/lib/services/team/team";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.listTeamBooks, ({ ctx }) => listBooks(ctx)),
);
