import { operation } from "@/lib/http/route";
import { idPath } from "@/lib/schemas/wire";
import { linkSerializer } from "@/lib/serializers/links";
import { linkNotFound } from "../../common-errors";

export const getLink = operation({
  method: "GET",
  path: "/api/links/{id}",
  operationId: "getLink",
  tag: "Payment links",
  summary: "Public view of a payment link",
  description: "404 `Link not found` for unknown, deleted, or expired and unpaid links.",
  auth: "public",
  params: idPath,
  responses: [{ status: 200, description: "The link", serializer: linkSerializer }],
  errors: [linkNotFound],
});
