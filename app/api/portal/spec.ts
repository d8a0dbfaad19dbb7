import { operation } from "@/lib/http/route";
import { portalOverviewSerializer } from "@/lib/serializers/portal";
import { PORTAL_COOKIE_NOTE, portalSignInRequired } from "./portal-errors";

export const getPortal = operation({
  method: "GET",
  path: "/api/portal",
  operationId: "getPortal",
  tag: "Client portal",
  summary: "The client's documents with one freelancer",
  description: `The freelancer's business name, the client, and the client's sent invoices (status, total, amount due, the pay page, the PDF, receipt and e-invoice downloads), quotes (their page, where they are accepted or declined), credit notes and payments with receipts. ${PORTAL_COOKIE_NOTE}`,
  auth: "public",
  responses: [{ status: 200, description: "The portal", serializer: portalOverviewSerializer }],
  errors: [portalSignInRequired],
});
