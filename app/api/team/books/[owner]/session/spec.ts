import { ForbiddenError, NotFoundError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { ownerPath } from "@/lib/schemas/team";
import { booksSessionSerializer } from "@/lib/serializers/team";
import { BOOKS_NOT_FOUND, INVITATION_EXPIRED } from "@/lib/services/team/team";

export const openTeamBooks = operation({
  method: "POST",
  path: "/api/team/books/{owner}/session",
  operationId: "openTeamBooks",
  tag: "Team",
  summary: "Open another wallet's books",
  description:
    "Accepts the invitation the first time, then answers a new session token (one hour, like a sign-in) whose `books` claim names the owner: every signed-in operation called with it acts on the owner's books as the member, within the role, audited with the member's wallet. The membership is checked on every request: once revoked, the token is 403. Signed in as oneself (not with a books token or an API key).",
  auth: "authed",
  params: ownerPath,
  responses: [{ status: 200, description: "A books token", serializer: booksSessionSerializer }],
  errors: [new ForbiddenError(INVITATION_EXPIRED), new NotFoundError(BOOKS_NOT_FOUND)],
});
