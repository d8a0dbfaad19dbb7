import { operation } from "@/lib/http/route";
import { booksListSerializer } from "@/lib/serializers/team";

export const listTeamBooks = operation({
  method: "GET",
  path: "/api/team/books",
  operationId: "listTeamBooks",
  tag: "Team",
  summary: "The books this wallet may open",
  description:
    "Other wallets' books the signed-in wallet is invited to: the owner, its business name, the role and the state (`pending`, `active`, `expired`). Signed in as oneself (not with a books token or an API key).",
  auth: "authed",
  responses: [{ status: 200, description: "The books", serializer: booksListSerializer }],
});
