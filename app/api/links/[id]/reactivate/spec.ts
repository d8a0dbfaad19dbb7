import { operation } from "@/lib/http/route";
import { idPath } from "@/lib/schemas/wire";
import { linkSerializer } from "@/lib/serializers/links";
import { linkNotFound, notOwner } from "../../../common-errors";

export const reactivateLink = operation({
  method: "POST",
  path: "/api/links/{id}/reactivate",
  operationId: "reactivateLink",
  tag: "Payment links",
  summary: "Let a deactivated link take payments again",
  description:
    "Owner only. Clears `deactivatedAt`; a link that expired meanwhile stays expired. Audited (`UPDATED`, `changes.active`); no event. Reactivating an active link changes nothing.",
  auth: "authed",
  scope: ["links:write"],
  params: idPath,
  responses: [{ status: 200, description: "The link as it now is", serializer: linkSerializer }],
  errors: [notOwner, linkNotFound],
});
