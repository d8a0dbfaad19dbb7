import { NotFoundError, RateLimitedError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { COSTLY_MESSAGE } from "@/lib/ratelimit/policies";
import { idPath } from "@/lib/schemas/wire";
import { PORTAL_NOT_FOUND } from "@/lib/services/portal/view";
import { PORTAL_COOKIE_NOTE, portalSignInRequired } from "../../../portal-errors";

export const getPortalCreditNotePdf = operation({
  method: "GET",
  path: "/api/portal/credit-notes/{id}/pdf",
  operationId: "getPortalCreditNotePdf",
  tag: "Client portal",
  summary: "A credit note's PDF",
  description: `A credit note of one of the client's invoices. ${PORTAL_COOKIE_NOTE}`,
  auth: "public",
  params: idPath,
  responses: [{ status: 200, description: "The PDF", raw: { contentType: "application/pdf" } }],
  errors: [
    portalSignInRequired,
    new NotFoundError(PORTAL_NOT_FOUND),
    new RateLimitedError(COSTLY_MESSAGE, 60),
  ],
});
