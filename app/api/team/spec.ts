import { ConflictError, ValidationError } from "@/lib/domain/errors";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { inviteMemberSchema } from "@/lib/schemas/team";
import { EXAMPLE_WALLET } from "@/lib/schemas/wire";
import { teamListSerializer, teamMemberSerializer } from "@/lib/serializers/team";
import { ALREADY_INVITED, NOT_YOURSELF } from "@/lib/services/team/team";

export const listTeam = operation({
  method: "GET",
  path: "/api/team",
  operationId: "listTeam",
  tag: "Team",
  summary: "List the team",
  description:
    "The wallets invited to the signed-in wallet's books, newest first, with their role and state (`pending`, `active`, `expired`, `revoked`). The owner only.",
  auth: "authed",
  responses: [{ status: 200, description: "The team", serializer: teamListSerializer }],
});

export const inviteTeamMember = operation({
  method: "POST",
  path: "/api/team",
  operationId: "inviteTeamMember",
  tag: "Team",
  summary: "Invite a wallet to the books",
  description:
    "Invites another wallet as `accountant` (reads) or `member` (reads and writes, but API keys, webhooks, the profile, the team and refunds). The invited wallet signs in as itself, lists its books (`GET /api/team/books`) and opens them (`POST /api/team/books/{owner}/session`) within 7 days; an invitation not accepted by then is `expired` and may be sent again. The owner only.",
  auth: "authed",
  body: {
    schema: inviteMemberSchema,
    examples: {
      request: { summary: "Request", value: { wallet: EXAMPLE_WALLET, role: "accountant" } },
    },
  },
  responses: [{ status: 201, description: "The invitation", serializer: teamMemberSerializer }],
  errors: [
    new ValidationError(INVALID_REQUEST, {
      wallet: "wallet must be a Stellar account address (G..., 56 characters)",
    }),
    new ValidationError(NOT_YOURSELF, { wallet: "must be another wallet than your own" }),
    new ConflictError(ALREADY_INVITED, {
      wallet: "already invited: change its role or revoke it",
    }),
  ],
});
