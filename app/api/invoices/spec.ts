import { NETWORK_PASSPHRASES } from "@/lib/config";
import { ConflictError, ForbiddenError, ValidationError } from "@/lib/domain/errors";
import { INVALID_INVOICE_NUMBER_MESSAGE } from "@/lib/domain/invoice-number";
import { amountMismatchMessage, overflowMessage } from "@/lib/domain/money";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { invoiceCreatePolicy } from "@/lib/ratelimit/policies";
import { INVALID_NETWORK, INVALID_SEARCH_Q, INVALID_SORT } from "@/lib/schemas/common";
import {
  createInvoiceSchema,
  listInvoicesQuerySchema,
  OFFSET_WITH_CURSOR,
} from "@/lib/schemas/invoices";
import { invoicePageSerializer, ownerInvoiceSerializer } from "@/lib/serializers/invoices";
import { SAVED_CLIENT_NOT_FOUND } from "@/lib/services/clients/saved-client";
import { NUMBER_TAKEN, WALLET_MISMATCH } from "@/lib/services/invoices/create-invoice";
import { NO_SUCH_INVOICE } from "@/lib/services/invoices/list-invoices";

export const createInvoice = operation({
  method: "POST",
  path: "/api/invoices",
  operationId: "createInvoice",
  tag: "Invoices",
  summary: "Create an invoice (DRAFT)",
  description:
    "Both body forms are accepted: `lineItems` (Form B) or `items` (Form A), decimal strings or numbers, `networkPassphrase` or `network`. Unknown fields are rejected. Each line's `amount` is round7(quantity x rate); `total = subtotal + round7(subtotal x taxRate / 100) - discount`, rounded half up, and must be greater than 0. `invoiceNumber` belongs to the wallet: it is the wallet's next generated number (`INV-0001`, `INV-0002`, ... per wallet, no gaps, skipping numbers the wallet already used) unless an `INV-[A-Za-z0-9-]{1,24}` the wallet has not used yet is supplied (409 otherwise; other wallets' numbers never matter). It is the payment's text memo, matched together with the recipient wallet. With `saveClient` the client is upserted too (a failure there never fails the invoice).",
  auth: "authed",
  scope: ["invoices:write"],
  limit: { policy: invoiceCreatePolicy, per: "caller", note: "20 invoices per hour per wallet" },
  body: {
    schema: createInvoiceSchema,
    examples: {
      formB: {
        summary: "Form B: lineItems, decimal strings, networkPassphrase",
        value: {
          clientName: "Ada Client",
          clientEmail: "ada@example.com",
          title: "Website",
          currency: "USDC",
          networkPassphrase: NETWORK_PASSPHRASES.testnet,
          taxRate: "10",
          discount: "50",
          dueDate: "2026-12-31",
          lineItems: [{ description: "Build", quantity: "1", rate: "1000" }],
          saveClient: true,
        },
      },
      formA: {
        summary: "Form A: items, numbers, network, amount as a cross-check",
        value: {
          clientName: "Ada Client",
          clientEmail: "ada@example.com",
          amount: 1000,
          currency: "USDC",
          network: "testnet",
          taxRate: 10,
          discount: 50,
          dueDate: "2026-12-31",
          notes: "Thanks!",
          items: [{ description: "Build", quantity: 1, rate: 1000 }],
        },
      },
    },
  },
  responses: [
    {
      status: 201,
      description: "The created invoice (owner view)",
      serializer: ownerInvoiceSerializer,
    },
  ],
  errors: [
    new ValidationError("Invalid email"),
    new ValidationError("Total must be greater than 0"),
    // Form A's `amount` is a cross-check of the line items' sum (docs/decisions.md).
    new ValidationError(amountMismatchMessage("1000"), { amount: amountMismatchMessage("1000") }),
    new ValidationError(overflowMessage("total"), { total: overflowMessage("total") }),
    new ValidationError(INVALID_INVOICE_NUMBER_MESSAGE),
    new ValidationError(INVALID_REQUEST, { dueDate: "Due date cannot be in the past" }),
    new ValidationError(INVALID_NETWORK),
    new ValidationError(SAVED_CLIENT_NOT_FOUND, { clientId: SAVED_CLIENT_NOT_FOUND }),
    new ForbiddenError(WALLET_MISMATCH),
    new ConflictError(NUMBER_TAKEN),
  ],
});

export const listInvoices = operation({
  method: "GET",
  path: "/api/invoices",
  operationId: "listInvoices",
  tag: "Invoices",
  summary: "List the caller's invoices",
  description:
    'Live invoices of the authenticated wallet, paged. `limit` defaults to 50 in Form B and 20 in Form A (max 100; above is a 400). Payment links are left out unless `excludePreview=false`. Ties are broken by id so pages never overlap. Page with `offset`, or with `starting_after=<the last id of the previous page>` (keyset, Stripe-like, with every sort and filter): the invoices after that one in the requested order; `offset` in the answer is then the number of matching invoices before the page. A `starting_after` that is not one of the caller\'s invoices (unknown or another wallet\'s alike) is a 400, and so is `starting_after` with `offset`. `q` searches (1 to 200 characters once trimmed; a 400 naming `q` otherwise): every word must start a word of the number, the client\'s name, company or email, the title or a line\'s description, in any case and with or without accents ("muller" finds "Müller", "acm" finds "Acme"); it combines with every filter, sort and page. Without `sort` the best matches come first (the whole query as the number, then words that start the number, the client, the email, the title, the lines), ties newest first; `starting_after` then pages through that ranking.',
  auth: "authed",
  scope: ["invoices:read"],
  query: listInvoicesQuerySchema,
  responses: [
    { status: 200, description: "One page of invoices", serializer: invoicePageSerializer },
  ],
  errors: [
    new ValidationError(INVALID_SORT),
    new ValidationError(INVALID_NETWORK),
    new ValidationError(INVALID_REQUEST, { limit: "Too big: expected number to be <=100" }),
    new ValidationError(INVALID_REQUEST, { starting_after: NO_SUCH_INVOICE }),
    new ValidationError(INVALID_REQUEST, { offset: OFFSET_WITH_CURSOR }),
    new ValidationError(INVALID_REQUEST, { q: INVALID_SEARCH_Q }),
  ],
});
