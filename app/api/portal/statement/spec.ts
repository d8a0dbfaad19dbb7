import { RateLimitedError, ValidationError } from "@/lib/domain/errors";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { COSTLY_MESSAGE } from "@/lib/ratelimit/policies";
import { portalStatementQuerySchema } from "@/lib/schemas/portal";
import { statementSerializer } from "@/lib/serializers/statements";
import { PORTAL_COOKIE_NOTE, portalSignInRequired } from "../portal-errors";

export const getPortalStatement = operation({
  method: "GET",
  path: "/api/portal/statement",
  operationId: "getPortalStatement",
  tag: "Client portal",
  summary: "The client's statement of account",
  description: `The freelancer's statement of this client for [\`from\`, \`to\`] (as \`GET /api/clients/{id}/statement\` answers the freelancer: the saved client with this email, else one made from the latest invoice's client fields), as JSON, CSV or a PDF in the client's language. ${PORTAL_COOKIE_NOTE}`,
  auth: "public",
  query: portalStatementQuerySchema,
  responses: [
    { status: 200, description: "The statement (format=json)", serializer: statementSerializer },
    {
      status: 200,
      description: "CSV (format=csv)",
      raw: { contentType: "text/csv; charset=utf-8" },
    },
    { status: 200, description: "PDF (format=pdf)", raw: { contentType: "application/pdf" } },
  ],
  errors: [
    new ValidationError(INVALID_REQUEST),
    portalSignInRequired,
    new RateLimitedError(COSTLY_MESSAGE, 60),
  ],
});
