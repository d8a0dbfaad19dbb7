import { ConflictError } from "@/lib/domain/errors";
import { QUOTE_EXPIRED, quoteClosedMessage } from "@/lib/domain/quote-state";
import { operation } from "@/lib/http/route";
import { quoteAnswerPolicy } from "@/lib/ratelimit/policies";
import { declineQuoteSchema } from "@/lib/schemas/quotes";
import { idPath } from "@/lib/schemas/wire";
import { publicQuoteSerializer } from "@/lib/serializers/quotes";
import { quoteNotFound } from "../../../common-errors";

export const declineQuote = operation({
  method: "POST",
  path: "/api/quotes/{id}/decline",
  operationId: "declineQuote",
  tag: "Quotes",
  summary: "Decline a quote (the client)",
  description:
    "Public: the client's page. SENT becomes DECLINED with the client's reason (optional, at most 1000 characters), audit `DECLINED`, event `quote.declined`. 409 once the quote was answered or has expired.",
  auth: "public",
  limit: { policy: quoteAnswerPolicy, per: "ip", note: "10 answers per 5 minutes per IP" },
  params: idPath,
  body: {
    schema: declineQuoteSchema,
    examples: { decline: { summary: "With a reason", value: { reason: "Over our budget" } } },
  },
  responses: [
    { status: 200, description: "Declined: the public view", serializer: publicQuoteSerializer },
  ],
  errors: [
    new ConflictError(QUOTE_EXPIRED),
    new ConflictError(quoteClosedMessage("CONVERTED", "declined")),
    quoteNotFound,
  ],
});
