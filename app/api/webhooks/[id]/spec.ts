import { operation } from "@/lib/http/route";
import { idPath } from "@/lib/schemas/wire";
import { webhookDeletedSerializer } from "@/lib/serializers/webhooks";
import { notOwner, webhookNotFound } from "../../common-errors";

export const deleteWebhook = operation({
  method: "DELETE",
  path: "/api/webhooks/{id}",
  operationId: "deleteWebhook",
  tag: "Webhooks",
  summary: "Delete a webhook endpoint",
  description:
    "Owner only: 403 `Unauthorized` for another wallet's endpoint, 404 for an unknown one.",
  auth: "authed",
  scope: ["webhooks:write"],
  params: idPath,
  responses: [{ status: 200, description: "Deleted", serializer: webhookDeletedSerializer }],
  errors: [notOwner, webhookNotFound],
});
