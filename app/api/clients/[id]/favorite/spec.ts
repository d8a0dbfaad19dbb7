import { NotFoundError, ValidationError } from "@/lib/domain/errors";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { favoriteInputSchema } from "@/lib/schemas/clients";
import { idPath } from "@/lib/schemas/wire";
import { clientSerializer } from "@/lib/serializers/clients";
import { CLIENT_NOT_FOUND } from "@/lib/services/clients/manage-clients";
import { notOwner } from "../../../common-errors";

export const setClientFavorite = operation({
  method: "PATCH",
  path: "/api/clients/{id}/favorite",
  operationId: "setClientFavorite",
  tag: "Clients",
  summary: "Mark or unmark a favorite",
  auth: "authed",
  scope: ["clients:write"],
  internalError: "Failed to update client",
  params: idPath,
  body: {
    schema: favoriteInputSchema,
    examples: { request: { summary: "Request", value: { isFavorite: true } } },
  },
  responses: [
    { status: 200, description: "The client, `updatedAt` refreshed", serializer: clientSerializer },
  ],
  errors: [new ValidationError(INVALID_REQUEST), notOwner, new NotFoundError(CLIENT_NOT_FOUND)],
});
