import { NotFoundError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { idPath } from "@/lib/schemas/wire";
import { revokedApiKeySerializer } from "@/lib/serializers/api-keys";
import { API_KEY_NOT_FOUND } from "@/lib/services/auth/api-keys";
import { notOwner } from "../../common-errors";

export const revokeApiKey = operation({
  method: "DELETE",
  path: "/api/keys/{id}",
  operationId: "revokeApiKey",
  tag: "Auth",
  summary: "Revoke an API key",
  description:
    "The key stops working on every instance within 5 seconds (at once on the one that revoked it). Revoking again answers the same. Another wallet's key is 403 `Unauthorized` (and stays as it is); an unknown id, 404.",
  auth: "authed",
  params: idPath,
  responses: [{ status: 200, description: "The revoked key", serializer: revokedApiKeySerializer }],
  errors: [notOwner, new NotFoundError(API_KEY_NOT_FOUND)],
});
