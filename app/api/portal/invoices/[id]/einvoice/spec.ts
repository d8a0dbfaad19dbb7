import { NotFoundError, RateLimitedError, ValidationError } from "@/lib/domain/errors";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { COSTLY_MESSAGE } from "@/lib/ratelimit/policies";
import { portalEInvoiceQuerySchema } from "@/lib/schemas/portal";
import { idPath } from "@/lib/schemas/wire";
import { PORTAL_NOT_FOUND } from "@/lib/services/portal/view";
import { PORTAL_COOKIE_NOTE, portalSignInRequired } from "../../../portal-errors";

export const getPortalEInvoice = operation({
  method: "GET",
  path: "/api/portal/invoices/{id}/einvoice",
  operationId: "getPortalEInvoice",
  tag: "Client portal",
  summary: "An invoice's e-invoice (CII or XRechnung XML)",
  description: `What \`GET /api/invoices/{id}/einvoice\` gives the freelancer, for one of the client's invoices. ${PORTAL_COOKIE_NOTE}`,
  auth: "public",
  params: idPath,
  query: portalEInvoiceQuerySchema,
  responses: [{ status: 200, description: "The XML", raw: { contentType: "application/xml" } }],
  errors: [
    new ValidationError(INVALID_REQUEST),
    portalSignInRequired,
    new NotFoundError(PORTAL_NOT_FOUND),
    new RateLimitedError(COSTLY_MESSAGE, 60),
  ],
});
