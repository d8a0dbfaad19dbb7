import { NotFoundError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { idPath } from "@/lib/schemas/wire";
import { portalRevokedSerializer, portalSessionsSerializer } from "@/lib/serializers/portal";
import { CLIENT_NOT_FOUND } from "@/lib/services/clients/manage-clients";
import { notOwner } from "../../../common-errors";

export const listClientPortalSessions = operation({
  method: "GET",
  path: "/api/clients/{id}/portal-sessions",
  operationId: "listClientPortalSessions",
  tag: "Clients",
  summary: "The client's active portal sessions",
  description:
    "Sessions of the client portal open for this client's email with you: when each began, how (emailed link or wallet) and when it was last used.",
  auth: "authed",
  scope: ["clients:read"],
  params: idPath,
  responses: [{ status: 200, description: "The sessions", serializer: portalSessionsSerializer }],
  errors: [notOwner, new NotFoundError(CLIENT_NOT_FOUND)],
});

export const revokeClientPortalSessions = operation({
  method: "DELETE",
  path: "/api/clients/{id}/portal-sessions",
  operationId: "revokeClientPortalSessions",
  tag: "Clients",
  summary: "End the client's portal sessions",
  description:
    "Every portal session of this client with you ends: their next portal request is a 401. Audited. The client can sign in again with a new link.",
  auth: "authed",
  scope: ["clients:write"],
  params: idPath,
  responses: [{ status: 200, description: "How many ended", serializer: portalRevokedSerializer }],
  errors: [notOwner, new NotFoundError(CLIENT_NOT_FOUND)],
});
