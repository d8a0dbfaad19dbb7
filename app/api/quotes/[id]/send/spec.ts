import { BusinessRuleError, ValidationError } from "@/lib/domain/errors";
import { VALID_UNTIL_PAST } from "@/lib/domain/quote-state";
import { operation } from "@/lib/http/route";
import { idPath } from "@/lib/schemas/wire";
import { ownerQuoteSerializer } from "@/lib/serializers/quotes";
import { notOwner, quoteNotFound } from "../../../common-errors";

export const sendQuote = operation({
  method: "POST",
  path: "/api/quotes/{id}/send",
  operationId: "sendQuote",
  tag: "Quotes",
  summary: "Send a draft quote (DRAFT -> SENT)",
  description:
    "No body. The quote becomes read-only and answerable at `{APP_URL}/quote/<id>`; the client is emailed the link in the quote's language (unless its `emailClient` is false); audit `SENT`, event `quote.sent`; all in one transaction. A quote whose validUntil is already past is refused.",
  auth: "authed",
  scope: ["invoices:write"],
  params: idPath,
  responses: [{ status: 200, description: "Sent (owner view)", serializer: ownerQuoteSerializer }],
  errors: [
    new BusinessRuleError("Quote cannot be sent. Current status: SENT"),
    new ValidationError(VALID_UNTIL_PAST, { validUntil: VALID_UNTIL_PAST }),
    notOwner,
    quoteNotFound,
  ],
});
