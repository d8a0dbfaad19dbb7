import { BusinessRuleError, ValidationError } from "@/lib/domain/errors";
import { ONLY_DRAFT_QUOTE, VALID_UNTIL_PAST } from "@/lib/domain/quote-state";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { PERIOD_ORDER } from "@/lib/schemas/invoices";
import { updateQuoteSchema } from "@/lib/schemas/quotes";
import { idPath } from "@/lib/schemas/wire";
import {
  deletedQuoteSerializer,
  ownerQuoteSerializer,
  publicQuoteSerializer,
} from "@/lib/serializers/quotes";
import { notOwner, quoteNotFound } from "../../common-errors";

const ONLY_DRAFT = new BusinessRuleError(ONLY_DRAFT_QUOTE);

export const getPublicQuote = operation({
  method: "GET",
  path: "/api/quotes/{id}",
  operationId: "getPublicQuote",
  tag: "Quotes",
  summary: "Public view of a quote",
  description:
    "What the client's page `/quote/<id>` shows: who offers what, for how much and until when, and the answer once given. Never emails, addresses, notes, the acceptance's IP or the audit trail. A SENT quote whose validUntil has ended is answered (and stored) EXPIRED.",
  auth: "public",
  params: idPath,
  responses: [{ status: 200, description: "The public view", serializer: publicQuoteSerializer }],
  errors: [quoteNotFound],
});

export const updateQuote = operation({
  method: "PATCH",
  path: "/api/quotes/{id}",
  operationId: "updateQuote",
  tag: "Quotes",
  summary: "Update a draft quote",
  description:
    "Any subset of the create body's fields, in either form; the body is merged and checked whole again (a 400 names each field) and the totals recomputed. New `lineItems` (or `items`) replace the lines; a `clientId` replaces the client's details. DRAFT only.",
  auth: "authed",
  scope: ["invoices:write"],
  params: idPath,
  body: {
    schema: updateQuoteSchema,
    examples: {
      formB: {
        summary: "New lines and a later validity",
        value: {
          lineItems: [{ description: "Design", quantity: "4", rate: "400" }],
          validUntil: "2027-01-31",
        },
      },
    },
  },
  responses: [
    {
      status: 200,
      description: "The updated quote (owner view)",
      serializer: ownerQuoteSerializer,
    },
  ],
  errors: [
    ONLY_DRAFT,
    new ValidationError(INVALID_REQUEST),
    new ValidationError(VALID_UNTIL_PAST, { validUntil: VALID_UNTIL_PAST }),
    new ValidationError(PERIOD_ORDER, { periodEnd: PERIOD_ORDER }),
    notOwner,
    quoteNotFound,
  ],
});

export const deleteQuote = operation({
  method: "DELETE",
  path: "/api/quotes/{id}",
  operationId: "deleteQuote",
  tag: "Quotes",
  summary: "Delete a draft quote (soft delete)",
  description:
    "DRAFT only. Its number stays taken (the series has no gaps) and its audit trail kept.",
  auth: "authed",
  scope: ["invoices:write"],
  params: idPath,
  responses: [{ status: 200, description: "Deleted", serializer: deletedQuoteSerializer }],
  errors: [ONLY_DRAFT, notOwner, quoteNotFound],
});
