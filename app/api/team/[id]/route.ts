import { defineRoute, methods } from "@/lib/http/route";
import { changeRole, revokeMember } from "@/lib/services/team/team";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.changeTeamRole, ({ ctx, params, body }) =>
    changeRole(ctx, params.id, body.role),
  ),
  defineRoute(spec.revokeTeamMember, ({ ctx, params }) => revokeMember(ctx, params.id)),
);
