import { operation } from "@/lib/http/route";
import { idPath } from "@/lib/schemas/wire";
import { linkStatusSerializer } from "@/lib/serializers/links";
import { linkNotFound } from "../../../common-errors";

export const getLinkStatus = operation({
  method: "GET",
  path: "/api/links/{id}/status",
  operationId: "getLinkStatus",
  tag: "Payment links",
  summary: "Payment link status (for polling)",
  auth: "public",
  params: idPath,
  responses: [{ status: 200, description: "The link's status", serializer: linkStatusSerializer }],
  errors: [linkNotFound],
});
