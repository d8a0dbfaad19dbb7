import { ConflictError, ValidationError } from "@/lib/domain/errors";
import { QUOTE_EXPIRED, quoteClosedMessage } from "@/lib/domain/quote-state";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { quoteAnswerPolicy } from "@/lib/ratelimit/policies";
import { acceptQuoteSchema } from "@/lib/schemas/quotes";
import { idPath } from "@/lib/schemas/wire";
import { acceptedQuoteSerializer } from "@/lib/serializers/quotes";
import { quoteNotFound } from "../../../common-errors";

export const acceptQuote = operation({
  method: "POST",
  path: "/api/quotes/{id}/accept",
  operationId: "acceptQuote",
  tag: "Quotes",
  summary: "Accept a quote (the client)",
  description:
    "Public: the client's page. The client types their name; the name, the time and the caller's IP are recorded. In one transaction the quote becomes ACCEPTED then CONVERTED and the invoice is made from it (`invoiceId`; the invoice's `quoteId` names the quote): a draft, or sent at once (and emailed) when the quote's `onAccept` is `send` (a send the wallet's readiness refuses leaves it a draft). Exactly once: of racing accepts one wins, the others answer 409. A quote past its validUntil answers 409 `This quote has expired and can no longer be accepted`.",
  auth: "public",
  limit: { policy: quoteAnswerPolicy, per: "ip", note: "10 answers per 5 minutes per IP" },
  params: idPath,
  body: {
    schema: acceptQuoteSchema,
    examples: { accept: { summary: "The client's typed name", value: { name: "Ada Lovelace" } } },
  },
  responses: [
    {
      status: 200,
      description: "Accepted: the public view, CONVERTED, with invoiceId",
      serializer: acceptedQuoteSerializer,
    },
  ],
  errors: [
    new ValidationError(INVALID_REQUEST, { name: "name is required: type your name to accept" }),
    new ConflictError(QUOTE_EXPIRED),
    new ConflictError(quoteClosedMessage("CONVERTED", "accepted")),
    quoteNotFound,
  ],
});
