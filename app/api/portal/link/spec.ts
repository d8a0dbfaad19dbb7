import { ValidationError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { PORTAL_EMAIL, portalLinkRequestSchema } from "@/lib/schemas/portal";
import { portalLinkSerializer } from "@/lib/serializers/portal";
import { portalLinkLimited, portalSignInLimit } from "../portal-errors";

export const requestPortalLink = operation({
  method: "POST",
  path: "/api/portal/link",
  operationId: "requestPortalLink",
  tag: "Client portal",
  summary: "Email a client their portal sign-in links",
  description:
    "For each freelancer with a saved client or a sent invoice to this address (case and spaces aside): a sign-in link valid 30 minutes, usable once, for that freelancer and that client only, all in one email. The answer is the same 202 whatever the address (known, unknown, or past its 5 emails an hour, when nothing more is sent); 400 only when the body is not one email address.",
  auth: "public",
  limit: portalSignInLimit,
  body: {
    schema: portalLinkRequestSchema,
    message: PORTAL_EMAIL,
    examples: { request: { summary: "Request", value: { email: "billing@acme.example" } } },
  },
  responses: [
    {
      status: 202,
      description: "Accepted (the same for every address)",
      serializer: portalLinkSerializer,
    },
  ],
  errors: [new ValidationError(PORTAL_EMAIL, { email: PORTAL_EMAIL }), portalLinkLimited],
});
