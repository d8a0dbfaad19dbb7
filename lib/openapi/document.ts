import { z } from "zod";
import {
  createDocument,
  type ZodOpenApiComponentsObject,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from "zod-openapi";
import type { Config } from "@/lib/config";
import { INVALID_INVOICE_NUMBER_MESSAGE } from "@/lib/domain/invoice-number";
import { MISMATCH_MESSAGE, NOT_SUCCESSFUL_MESSAGE } from "@/lib/domain/payment-match";
import { INVALID_REQUEST } from "@/lib/http/body";
import { AUTH_REQUIRED } from "@/lib/http/endpoint";
import { DATABASE_UNAVAILABLE, INTERNAL_ERROR } from "@/lib/http/errors";
import { PRICE_UNAVAILABLE } from "@/lib/prices/xlm-price";
import { invoiceCreatePolicy, linkCreatePolicy, pricePolicy } from "@/lib/ratelimit/policies";
import { nonceRequestSchema, sessionRequestSchema } from "@/lib/schemas/auth";
import { clientInputSchema, favoriteInputSchema } from "@/lib/schemas/clients";
import {
  INVALID_SORT,
  idParamSchema,
  NETWORK_VALUES,
  networkPassphraseSchema,
} from "@/lib/schemas/common";
import {
  cancelInvoiceSchema,
  createInvoiceSchema,
  listInvoicesQuerySchema,
  statsQuerySchema,
  updateInvoiceSchema,
} from "@/lib/schemas/invoices";
import { createLinkSchema } from "@/lib/schemas/links";
import {
  confirmSchema,
  payIntentSchema,
  submitSchema,
  verifyTxSchema,
} from "@/lib/schemas/payments";
import { createWebhookSchema, listDeliveriesQuerySchema } from "@/lib/schemas/webhooks";
import { INVALID_ADDRESS, INVALID_SIGNATURE } from "@/lib/services/auth/nonce";
import { INVALID_TOKEN } from "@/lib/services/auth/token";
import { CLIENT_NOT_FOUND } from "@/lib/services/clients/manage-clients";
import { NUMBER_TAKEN, WALLET_MISMATCH } from "@/lib/services/invoices/create-invoice";
import { INVOICE_NOT_FOUND } from "@/lib/services/invoices/store";
import { LINK_NOT_FOUND } from "@/lib/services/links/links";
import {
  NETWORK_DOES_NOT_MATCH,
  OWN_INVOICE,
  SENDER_NOT_FOUND,
} from "@/lib/services/payments/pay-intent";
import { INVALID_XDR, TX_NOT_FOUND_ON_NETWORK } from "@/lib/services/payments/settle";
import { LEDGER_MESSAGES, NETWORK_BUSY, NETWORK_UNAVAILABLE } from "@/lib/stellar/errors";
import { DELIVERY_NOT_FOUND } from "@/lib/webhooks/deliveries";
import { WEBHOOK_URL_REFUSED } from "@/lib/webhooks/ssrf";
import { WEBHOOK_LIMIT_REACHED, WEBHOOK_NOT_FOUND } from "@/lib/webhooks/subscriptions";
import { buildWebhooks } from "./events";
import {
  cancelledInvoice,
  clientDeleted,
  clientList,
  clientResponse,
  confirmResult,
  createdWebhook,
  cronExpireResult,
  cronWatcherResult,
  cronWebhooksResult,
  deletedInvoice,
  type ErrorCode,
  errorA,
  errorB,
  exampleBodies,
  health,
  invoicePage,
  invoiceStats,
  nonceResponse,
  ownerInvoice,
  paymentIntent,
  paymentLinkList,
  paymentLinkResponse,
  paymentLinkStatus,
  paymentStatusResponse,
  publicInvoice,
  sentInvoice,
  sessionResponse,
  submitPending,
  submitResult,
  verifiedTransaction,
  type WireShape,
  webhookDeleted,
  webhookDelivery,
  webhookDeliveryPage,
  webhookList,
  whoAmIResponse,
  xlmPrice,
} from "./responses";

/**
 * The OpenAPI 3.1 description of the whole API, built with zod-openapi from the same zod
 * schemas that validate requests (lib/schemas) and the response schemas of ./responses.
 * OPERATIONS below is the one list of every operation; tests/openapi.test.ts checks that it
 * covers every route file under app/api and every method each route implements.
 */

// ---- messages the handlers answer (spec 4, 5 and 7, word for word) -------------------------

const INVALID_NETWORK = "Invalid network passphrase";
const TOO_MANY = "Too many requests";
const NOT_OWNER = "Unauthorized";
const ONLY_DRAFT = "Only invoices in DRAFT status can be modified";
const DEFAULT_MAX_BODY_BYTES = 100_000;
/** The default limits (spec 8), for the messages that name them. */
const LIMIT_DEFAULTS = {
  rateLimits: {
    invoicesPerHour: 20,
    linksPerHour: 60,
    payIntentPer5Minutes: 10,
    pricePerMinute: 30,
  },
} as Config;

type Method = "get" | "post" | "put" | "patch" | "delete";
/** none: no credentials, not rate limited; public: optional Bearer; authed; cron: CRON_SECRET. */
export type AuthKind = "none" | "public" | "authed" | "cron";

type ErrorExample = {
  status: number;
  message: string;
  code?: ErrorCode;
  details?: Record<string, string>;
};

type Success = {
  status: number;
  description: string;
} & (
  | { shape: WireShape }
  /** A non-JSON body (the invoice PDF): no envelope. */
  | { raw: { contentType: string; headers?: Record<string, { description: string }> } }
);

type BodyExample = { summary: string; value: unknown };

export type OperationSpec = {
  method: Method;
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  auth: AuthKind;
  /** A limit on top of the global one (spec 8), for the description. */
  extraLimit?: string;
  pathParams?: z.ZodObject;
  query?: z.ZodObject;
  body?: { schema: z.ZodType; required: boolean; examples: Record<string, BodyExample> };
  /** Honours `Idempotency-Key` (POST /api/payments/submit). */
  idempotent?: boolean;
  /** Talks to Horizon: 429 `Network is busy` and 503 `Stellar network ... unavailable`. */
  ledger?: boolean;
  /** Message of an unexpected 500 (spec 4.3 names some); default `Internal server error`. */
  internalError?: string;
  success: Success[];
  errors: ErrorExample[];
};

const err = (
  status: number,
  message: string,
  code?: ErrorCode,
  details?: Record<string, string>,
): ErrorExample => ({ status, message, code, details });

// ---- parameters -----------------------------------------------------------------------------

const idPath = z.object({
  id: idParamSchema.meta({ description: "Resource id (an unknown id is a 404)" }),
});
const invoiceIdPath = z.object({
  invoiceId: idParamSchema.meta({ description: "Invoice (or payment link) id" }),
});
const idempotencyHeader = z.object({
  "Idempotency-Key": z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/)
    .optional()
    .meta({
      description:
        "Optional. The first response to a key is stored for 24 hours and replayed (with `Idempotent-Replayed: true`) to any retry with the same key and body; the same key with another body is a 400, and a retry while the first request is still running is a 409.",
      example: "submit-9f86d081",
    }),
});

