import { NotFoundError, ValidationError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { changeRoleSchema } from "@/lib/schemas/team";
import { idPath } from "@/lib/schemas/wire";
import { teamMemberSerializer } from "@/lib/serializers/team";
import { TEAM_MEMBER_NOT_FOUND } from "@/lib/services/team/team";

const notFound = new NotFoundError(TEAM_MEMBER_NOT_FOUND);

export const changeTeamRole = operation({
  method: "PATCH",
  path: "/api/team/{id}",
  operationId: "changeTeamRole",
  tag: "Team",
  summary: "Change a team member's role",
  description:
    "Applies from the member's next request. Another owner's row is 404. The owner only.",
  auth: "authed",
  params: idPath,
  body: {
    schema: changeRoleSchema,
    examples: { request: { summary: "Request", value: { role: "member" } } },
  },
  responses: [{ status: 200, description: "The row", serializer: teamMemberSerializer }],
  errors: [
    new ValidationError("This access was revoked: invite the wallet again", { id: "revoked" }),
    notFound,
  ],
});

export const revokeTeamMember = operation({
  method: "DELETE",
  path: "/api/team/{id}",
  operationId: "revokeTeamMember",
  tag: "Team",
  summary: "Revoke a team member or an invitation",
  description:
    "The member's next request on these books is 403, on every instance (the membership is read on every request). Revoking again answers the same; another owner's row is 404. The owner only.",
  auth: "authed",
  params: idPath,
  responses: [{ status: 200, description: "The revoked row", serializer: teamMemberSerializer }],
  errors: [notFound],
});
