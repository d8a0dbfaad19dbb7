import { operation } from "@/lib/http/route";
import { idPath } from "@/lib/schemas/wire";
import { linkPaymentsSerializer } from "@/lib/serializers/links";
import { linkNotFound, notOwner } from "../../../common-errors";

export const listLinkPayments = operation({
  method: "GET",
  path: "/api/links/{id}/payments",
  operationId: "listLinkPayments",
  tag: "Payment links",
  summary: "The payments a link received",
  description:
    "The owner's paid records: for a reusable or open-amount link, each checkout that received money (paid, or paid in part), newest first; for a single-use link, the link itself once paid. Unpaid checkouts are not listed. Another wallet's link is 403 `Unauthorized`.",
  auth: "authed",
  scope: ["links:write", "invoices:read"],
  params: idPath,
  responses: [
    { status: 200, description: "The link's payments", serializer: linkPaymentsSerializer },
  ],
  errors: [notOwner, linkNotFound],
});