// ---- examples of request bodies (both forms) -----------------------------------------------

const WALLET = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";
const PAYER = "GCFXHS4GXL6BVUCXBWXGTITROWLVYXQKQLF4YH5O5JT3YZXCYPAFBJZB";
const TESTNET = "Test SDF Network ; September 2015";
const HASH = "3389e9f0f1a65f19736cacf544c2e825313e8447f569233bb8db39aa607c8889";
const ID = "clx8f2k9p0000abcd1234efgh";

const createInvoiceExamples: Record<string, BodyExample> = {
  formB: {
    summary: "Form B: lineItems, decimal strings, networkPassphrase",
    value: {
      clientName: "Ada Client",
      clientEmail: "ada@example.com",
      title: "Website",
      currency: "USDC",
      networkPassphrase: TESTNET,
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
};

// ---- the operations -------------------------------------------------------------------------

const bodyOf = (
  schema: z.ZodType,
  examples: Record<string, BodyExample>,
  required = true,
): OperationSpec["body"] => ({ schema, required, examples });

export const OPERATIONS: OperationSpec[] = [
  // Auth
  {
    method: "post",
    path: "/api/auth/nonce",
    operationId: "createNonce",
    tag: "Auth",
    summary: "Request a sign-in nonce",
    description:
      "Returns a 32-hex-character nonce bound to the wallet and the four-line message to sign (`<SERVICE_NAME> Authentication`, `Wallet: ...`, `Nonce: ...`, `Timestamp: ...`). The nonce is valid for 300 seconds and is consumed by the first attempt that uses it.",
    auth: "public",
    body: bodyOf(nonceRequestSchema, {
      request: { summary: "Request", value: { walletAddress: WALLET } },
    }),
    success: [{ status: 200, description: "A fresh nonce", shape: nonceResponse }],
    errors: [err(400, INVALID_ADDRESS)],
  },
  {
    method: "post",
    path: "/api/auth/session",
    operationId: "createSession",
    tag: "Auth",
    summary: "Exchange a signed nonce for a session token",
    description:
      "The signature is ed25519 over the message bytes or over its SEP-53 form (sha256 of `Stellar Signed Message:\\n` + message, what Freighter's `signMessage` produces), hex or base64. The token is an HS256 JWT valid for one hour.",
    auth: "public",
    body: bodyOf(sessionRequestSchema, {
      request: {
        summary: "Request",
        value: {
          walletAddress: WALLET,
          nonce: "9f86d081884c7d659a2feaa0c55ad015",
          signature: "3q2+7w...base64",
        },
      },
    }),
    success: [{ status: 200, description: "A session token", shape: sessionResponse }],
    errors: [
      err(400, INVALID_REQUEST, "VALIDATION_ERROR", {
        nonce: "must be 32 lowercase hex characters",
      }),
      err(401, INVALID_SIGNATURE),
    ],
  },
  {
    method: "get",
    path: "/api/auth/session",
    operationId: "getSession",
    tag: "Auth",
    summary: "Who am I",
    description: "The wallet of the credentials sent: a protected endpoint to try a token on.",
    auth: "authed",
    success: [{ status: 200, description: "The authenticated wallet", shape: whoAmIResponse }],
    errors: [],
  },

  // Invoices
  {
    method: "post",
    path: "/api/invoices",
    operationId: "createInvoice",
    tag: "Invoices",
    summary: "Create an invoice (DRAFT)",
    description:
      "Both body forms are accepted: `lineItems` (Form B) or `items` (Form A), decimal strings or numbers, `networkPassphrase` or `network`. Unknown fields are rejected. Each line's `amount` is round7(quantity x rate); `total = subtotal + round7(subtotal x taxRate / 100) - discount`, rounded half up, and must be greater than 0. `invoiceNumber` is generated (`INV-0001`, ...) unless a unique `INV-[A-Za-z0-9-]{1,24}` is supplied. With `saveClient` the client is upserted too (a failure there never fails the invoice).",
    auth: "authed",
    extraLimit: "20 invoices per hour per wallet",
    body: bodyOf(createInvoiceSchema, createInvoiceExamples),
    success: [
      { status: 201, description: "The created invoice (owner view)", shape: ownerInvoice },
    ],
    errors: [
      err(400, "Invalid email"),
      err(400, "Total must be greater than 0"),
      err(400, INVALID_INVOICE_NUMBER_MESSAGE),
      err(400, INVALID_REQUEST, "VALIDATION_ERROR", { dueDate: "Due date cannot be in the past" }),
      err(400, INVALID_NETWORK),
      err(403, WALLET_MISMATCH),
      err(409, NUMBER_TAKEN),
      err(429, invoiceCreatePolicy(LIMIT_DEFAULTS).message),
    ],
  },
  {
    method: "get",
    path: "/api/invoices",
    operationId: "listInvoices",
    tag: "Invoices",
    summary: "List the caller's invoices",
    description:
      "Live invoices of the authenticated wallet, paged. `limit` defaults to 50 in Form B and 20 in Form A (max 100; above is a 400). Payment links are left out unless `excludePreview=false`. Ties are broken by id so pages never overlap.",
    auth: "authed",
    query: listInvoicesQuerySchema.omit({ envelope: true }),
    success: [{ status: 200, description: "One page of invoices", shape: invoicePage }],
    errors: [
      err(400, INVALID_SORT),
      err(400, INVALID_NETWORK),
      err(400, INVALID_REQUEST, "VALIDATION_ERROR", {
        limit: "Too big: expected number to be <=100",
      }),
    ],
  },
  {
    method: "get",
    path: "/api/invoices/stats",
    operationId: "getInvoiceStats",
    tag: "Invoices",
    summary: "Dashboard statistics",
    description:
      "`totalRevenue` sums the totals of PAID invoices, `pendingAmount` those awaiting payment (PENDING, PROCESSING, FAILED, EXPIRED), `avgInvoiceValue` is the mean paid total; per asset. `revenueByMonth` covers the last 12 UTC months. Payment links count only with `includeDemoLinks=true`.",
    auth: "authed",
    query: statsQuerySchema.omit({ envelope: true }),
    success: [{ status: 200, description: "Statistics", shape: invoiceStats }],
    errors: [err(400, INVALID_NETWORK), err(400, INVALID_REQUEST)],
  },
  {
    method: "get",
    path: "/api/invoices/{id}",
    operationId: "getPublicInvoice",
    tag: "Invoices",
    summary: "Public view of an invoice",
    description:
      "What the payer's page shows: who is paid and what for. Never emails, addresses, notes or the audit trail.",
    auth: "public",
    pathParams: idPath,
    success: [{ status: 200, description: "The public view", shape: publicInvoice }],
    errors: [err(404, INVOICE_NOT_FOUND)],
  },
  {
    method: "patch",
    path: "/api/invoices/{id}",
    operationId: "updateInvoice",
    tag: "Invoices",
    summary: "Update a draft",
    description:
      "Any subset of the creatable fields, in either form; totals are recomputed. DRAFT only; the status cannot be changed here.",
    auth: "authed",
    pathParams: idPath,
    body: bodyOf(updateInvoiceSchema, {
      formB: {
        summary: "Form B",
        value: {
          title: "Website, phase 1",
          lineItems: [{ description: "Build", quantity: "2", rate: "500" }],
        },
      },
      formA: {
        summary: "Form A",
        value: { notes: "Net 30", items: [{ description: "Build", quantity: 2, rate: 500 }] },
      },
    }),
    success: [
      { status: 200, description: "The updated invoice (owner view)", shape: ownerInvoice },
    ],
    errors: [
      err(400, ONLY_DRAFT),
      err(400, INVALID_REQUEST),
      err(403, NOT_OWNER),
      err(403, WALLET_MISMATCH),
      err(404, INVOICE_NOT_FOUND),
      err(409, NUMBER_TAKEN),
    ],
  },
  {
    method: "delete",
    path: "/api/invoices/{id}",
    operationId: "deleteInvoice",
    tag: "Invoices",
    summary: "Delete a draft (soft delete)",
    auth: "authed",
    pathParams: idPath,
    success: [{ status: 200, description: "Deleted", shape: deletedInvoice }],
    errors: [err(400, ONLY_DRAFT), err(403, NOT_OWNER), err(404, INVOICE_NOT_FOUND)],
  },
  {
    method: "get",
    path: "/api/invoices/{id}/owner",
    operationId: "getOwnerInvoice",
    tag: "Invoices",
    summary: "Owner view of an invoice",
    description: "Every field, with line items, payments and the audit trail.",
    auth: "authed",
    pathParams: idPath,
    success: [{ status: 200, description: "The owner view", shape: ownerInvoice }],
    errors: [err(403, NOT_OWNER), err(404, INVOICE_NOT_FOUND)],
  },
  {
    method: "get",
    path: "/api/invoices/{id}/pdf",
    operationId: "getInvoicePdf",
    tag: "Invoices",
    summary: "Invoice as a PDF",
    description:
      "The owner's invoice as a PDF download (`<invoiceNumber>.pdf`); 403 and 404 exactly like the owner view.",
    auth: "authed",
    pathParams: idPath,
    success: [
      {
        status: 200,
        description: "The PDF",
        raw: {
          contentType: "application/pdf",
          headers: {
            "Content-Disposition": { description: '`attachment; filename="INV-0001.pdf"`' },
          },
        },
      },
    ],
    errors: [err(403, NOT_OWNER), err(404, INVOICE_NOT_FOUND)],
  },
  {
    method: "post",
    path: "/api/invoices/{id}/send",
    operationId: "sendInvoice",
    tag: "Invoices",
    summary: "Send a draft (DRAFT -> PENDING)",
    description:
      "No body. The payment page `{APP_URL}/pay/<id>` becomes payable and the invoice read-only; audit `SENT`, event `invoice.sent`.",
    auth: "authed",
    pathParams: idPath,
    success: [{ status: 200, description: "Sent", shape: sentInvoice }],
    errors: [
      err(400, "Invoice cannot be sent. Current status: PENDING"),
      err(403, NOT_OWNER),
      err(404, INVOICE_NOT_FOUND),
    ],
  },
  {
    method: "post",
    path: "/api/invoices/{id}/cancel",
    operationId: "cancelInvoice",
    tag: "Invoices",
    summary: "Cancel an invoice",
    description:
      "From DRAFT, PENDING, PROCESSING, FAILED or EXPIRED; the body (`reason`) is optional. Audit `CANCELLED`, event `invoice.cancelled`.",
    auth: "authed",
    pathParams: idPath,
    body: bodyOf(
      cancelInvoiceSchema.unwrap(),
      { request: { summary: "With a reason", value: { reason: "Client changed plans" } } },
      false,
    ),
    success: [{ status: 200, description: "Cancelled", shape: cancelledInvoice }],
    errors: [
      err(400, "Invoice cannot be cancelled. Current status: PAID"),
      err(400, INVALID_REQUEST),
      err(403, NOT_OWNER),
      err(404, INVOICE_NOT_FOUND),
    ],
  },

  // Clients
  {
    method: "get",
    path: "/api/clients",
    operationId: "listClients",
    tag: "Clients",
    summary: "List saved clients",
    description:
      "The caller's clients, favorites first, then newest first; an empty array when none.",
    auth: "authed",
    internalError: "Failed to fetch clients",
    success: [{ status: 200, description: "The caller's clients", shape: clientList }],
    errors: [],
  },
  {
    method: "post",
    path: "/api/clients",
    operationId: "upsertClient",
    tag: "Clients",
    summary: "Save a client (upsert by email)",
    description:
      "Upsert on (caller wallet, email): an existing client is updated and keeps its id; otherwise a new one is created.",
    auth: "authed",
    internalError: "Failed to save client",
    body: bodyOf(clientInputSchema, {
      request: {
        summary: "Request",
        value: {
          name: "Ada Client",
          email: "ada@example.com",
          company: "Analytical Engines Ltd",
          isFavorite: true,
        },
      },
    }),
    success: [{ status: 201, description: "The saved client", shape: clientResponse }],
    errors: [err(400, "Invalid email"), err(400, "Name is required")],
  },
  {
    method: "patch",
    path: "/api/clients/{id}/favorite",
    operationId: "setClientFavorite",
    tag: "Clients",
    summary: "Mark or unmark a favorite",
    auth: "authed",
    internalError: "Failed to update client",
    pathParams: idPath,
    body: bodyOf(favoriteInputSchema, {
      request: { summary: "Request", value: { isFavorite: true } },
    }),
    success: [
      { status: 200, description: "The client, `updatedAt` refreshed", shape: clientResponse },
    ],
    errors: [err(400, INVALID_REQUEST), err(403, NOT_OWNER), err(404, CLIENT_NOT_FOUND)],
  },
  {
    method: "delete",
    path: "/api/clients/{id}",
    operationId: "deleteClient",
    tag: "Clients",
    summary: "Delete a saved client",
    auth: "authed",
    pathParams: idPath,
    success: [{ status: 200, description: "Deleted", shape: clientDeleted }],
    errors: [err(403, NOT_OWNER), err(404, CLIENT_NOT_FOUND)],
  },

  // Payment links
  {
    method: "post",
    path: "/api/links",
    operationId: "createLink",
    tag: "Payment links",
    summary: "Create a payment link",
    description:
      "A single-use invoice of kind LINK, created PENDING and paid like any invoice. `expiresAt` defaults to 24 hours and may be at most 90 days ahead. `activateNewAccounts` (XLM only, amount at least 1): a recipient account that does not exist yet is created by the payment.",
    auth: "authed",
    extraLimit: "60 links per hour per wallet",
    body: bodyOf(createLinkSchema, {
      formB: {
        summary: "Form B",
        value: {
          amount: "25.50",
          asset: "USDC",
          networkPassphrase: TESTNET,
          title: "Coffee beans",
          reference: "order-42",
        },
      },
      formA: {
        summary: "Form A",
        value: { amount: 25.5, asset: "USDC", network: "testnet", title: "Coffee beans" },
      },
    }),
    success: [{ status: 201, description: "The created link", shape: paymentLinkResponse }],
    errors: [
      err(400, INVALID_REQUEST, "VALIDATION_ERROR", { expiresAt: "must be in the future" }),
      err(400, INVALID_NETWORK),
      err(429, linkCreatePolicy(LIMIT_DEFAULTS).message),
    ],
  },
  {
    method: "get",
    path: "/api/links",
    operationId: "listLinks",
    tag: "Payment links",
    summary: "List the caller's payment links",
    description: "Newest first.",
    auth: "authed",
    success: [{ status: 200, description: "The caller's links", shape: paymentLinkList }],
    errors: [],
  },
  {
    method: "get",
    path: "/api/links/{id}",
    operationId: "getLink",
    tag: "Payment links",
    summary: "Public view of a payment link",
    description: "404 `Link not found` for unknown, deleted, or expired and unpaid links.",
    auth: "public",
    pathParams: idPath,
    success: [{ status: 200, description: "The link", shape: paymentLinkResponse }],
    errors: [err(404, LINK_NOT_FOUND)],
  },
  {
    method: "get",
    path: "/api/links/{id}/status",
    operationId: "getLinkStatus",
    tag: "Payment links",
    summary: "Payment link status (for polling)",
    auth: "public",
    pathParams: idPath,
    success: [{ status: 200, description: "The link's status", shape: paymentLinkStatus }],
    errors: [err(404, LINK_NOT_FOUND)],
  },

  // Payments
  {
    method: "post",
    path: "/api/payments/{invoiceId}/pay-intent",
    operationId: "createPaymentIntent",
    tag: "Payments",
    summary: "Build an unsigned payment",
    description:
      "Always returns the SEP-7 URI; with a sender (`senderPublicKey`, or its Form B alias `payerAddress`) also the unsigned transaction (one payment to the freelancer for the exact total, text memo = invoice number, 300-second timeout). Checks on the ledger that both accounts exist and trust the asset. Moves PENDING or FAILED to PROCESSING.",
    auth: "public",
    ledger: true,
    extraLimit: "10 requests per 5 minutes (per wallet, or per IP without a token)",
    pathParams: invoiceIdPath,
    body: bodyOf(payIntentSchema, {
      formA: {
        summary: "Form A: desktop flow",
        value: { senderPublicKey: PAYER, networkPassphrase: TESTNET },
      },
      formB: {
        summary: "Form B: payerAddress",
        value: { payerAddress: PAYER, networkPassphrase: TESTNET },
      },
      sep7: { summary: "SEP-7 only (mobile wallet)", value: { networkPassphrase: TESTNET } },
    }),
    success: [{ status: 200, description: "The payment intent", shape: paymentIntent }],
    errors: [
      err(400, OWN_INVOICE),
      err(400, "Invoice cannot be paid. Current status: PAID"),
      err(400, NETWORK_DOES_NOT_MATCH),
      err(400, INVALID_NETWORK),
      err(400, INVALID_ADDRESS),
      err(400, SENDER_NOT_FOUND),
      err(400, LEDGER_MESSAGES.op_no_destination, "LEDGER_ERROR"),
      err(400, LEDGER_MESSAGES.op_no_trust, "LEDGER_ERROR"),
      err(400, LEDGER_MESSAGES.op_src_no_trust, "LEDGER_ERROR"),
      err(400, LEDGER_MESSAGES.op_underfunded, "LEDGER_ERROR"),
      err(404, INVOICE_NOT_FOUND),
      err(404, LINK_NOT_FOUND),
    ],
  },
  {
    method: "post",
    path: "/api/payments/submit",
    operationId: "submitPayment",
    tag: "Payments",
    summary: "Submit a signed transaction",
    description:
      "The transaction is checked before it reaches the ledger: it must be signed for the invoice's network and be the payment the invoice asks for (recipient, asset, amount, memo). On success the invoice is PAID. A network timeout answers 202 with the hash: poll the status or confirm with it (never resubmit another transaction). Send an `Idempotency-Key` to make retries safe.",
    auth: "public",
    ledger: true,
    idempotent: true,
    internalError: "Payment processing failed",
    body: bodyOf(submitSchema, {
      formA: {
        summary: "signedTransactionXdr",
        value: { invoiceId: ID, signedTransactionXdr: "AAAAAgAAAACKc4j..." },
      },
      formB: {
        summary: "signedXdr (alias)",
        value: { invoiceId: ID, signedXdr: "AAAAAgAAAACKc4j..." },
      },
    }),
    success: [
      { status: 200, description: "Paid (or already paid)", shape: submitResult },
      {
        status: 202,
        description: "Submitted, not yet confirmed by the network",
        shape: submitPending,
      },
    ],
    errors: [
      err(400, INVALID_XDR, "VALIDATION_ERROR", {
        signedTransactionXdr: "not a transaction envelope",
      }),
      err(
        400,
        `Network mismatch: Transaction signed for 'Public Global Stellar Network ; September 2015' but invoice requires '${TESTNET}'`,
      ),
      err(400, MISMATCH_MESSAGE),
      err(400, "Invoice cannot be paid. Current status: CANCELLED"),
      ...Object.values(LEDGER_MESSAGES).map((m) => err(400, m, "LEDGER_ERROR")),
      err(400, "Invalid Idempotency-Key", "VALIDATION_ERROR", {
        "Idempotency-Key": "1 to 255 visible ASCII characters",
      }),
      err(400, "Idempotency-Key was already used with a different request"),
      err(404, INVOICE_NOT_FOUND),
      err(409, "A request with this Idempotency-Key is still being processed"),
    ],
  },
  {
    method: "post",
    path: "/api/payments/confirm",
    operationId: "confirmPayment",
    tag: "Payments",
    summary: "Confirm a payment by transaction hash",
    description:
      "For the mobile flow, a retry after a timeout, or manual verification. The transaction must have succeeded on the invoice's network, carry the invoice number as text memo, and pay the freelancer at least the total in the invoice asset (right issuer).",
    auth: "public",
    ledger: true,
    body: bodyOf(confirmSchema, {
      request: { summary: "Request", value: { invoiceId: ID, transactionHash: HASH } },
    }),
    success: [{ status: 200, description: "Confirmed (or already paid)", shape: confirmResult }],
    errors: [
      err(400, NOT_SUCCESSFUL_MESSAGE),
      err(400, MISMATCH_MESSAGE),
      err(400, "Underpayment: paid 99.5, expected 100"),
      err(400, "Invoice cannot be paid. Current status: DRAFT"),
      err(404, INVOICE_NOT_FOUND),
      err(404, TX_NOT_FOUND_ON_NETWORK),
    ],
  },
  {
    method: "get",
    path: "/api/payments/{invoiceId}/status",
    operationId: "getPaymentStatus",
    tag: "Payments",
    summary: "Payment status of an invoice",
    description: "Poll every 5 seconds while waiting for a payment.",
    auth: "public",
    internalError: "Failed to fetch payment status",
    pathParams: invoiceIdPath,
    success: [{ status: 200, description: "The payment status", shape: paymentStatusResponse }],
    errors: [err(404, INVOICE_NOT_FOUND)],
  },
  {
    method: "post",
    path: "/api/payments/verify-tx",
    operationId: "verifyTransaction",
    tag: "Payments",
    summary: "Inspect any transaction",
    description:
      "Not tied to an invoice: every payment operation of the transaction. Without a network it is looked up on testnet, then mainnet.",
    auth: "public",
    ledger: true,
    internalError: "Failed to verify transaction",
    body: bodyOf(verifyTxSchema, {
      request: { summary: "Request", value: { transactionHash: HASH, network: "testnet" } },
    }),
    success: [{ status: 200, description: "The transaction", shape: verifiedTransaction }],
    errors: [
      err(400, "transactionHash required"),
      err(400, INVALID_NETWORK),
      err(404, "Transaction not found"),
    ],
  },

  // Prices
  {
    method: "get",
    path: "/api/prices/xlm",
    operationId: "getXlmPrice",
    tag: "Prices",
    summary: "XLM price in USD",
    description:
      "Cached server-side for 60 seconds. When the external source fails, the last known price is served with `stale: true`.",
    auth: "public",
    extraLimit: "30 requests per minute per IP address",
    success: [{ status: 200, description: "The price", shape: xlmPrice }],
    errors: [err(429, pricePolicy(LIMIT_DEFAULTS).message), err(503, PRICE_UNAVAILABLE)],
  },

  // Webhooks
  {
    method: "post",
    path: "/api/webhooks",
    operationId: "createWebhook",
    tag: "Webhooks",
    summary: "Register a webhook endpoint",
    description:
      "`url` must be a public https URL (checked again, with its DNS answer, at every delivery); `events` lists event types or `*`. The signing secret is in this response only. At most 10 endpoints per wallet.",
    auth: "authed",
    body: bodyOf(createWebhookSchema, {
      request: {
        summary: "Request",
        value: {
          url: "https://example.com/hooks/stellar",
          events: ["invoice.paid", "invoice.expired"],
        },
      },
    }),
    success: [{ status: 201, description: "The endpoint, with its secret", shape: createdWebhook }],
    errors: [
      err(400, WEBHOOK_URL_REFUSED, "VALIDATION_ERROR", {
        url: "the scheme must be https",
      }),
      err(400, INVALID_REQUEST, "VALIDATION_ERROR", {
        events: "events must list at least one event type",
      }),
      err(409, WEBHOOK_LIMIT_REACHED),
    ],
  },
  {
    method: "get",
    path: "/api/webhooks",
    operationId: "listWebhooks",
    tag: "Webhooks",
    summary: "List webhook endpoints",
    description: "The caller's endpoints, oldest first. Secrets are never listed.",
    auth: "authed",
    success: [{ status: 200, description: "The caller's endpoints", shape: webhookList }],
    errors: [],
  },
  {
    method: "delete",
    path: "/api/webhooks/{id}",
    operationId: "deleteWebhook",
    tag: "Webhooks",
    summary: "Delete a webhook endpoint",
    auth: "authed",
    pathParams: idPath,
    success: [{ status: 200, description: "Deleted", shape: webhookDeleted }],
    errors: [err(403, NOT_OWNER), err(404, WEBHOOK_NOT_FOUND)],
  },
  {
    method: "get",
    path: "/api/webhooks/{id}/deliveries",
    operationId: "listWebhookDeliveries",
    tag: "Webhooks",
    summary: "Delivery log of an endpoint",
    description:
      "Newest first; `limit` defaults to 50 in Form B and 20 in Form A (max 100). Finished deliveries are kept for 30 days after they were queued (a manual retry restarts the clock); pending ones until they finish.",
    auth: "authed",
    pathParams: idPath,
    query: listDeliveriesQuerySchema.omit({ envelope: true }),
    success: [{ status: 200, description: "One page of deliveries", shape: webhookDeliveryPage }],
    errors: [err(400, INVALID_REQUEST), err(403, NOT_OWNER), err(404, WEBHOOK_NOT_FOUND)],
  },
  {
    method: "post",
    path: "/api/webhooks/{id}/deliveries/{deliveryId}/retry",
    operationId: "retryWebhookDelivery",
    tag: "Webhooks",
    summary: "Send a delivery again",
    description:
      "Queues the delivery again, due now, with a fresh retry window; the worker or the cron route sends it. A disabled endpoint is enabled again.",
    auth: "authed",
    pathParams: z.object({
      id: idParamSchema.meta({ description: "Webhook endpoint id" }),
      deliveryId: idParamSchema.meta({ description: "Delivery id" }),
    }),
    success: [{ status: 202, description: "Queued", shape: webhookDelivery }],
    errors: [err(403, NOT_OWNER), err(404, WEBHOOK_NOT_FOUND), err(404, DELIVERY_NOT_FOUND)],
  },

  // Cron
  ...(["get", "post"] as const).flatMap((method): OperationSpec[] => [
    {
      method,
      path: "/api/cron/expire",
      operationId: `cronExpire${method === "get" ? "Get" : "Post"}`,
      tag: "Cron",
      summary: "Expire due invoices (cron)",
      description:
        "Moves PENDING/PROCESSING invoices whose due date has ended to EXPIRED and clears dead rows. Called by Vercel Cron (GET) or any scheduler (POST); several may run at once.",
      auth: "cron",
      success: [{ status: 200, description: "How many invoices expired", shape: cronExpireResult }],
      errors: [],
    },
    {
      method,
      path: "/api/cron/webhooks",
      operationId: `cronWebhooks${method === "get" ? "Get" : "Post"}`,
      tag: "Cron",
      summary: "Deliver due webhooks (cron)",
      description:
        "Fans new events out to the endpoints that want them and sends due deliveries (5-second timeout each, retries with exponential backoff).",
      auth: "cron",
      success: [{ status: 200, description: "What this pass did", shape: cronWebhooksResult }],
      errors: [],
    },
    {
      method,
      path: "/api/cron/watcher",
      operationId: `cronWatcher${method === "get" ? "Get" : "Post"}`,
      tag: "Cron",
      summary: "One ledger-watcher pass per network (cron)",
      description:
        "Reads new payments from Horizon since the stored cursor and settles matching invoices.",
      auth: "cron",
      success: [{ status: 200, description: "One result per network", shape: cronWatcherResult }],
      errors: [],
    },
  ]),
];

// ---- status descriptions and shared components --------------------------------------------

const STATUS_TEXT: Record<number, string> = {
  400: "Bad request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not found",
  409: "Conflict",
  413: "Payload too large",
  415: "Unsupported media type",
  429: "Too many requests",
  500: "Internal error",
  503: "Unavailable",
};

const DEFAULT_CODE: Record<number, ErrorCode> = {
  400: "VALIDATION_ERROR",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  413: "VALIDATION_ERROR",
  415: "VALIDATION_ERROR",
  429: "RATE_LIMIT_EXCEEDED",
  500: "INTERNAL_ERROR",
  503: "UNAVAILABLE",
};

export const RATE_LIMIT_HEADERS = [
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "X-RateLimit-Policy",
] as const;

const HEADERS: NonNullable<ZodOpenApiComponentsObject["headers"]> = {
  "X-Request-Id": {
    description:
      "Id of this request, on every response (the caller's own `X-Request-Id` is echoed when it is 8-128 of `A-Za-z0-9_.:-`); the server log line of a 500 carries it.",
    required: true,
    schema: { type: "string", example: "5f0c6b2e-8a7d-4a34-9d0e-2c1f8f6f4b1a" },
  },
  "RateLimit-Limit": {
    description: "Requests allowed in the window of the most constraining limit that applied",
    schema: { type: "integer", example: 100 },
  },
  "RateLimit-Remaining": {
    description: "Requests left in that window",
    schema: { type: "integer", example: 99 },
  },
  "RateLimit-Reset": {
    description: "Unix time (seconds) when that window resets",
    schema: { type: "integer", example: 1768473060 },
  },
  "X-RateLimit-Limit": { description: "Same as RateLimit-Limit", schema: { type: "integer" } },
  "X-RateLimit-Remaining": {
    description: "Same as RateLimit-Remaining",
    schema: { type: "integer" },
  },
  "X-RateLimit-Reset": { description: "Same as RateLimit-Reset", schema: { type: "integer" } },
  "X-RateLimit-Policy": {
    description: "Every limit that applied, as `<limit>;w=<window seconds>`, comma separated",
    schema: { type: "string", example: "100;w=60" },
  },
  "Retry-After": {
    description: "Seconds to wait before retrying (on 429; also `retryAfter` in the body)",
    schema: { type: "integer", example: 42 },
  },
  "Idempotent-Replayed": {
    description:
      "`true` when this response is the stored answer to an earlier request with the same Idempotency-Key",
    schema: { type: "string", enum: ["true"] },
  },
};

const ref = (kind: "headers" | "parameters", name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

const SECURITY: Record<AuthKind, Record<string, string[]>[]> = {
  none: [],
  // An empty requirement makes the credential optional: public endpoints read a Bearer token
  // (to count the global limit per wallet) but never require one.
  public: [{}, { bearerAuth: [] }],
  authed: [{ bearerAuth: [] }, { walletAddress: [], authNonce: [], authSignature: [] }],
  cron: [{ cronSecret: [] }],
};

const AUTH_NOTE: Record<AuthKind, string> = {
  none: "No authentication; not rate limited.",
  public: "Public: no credentials needed (a Bearer token, when sent, only keys the rate limit).",
  authed:
    "Requires `Authorization: Bearer <token>` or the three headers `x-wallet-address`, `x-auth-nonce`, `x-auth-signature` (a fresh nonce, one request each).",
  cron: "Requires `Authorization: Bearer <CRON_SECRET>`; not rate limited.",
};

const isLimited = (op: OperationSpec) => op.auth === "public" || op.auth === "authed";

/** Every error an operation can answer: its own plus those the shared endpoint code adds. */
export function errorsOf(op: OperationSpec): ErrorExample[] {
  const list: ErrorExample[] = [];
  if (op.body) {
    list.push(
      err(400, INVALID_REQUEST, "VALIDATION_ERROR", { body: "Malformed JSON" }),
      err(413, `Request body too large (max ${DEFAULT_MAX_BODY_BYTES} bytes)`),
      err(415, "Content-Type must be application/json"),
    );
  }
  if (op.auth === "authed") {
    list.push(err(401, AUTH_REQUIRED), err(401, INVALID_TOKEN), err(401, INVALID_SIGNATURE));
  }
  if (op.auth === "cron") list.push(err(401, AUTH_REQUIRED));
  list.push(...op.errors);
  if (isLimited(op)) list.push(err(429, TOO_MANY));
  if (op.ledger) list.push(err(429, NETWORK_BUSY), err(503, NETWORK_UNAVAILABLE));
  list.push(err(500, op.internalError ?? INTERNAL_ERROR), err(503, DATABASE_UNAVAILABLE));
  const seen = new Set<string>();
  return list.filter((e) => {
    const key = `${e.status} ${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Response headers. The rate-limit headers come with every response of a limited endpoint;
 * to keep the document readable they are listed on its successes and its 429.
 */
function headersFor(op: OperationSpec, status: number) {
  const names: string[] = ["X-Request-Id"];
  if (isLimited(op) && (status < 300 || status === 429)) names.push(...RATE_LIMIT_HEADERS);
  if (status === 429) names.push("Retry-After");
  if (op.idempotent) names.push("Idempotent-Replayed");
  return Object.fromEntries(names.map((n) => [n, ref("headers", n)]));
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 60);

function errorResponse(op: OperationSpec, status: number, errors: ErrorExample[]) {
  const examples: Record<string, { summary: string; value: unknown }> = {};
  for (const e of errors) {
    const code = e.code ?? DEFAULT_CODE[status];
    examples[slug(e.message) || `error-${status}`] = {
      summary: e.message,
      value: {
        error: e.message,
        code,
        ...(e.details ? { details: e.details } : {}),
        ...(status === 429 ? { retryAfter: 42 } : {}),
      },
    };
  }
  const first = errors[0];
  examples.formA = {
    summary: `Form A (?envelope=true): ${first.message}`,
    value: {
      success: false,
      error: {
        code: first.code ?? DEFAULT_CODE[status],
        message: first.message,
        ...(first.details ? { details: first.details } : {}),
        ...(status === 429 ? { retryAfter: 42 } : {}),
      },
    },
  };
  return {
    description: `${STATUS_TEXT[status] ?? "Error"}: ${errors.map((e) => `\`${e.message}\``).join("; ")}`,
    headers: headersFor(op, status),
    content: {
      "application/json": { schema: z.xor([errorB, errorA]), examples },
    },
  } satisfies ZodOpenApiResponseObject;
}

function successResponse(
  op: OperationSpec,
  s: Success,
  examples: Record<string, { b: unknown; a: unknown }>,
): ZodOpenApiResponseObject {
  if ("raw" in s) {
    return {
      description: `${s.description}. Not enveloped (errors are JSON as usual).`,
      headers: {
        ...headersFor(op, s.status),
        ...Object.fromEntries(
          Object.entries(s.raw.headers ?? {}).map(([name, h]) => [
            name,
            { description: h.description, schema: { type: "string" } },
          ]),
        ),
      },
      content: {
        [s.raw.contentType]: {
          schema: { type: "string", contentMediaType: s.raw.contentType },
        },
      },
    };
  }
  const example = examples[s.shape.name];
  return {
    description: `${s.description}. Form B by default; Form A (\`{success: true, data}\`) with \`?envelope=true\`${s.shape.same ? " (same payload)" : ""}.`,
    headers: headersFor(op, s.status),
    content: {
      "application/json": {
        // anyOf, not oneOf: the query parameter picks the form, and a bare `{success: true}`
        // acknowledgement (Form B delete) would also match a Form A envelope.
        schema: z.union([s.shape.b, s.shape.envelope]),
        ...(example
          ? {
              examples: {
                formB: { summary: "Form B (default)", value: example.b },
                formA: {
                  summary: "Form A (?envelope=true)",
                  value: { success: true, data: example.a },
                },
              },
            }
          : {}),
      },
    },
  };
}

function buildOperation(
  op: OperationSpec,
  examples: Record<string, { b: unknown; a: unknown }>,
): ZodOpenApiOperationObject {
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  for (const s of op.success) responses[String(s.status)] = successResponse(op, s, examples);
  const byStatus = new Map<number, ErrorExample[]>();
  for (const e of errorsOf(op)) byStatus.set(e.status, [...(byStatus.get(e.status) ?? []), e]);
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    responses[String(status)] = errorResponse(op, status, byStatus.get(status) ?? []);
  }
  const notes = [
    op.description,
    AUTH_NOTE[op.auth],
    op.extraLimit ? `Limit: ${op.extraLimit}, on top of the global limit.` : undefined,
  ].filter(Boolean);
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: notes.join("\n\n"),
    security: SECURITY[op.auth],
    parameters: [ref("parameters", "envelope")],
    requestParams: {
      ...(op.pathParams ? { path: op.pathParams } : {}),
      ...(op.query ? { query: op.query } : {}),
      ...(op.idempotent ? { header: idempotencyHeader } : {}),
    },
    ...(op.body
      ? {
          requestBody: {
            required: op.body.required,
            description:
              "JSON (`Content-Type: application/json`, at most MAX_BODY_BYTES). Both body forms are accepted; unknown fields are a 400.",
            content: {
              "application/json": { schema: op.body.schema, examples: op.body.examples },
            },
          },
        }
      : {}),
    responses: responses as ZodOpenApiOperationObject["responses"],
  };
}

/** Not under /api: health, and this document. */
function extraPaths(): ZodOpenApiPathsObject {
  return {
    "/api/health": {
      get: {
        operationId: "getHealth",
        tags: ["Health"],
        summary: "Health check",
        description: `For load balancers and uptime checks. ${AUTH_NOTE.none} Same body in both forms.`,
        security: [],
        responses: {
          "200": {
            description: "The service and its database are up",
            headers: { "X-Request-Id": ref("headers", "X-Request-Id") },
            content: {
              "application/json": {
                schema: health,
                example: { status: "ok", database: "reachable", version: "0.1.0" },
              },
            },
          },
          "503": {
            description: "The database is unreachable",
            headers: { "X-Request-Id": ref("headers", "X-Request-Id") },
            content: {
              "application/json": {
                schema: health,
                example: { status: "degraded", database: "unreachable", version: "0.1.0" },
              },
            },
          },
        },
      },
    },
    "/openapi.json": {
      get: {
        operationId: "getOpenApiDocument",
        tags: ["Meta"],
        summary: "This OpenAPI document",
        description:
          "OpenAPI 3.1, generated from the zod schemas that validate requests. Rendered at `/docs`.",
        security: [],
        responses: {
          "200": {
            description: "The document",
            content: { "application/json": { schema: { type: "object" } } },
          },
        },
      },
    },
  };
}

const DESCRIPTION = `
Invoices and payment links paid in XLM, USDC or EURC on the Stellar network. Every request and response body is JSON.

## Response forms
- **Form B** (default): the bare payload; amounts are exact decimal strings; errors are \`{"error": "<message>", "code": "...", "details"?, "retryAfter"?}\`.
- **Form A** (query parameter \`envelope=true\` on any endpoint): \`{"success": true, "data": ...}\` with the Form A shapes (\`items\`, numbers, \`totalAmount\`, \`paymentLink\`, \`auditLog\`); errors are \`{"success": false, "error": {"code", "message", "details"?, "retryAfter"?}}\`.

Every success response below is an \`anyOf\` of the two forms (errors a \`oneOf\`), with an example of each. Request bodies accept both forms (\`lineItems\` or \`items\`, strings or numbers, \`networkPassphrase\` or \`network\`, \`signedTransactionXdr\` or \`signedXdr\`, \`senderPublicKey\` or \`payerAddress\`); unknown fields are rejected.

## Errors
\`code\` is one of \`VALIDATION_ERROR\` (400; also 405, 413, 415), \`UNAUTHORIZED\` (401), \`FORBIDDEN\` (403), \`NOT_FOUND\` (404), \`CONFLICT\` (409), \`RATE_LIMIT_EXCEEDED\` (429), \`LEDGER_ERROR\` (400), \`UNAVAILABLE\` (503), \`INTERNAL_ERROR\` (500). Messages are the specification's, word for word; \`details\` maps a field to a message. Unknown \`/api\` paths answer a JSON 404 \`Not found\`, unsupported methods a JSON 405 \`Method not allowed\` with \`Allow\`. A 500 never shows internals.

## Authentication
Passwordless: \`POST /api/auth/nonce\`, sign the returned message with the wallet's ed25519 key, exchange it at \`POST /api/auth/session\` for a one-hour JWT, then send \`Authorization: Bearer <token>\`. Instead of a token, one request may carry the three headers \`x-wallet-address\`, \`x-auth-nonce\` and \`x-auth-signature\` (a fresh nonce, signed the same way). Cron routes take \`Authorization: Bearer <CRON_SECRET>\`.

## Rate limits
100 requests per minute, keyed by wallet with a valid token and by client IP otherwise; failed credentials also count against the IP (30 per minute); some endpoints add their own limit. Limited responses carry \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\` (Unix seconds), their \`X-RateLimit-*\` twins and \`X-RateLimit-Policy\`; a 429 adds \`Retry-After\` and \`retryAfter\` in the body. \`/api/health\` is not limited.

## Versioning and tracing
\`/api/v1/...\` answers exactly like \`/api/...\`. Every response carries \`X-Request-Id\`.

## Webhooks
Events are POSTed to registered endpoints, signed with \`X-Service-Signature\` (hex HMAC-SHA256 of the raw body); see the \`webhooks\` section.
`.trim();

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const COMBINATORS = ["anyOf", "oneOf", "allOf", "$ref", "enum", "const"];

/**
 * Plainer JSON Schema for readers and renderers, same meaning: `anyOf [X, {type: null}]`
 * becomes `type: [X, "null"]`; `additionalProperties: {}` becomes `true`; zod's long
 * date-time regex and the safe-integer bounds are dropped (`format: date-time` and `integer`
 * say it). Example values are left alone.
 */
function tidy(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) tidy(item);
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key !== "example" && key !== "examples") tidy(value);
  }
  const anyOf = node.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nullAt = anyOf.findIndex(
      (s) => isObject(s) && s.type === "null" && Object.keys(s).length === 1,
    );
    const other = anyOf[1 - nullAt];
    if (
      nullAt !== -1 &&
      isObject(other) &&
      "type" in other &&
      !COMBINATORS.some((k) => k in other)
    ) {
      const types = Array.isArray(other.type) ? other.type : [other.type];
      delete node.anyOf;
      Object.assign(node, { ...other, ...node, type: [...types, "null"] });
    }
  }
  if (isObject(node.additionalProperties) && Object.keys(node.additionalProperties).length === 0) {
    node.additionalProperties = true;
  }
  if (node.format === "date-time" && typeof node.pattern === "string") delete node.pattern;
  if (node.type === "integer" || (Array.isArray(node.type) && node.type.includes("integer"))) {
    if (node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum;
    if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
  }
}

