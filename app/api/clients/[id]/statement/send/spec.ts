import { NotFoundError, RateLimitedError, ValidationError } from "@/lib/domain/errors";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { COSTLY_MESSAGE } from "@/lib/ratelimit/policies";
import { statementSendRequestSchema } from "@/lib/schemas/portal";
import { idPath } from "@/lib/schemas/wire";
import { statementSentSerializer } from "@/lib/serializers/portal";
import { CLIENT_NOT_FOUND } from "@/lib/services/clients/manage-clients";
import { NO_CLIENT_ADDRESS } from "@/lib/services/portal/owner";
import { costlyLimit, notOwner } from "../../../../common-errors";

export const sendClientStatement = operation({
  method: "POST",
  path: "/api/clients/{id}/statement/send",
  operationId: "sendClientStatement",
  tag: "Clients",
  summary: "Email the client their statement",
  description:
    "Queues an email to the client with the statement of [`from`, `to`] as a PDF in the client's language (drawn as of now) and how to sign in to the client portal. Audited.",
  auth: "authed",
  scope: ["clients:write"],
  limit: costlyLimit,
  params: idPath,
  body: {
    schema: statementSendRequestSchema,
    examples: { request: { summary: "Request", value: { from: "2026-01-01", to: "2026-03-31" } } },
  },
  responses: [{ status: 202, description: "Queued", serializer: statementSentSerializer }],
  errors: [
    new ValidationError(INVALID_REQUEST),
    new ValidationError(NO_CLIENT_ADDRESS),
    notOwner,
    new NotFoundError(CLIENT_NOT_FOUND),
    new RateLimitedError(COSTLY_MESSAGE, 60),
  ],
});
