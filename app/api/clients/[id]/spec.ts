import { NotFoundError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { idPath } from "@/lib/schemas/wire";
import { clientDeletedSerializer } from "@/lib/serializers/clients";
import { CLIENT_NOT_FOUND } from "@/lib/services/clients/manage-clients";
import { notOwner } from "../../common-errors";

export const deleteClient = operation({
  method: "DELETE",
  path: "/api/clients/{id}",
  operationId: "deleteClient",
  tag: "Clients",
  summary: "Delete a saved client",
  auth: "authed",
  scope: ["clients:write"],
  params: idPath,
  responses: [{ status: 200, description: "Deleted", serializer: clientDeletedSerializer }],
  errors: [notOwner, new NotFoundError(CLIENT_NOT_FOUND)],
});