/** Builds the document for a deployment whose public URL is `appUrl`. */
export function buildOpenApiDocument(appUrl: string) {
  const base = appUrl.replace(/\/+$/, "");
  const examples = exampleBodies(base);
  const paths: ZodOpenApiPathsObject = extraPaths();
  for (const op of OPERATIONS) {
    paths[op.path] ??= {};
    paths[op.path][op.method] = buildOperation(op, examples);
  }
  const document = createDocument(
    {
      openapi: "3.1.0",
      info: {
        title: "Stellar Invoicing API",
        version: "1.0.0",
        description: DESCRIPTION,
      },
      servers: [{ url: base, description: "This deployment" }],
      tags: [
        { name: "Auth", description: "Wallet sign-in (nonce, signature, session token)" },
        { name: "Invoices", description: "Create, send, list, cancel; public and owner views" },
        { name: "Clients", description: "Saved clients (upsert by email, favorites)" },
        { name: "Payment links", description: "Single-amount checkout links" },
        { name: "Payments", description: "Public payment flow: intent, submit, confirm, status" },
        { name: "Prices", description: "XLM price in USD" },
        { name: "Webhooks", description: "Register endpoints for events; delivery log and retry" },
        { name: "Webhook events", description: "What the service POSTs to your endpoints" },
        { name: "Health", description: "Liveness and database reachability" },
        { name: "Cron", description: "Background jobs for schedulers (CRON_SECRET)" },
        { name: "Meta", description: "This description" },
      ],
      paths,
      webhooks: buildWebhooks(),
      components: {
        securitySchemes: {
          bearerAuth: {
            type: "http",
            scheme: "bearer",
            bearerFormat: "JWT",
            description: "Session token from `POST /api/auth/session` (HS256, valid one hour).",
          },
          walletAddress: {
            type: "apiKey",
            in: "header",
            name: "x-wallet-address",
            description:
              "Form A credentials, with `x-auth-nonce` and `x-auth-signature`: the wallet.",
          },
          authNonce: {
            type: "apiKey",
            in: "header",
            name: "x-auth-nonce",
            description: "A fresh nonce from `POST /api/auth/nonce` (consumed by this request).",
          },
          authSignature: {
            type: "apiKey",
            in: "header",
            name: "x-auth-signature",
            description: "ed25519 signature (hex or base64) of the nonce's message, raw or SEP-53.",
          },
          cronSecret: {
            type: "http",
            scheme: "bearer",
            description: "`Authorization: Bearer <CRON_SECRET>` for the cron routes.",
          },
        },
        parameters: {
          envelope: {
            name: "envelope",
            in: "query",
            required: false,
            description:
              "`true` selects Form A: the `{success, data}` envelope and Form A shapes (errors `{success: false, error}`). Any other value, or none, is Form B.",
            schema: { type: "string", enum: ["true"] },
          },
        },
        headers: HEADERS,
      },
    },
    {
      override: ({ jsonSchema, zodSchema, io }) => {
        // The passphrase is a refined string in lib/schemas; its two values are an enum here.
        if (zodSchema === networkPassphraseSchema) jsonSchema.enum = [...NETWORK_VALUES];
        // Spec 9: new response fields are non-breaking and clients ignore unknown fields, so
        // responses do not close their objects. Requests stay strict (unknown fields are a 400).
        if (io === "output" && jsonSchema.additionalProperties === false) {
          delete jsonSchema.additionalProperties;
        }
      },
    },
  );
  tidy(document.paths);
  tidy(document.webhooks);
  tidy(document.components?.schemas);
  return document;
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

let cached: { appUrl: string; document: OpenApiDocument; json: string } | undefined;

/** The document for `appUrl`, built once per process (it never changes at run time). */
export function getOpenApiDocument(appUrl: string): { document: OpenApiDocument; json: string } {
  if (cached?.appUrl !== appUrl) {
    const document = buildOpenApiDocument(appUrl);
    cached = { appUrl, document, json: JSON.stringify(document) };
  }
  return cached;
}
