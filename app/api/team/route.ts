import { defineRoute, methods } from "@/lib/http/route";
import { inviteMember, listTeam } from "@/lib/services/team/team";
import * as spec from "./spec";

export const { GET, POST, PUT, PATCH, DELETE } = methods(
  defineRoute(spec.listTeam, ({ ctx }) => listTeam(ctx)),
  defineRoute(spec.inviteTeamMember, ({ ctx, body }) => inviteMember(ctx, body)),
);
