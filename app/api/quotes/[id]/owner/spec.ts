import { operation } from "@/lib/http/route";
import { idPath } from "@/lib/schemas/wire";
import { ownerQuoteSerializer } from "@/lib/serializers/quotes";
import { notOwner, quoteNotFound } from "../../../common-errors";

export const getOwnerQuote = operation({
  method: "GET",
  path: "/api/quotes/{id}/owner",
  operationId: "getOwnerQuote",
  tag: "Quotes",
  summary: "Owner view of a quote",
  description:
    "Every field, the acceptance (name, time, IP) or the decline's reason, the invoice made from it (`invoiceId`) and the audit trail. 403 `Unauthorized` for another wallet's quote.",
  auth: "authed",
  scope: ["invoices:read"],
  params: idPath,
  responses: [{ status: 200, description: "The owner view", serializer: ownerQuoteSerializer }],
  errors: [notOwner, quoteNotFound],
});
