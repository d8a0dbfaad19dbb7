import { BusinessRuleError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { idPath } from "@/lib/schemas/wire";
import { linkSerializer } from "@/lib/serializers/links";
import { LINK_NOT_ACTIVE } from "@/lib/services/links/manage";
import { linkNotFound, notOwner } from "../../../common-errors";

export const deactivateLink = operation({
  method: "POST",
  path: "/api/links/{id}/deactivate",
  operationId: "deactivateLink",
  tag: "Payment links",
  summary: "Stop a link taking new payments",
  description:
    "Owner only, ACTIVE links only. The link starts no new payment: its page says it is no longer accepting payments, a new checkout and a pay-intent on the link itself answer 409 `This link is no longer accepting payments`. Checkouts already made stay payable until their own expiry, and any payment that reaches the link or a checkout is recorded as always. Audited (`UPDATED`, `changes.active`); no event. Deactivating a deactivated link changes nothing.",
  auth: "authed",
  scope: ["links:write"],
  params: idPath,
  responses: [{ status: 200, description: "The link as it now is", serializer: linkSerializer }],
  errors: [new BusinessRuleError(LINK_NOT_ACTIVE("PAID")), notOwner, linkNotFound],
});
