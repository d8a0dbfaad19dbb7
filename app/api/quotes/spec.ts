import { NETWORK_PASSPHRASES } from "@/lib/config";
import { ForbiddenError, ValidationError } from "@/lib/domain/errors";
import { amountMismatchMessage } from "@/lib/domain/money";
import { VALID_UNTIL_PAST } from "@/lib/domain/quote-state";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { invoiceCreatePolicy } from "@/lib/ratelimit/policies";
import { INVALID_NETWORK, INVALID_SEARCH_Q } from "@/lib/schemas/common";
import { CLIENT_NAME_REQUIRED, OFFSET_WITH_CURSOR } from "@/lib/schemas/invoices";
import {
  createQuoteSchema,
  INVALID_QUOTE_SORT,
  listQuotesQuerySchema,
  VALID_UNTIL_FORMAT,
} from "@/lib/schemas/quotes";
import { ownerQuoteSerializer, quotePageSerializer } from "@/lib/serializers/quotes";
import { SAVED_CLIENT_NOT_FOUND } from "@/lib/services/clients/saved-client";
import { WALLET_MISMATCH } from "@/lib/services/invoices/create-invoice";
import { NO_SUCH_QUOTE } from "@/lib/services/quotes/quotes";

export const createQuote = operation({
  method: "POST",
  path: "/api/quotes",
  operationId: "createQuote",
  tag: "Quotes",
  summary: "Create a quote (DRAFT)",
  description:
    "The body is the invoice the quote becomes on acceptance, exactly as POST /api/invoices takes it (both forms, line items with their own tax, `priceCurrency`, `language`, a saved client by `clientId`...), without `invoiceNumber`, `dueDate`, `saveClient` and `favoriteClient`, plus `validUntil` (the last day it can be accepted, UTC; default 30 days) and `onAccept` (`draft`, default: the invoice waits for you; `send`: it is sent at once). The quote is numbered in the wallet's own gap-free series `QT-0001`, `QT-0002`... A saved client's details and the language are fixed now, so the invoice is the one the client accepted.",
  auth: "authed",
  scope: ["invoices:write"],
  limit: { policy: invoiceCreatePolicy, per: "caller", note: "20 invoices per hour per wallet" },
  body: {
    schema: createQuoteSchema,
    examples: {
      formB: {
        summary: "A quote in German, sent as an invoice once accepted",
        value: {
          clientName: "Ada Client",
          clientEmail: "ada@example.com",
          title: "Website redesign",
          currency: "USDC",
          networkPassphrase: NETWORK_PASSPHRASES.testnet,
          language: "de",
          lineItems: [{ description: "Design", quantity: "3", rate: "400", taxRate: "19" }],
          validUntil: "2026-12-31",
          onAccept: "send",
        },
      },
    },
  },
  responses: [
    {
      status: 201,
      description: "The created quote (owner view)",
      serializer: ownerQuoteSerializer,
    },
  ],
  errors: [
    new ValidationError(INVALID_REQUEST, { clientName: CLIENT_NAME_REQUIRED }),
    new ValidationError(INVALID_REQUEST, { validUntil: VALID_UNTIL_FORMAT }),
    new ValidationError(VALID_UNTIL_PAST, { validUntil: VALID_UNTIL_PAST }),
    new ValidationError(amountMismatchMessage("1000"), { amount: amountMismatchMessage("1000") }),
    new ValidationError(SAVED_CLIENT_NOT_FOUND, { clientId: SAVED_CLIENT_NOT_FOUND }),
    new ForbiddenError(WALLET_MISMATCH),
  ],
});

export const listQuotes = operation({
  method: "GET",
  path: "/api/quotes",
  operationId: "listQuotes",
  tag: "Quotes",
  summary: "List the caller's quotes",
  description:
    'Live quotes of the authenticated wallet, paged as GET /api/invoices: `limit` (default 50 in Form B, 20 in Form A; at most 100), `offset` or `starting_after=<the last id of the previous page>`, `sort=field:direction` (createdAt, updatedAt, validUntil, total, number, status; default createdAt:desc; ties by id), filters `status`, `currency`, `network` (or `networkPassphrase`), `clientEmail`. Quotes whose validUntil has ended are expired first, so the status filter and the answer agree. `q` searches (1 to 200 characters once trimmed; a 400 naming `q` otherwise): every word must start a word of the number, the client\'s name, company or email, the title or a line\'s description, in any case and with or without accents ("muller" finds "Müller", "acm" finds "Acme"); it combines with every filter, sort and page. Without `sort` the best matches come first (the whole query as the number, then words that start the number, the client, the email, the title, the lines), ties newest first; `starting_after` then pages through that ranking.',
  auth: "authed",
  scope: ["invoices:read"],
  query: listQuotesQuerySchema,
  responses: [{ status: 200, description: "One page of quotes", serializer: quotePageSerializer }],
  errors: [
    new ValidationError(INVALID_QUOTE_SORT),
    new ValidationError(INVALID_NETWORK),
    new ValidationError(INVALID_REQUEST, { starting_after: NO_SUCH_QUOTE }),
    new ValidationError(INVALID_REQUEST, { offset: OFFSET_WITH_CURSOR }),
    new ValidationError(INVALID_REQUEST, { q: INVALID_SEARCH_Q }),
  ],
});
