import { z } from "zod";
import { AUDIT_ACTIONS, INVOICE_STATUSES } from "@/lib/domain/invoice-state";
import { CURRENCIES } from "@/lib/domain/money";
import type { Serializer } from "@/lib/http/forms";
import type { TickResult } from "@/lib/jobs/watcher";
import {
  clientDeletedSerializer,
  clientListSerializer,
  clientSerializer,
} from "@/lib/serializers/clients";
import {
  cancelledInvoiceSerializer,
  deletedInvoiceSerializer,
  invoicePageSerializer,
  ownerInvoiceSerializer,
  publicInvoiceSerializer,
  sentInvoiceSerializer,
  statsSerializer,
} from "@/lib/serializers/invoices";
import { linkListSerializer, linkSerializer, linkStatusSerializer } from "@/lib/serializers/links";
import {
  confirmSerializer,
  paymentIntentSerializer,
  paymentStatusSerializer,
  submitSerializer,
  verifiedTransactionSerializer,
} from "@/lib/serializers/payments";
import {
  createdWebhookSerializer,
  deliveryPageSerializer,
  deliverySerializer,
  webhookDeletedSerializer,
  webhookListSerializer,
} from "@/lib/serializers/webhooks";
import type { ClientRow } from "@/lib/services/clients/upsert-client";
import type { InvoiceStats } from "@/lib/services/invoices/invoice-stats";
import type { InvoicePage } from "@/lib/services/invoices/list-invoices";
import type {
  AuditRow,
  InvoiceRow,
  LineItemRow,
  OwnerInvoice,
  PaymentRow,
} from "@/lib/services/invoices/store";
import type { PaymentIntent } from "@/lib/services/payments/pay-intent";
import type { RecordOutcome } from "@/lib/services/payments/record-payment";
import type { VerifiedTransaction } from "@/lib/services/payments/verify-tx";
import type { DeliveryView } from "@/lib/webhooks/deliveries";
import type { CreatedSubscription } from "@/lib/webhooks/subscriptions";

/**
 * Response bodies of every endpoint, in Form B (default) and Form A (`?envelope=true`), as
 * zod schemas for the OpenAPI document. They mirror lib/serializers/*.ts field for field;
 * tests/openapi.test.ts runs the real serializers on sample rows and parses the output with
 * these schemas (unknown keys would be stripped, so a new serializer field fails the test).
 */

const TESTNET = "Test SDF Network ; September 2015";
const EXAMPLE_WALLET = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";
const EXAMPLE_ID = "clx8f2k9p0000abcd1234efgh";
const EXAMPLE_HASH = "3389e9f0f1a65f19736cacf544c2e825313e8447f569233bb8db39aa607c8889";

// ---- primitives -------------------------------------------------------------------------

const id = z.string().meta({ description: "Opaque CUID-style id", example: EXAMPLE_ID });
const timestamp = z.iso
  .datetime()
  .meta({ description: "ISO 8601, UTC, milliseconds", example: "2026-01-15T10:30:00.000Z" });
const wallet = z
  .string()
  .regex(/^G[A-Z2-7]{55}$/)
  .meta({ description: "Stellar account id", example: EXAMPLE_WALLET });
const txHash = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .meta({ description: "Transaction hash, 64 lowercase hex characters", example: EXAMPLE_HASH });
/** Form B amounts: exact decimal strings as stored (numeric(18,7), quantities (10,2)). */
const decimal = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/)
  .meta({ description: "Exact decimal string (Form B)", example: "1050.0000000" });
/** Form A amounts: JSON numbers, converted only at the edge. */
const number = z.number().meta({ description: "Amount as a JSON number (Form A)", example: 1050 });
const currency = z.enum(CURRENCIES).meta({ id: "Currency" });
const invoiceStatus = z.enum(INVOICE_STATUSES).meta({ id: "InvoiceStatus" });
const auditAction = z.enum(AUDIT_ACTIONS).meta({ id: "AuditAction" });
const networkPassphrase = z.string().meta({
  description: "Network passphrase of the invoice",
  examples: [TESTNET, "Public Global Stellar Network ; September 2015"],
});
const paymentLink = z.url().meta({
  description: "`{APP_URL}/pay/<id>`",
  example: `https://invoices.example.com/pay/${EXAMPLE_ID}`,
});
const byAsset = (value: z.ZodType) => z.object({ XLM: value, USDC: value, EURC: value });

// ---- the two forms ------------------------------------------------------------------------

/** One endpoint's success body: Form B, Form A payload and Form A envelope `{success, data}`. */
export type WireShape = {
  name: string;
  b: z.ZodType;
  a: z.ZodType;
  envelope: z.ZodType;
  /** True when the payload is identical in both forms (Form A only adds the envelope). */
  same: boolean;
};

function wire(name: string, b: z.ZodType, a?: z.ZodType, description?: string): WireShape {
  const bm = b.meta({ id: name, ...(description ? { description } : {}) });
  const am = a ? a.meta({ id: `${name}FormA`, description: `Form A payload of ${name}` }) : bm;
  const envelope = z
    .object({ success: z.literal(true), data: am })
    .meta({ id: `${name}FormAEnvelope`, description: `Form A (\`?envelope=true\`): ${name}` });
  return { name, b: bm, a: am, envelope, same: !a };
}

export const ERROR_CODES = [
  "VALIDATION_ERROR",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "NOT_FOUND",
  "CONFLICT",
  "RATE_LIMIT_EXCEEDED",
  "LEDGER_ERROR",
  "UNAVAILABLE",
  "INTERNAL_ERROR",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

const errorCode = z.enum(ERROR_CODES).meta({ id: "ErrorCode" });
const details = z.record(z.string(), z.string()).meta({
  description: "Field name (or dotted path) to a message",
  example: { clientEmail: "Invalid email" },
});
const retryAfter = z
  .number()
  .int()
  .meta({ description: "Seconds to wait (429 only)", example: 42 });

/** Form B error: `{error, code, details?, retryAfter?}`. */
export const errorB = z
  .object({
    error: z.string().meta({ description: "The spec's message, word for word" }),
    code: errorCode,
    details: details.optional(),
    retryAfter: retryAfter.optional(),
  })
  .meta({ id: "Error", description: "Form B error body" });

/** Form A error: `{success: false, error: {code, message, details?, retryAfter?}}`. */
export const errorA = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: errorCode,
      message: z.string(),
      details: details.optional(),
      retryAfter: retryAfter.optional(),
    }),
  })
  .meta({ id: "ErrorFormAEnvelope", description: "Form A (`?envelope=true`) error body" });

// ---- auth ---------------------------------------------------------------------------------

export const nonceResponse = wire(
  "NonceResponse",
  z.object({
    nonce: z
      .string()
      .regex(/^[0-9a-f]{32}$/)
      .meta({ example: "9f86d081884c7d659a2feaa0c55ad015" }),
    message: z.string().meta({ description: "The four lines to sign, joined by a line feed" }),
    expiresIn: z.number().int().meta({ description: "Seconds", example: 300 }),
  }),
);

export const sessionResponse = wire(
  "SessionResponse",
  z.object({
    token: z.string().meta({ description: "HS256 JWT, valid one hour" }),
    expiresAt: timestamp,
    walletAddress: wallet,
  }),
);

export const whoAmIResponse = wire("WhoAmI", z.object({ walletAddress: wallet }));

// ---- invoices -----------------------------------------------------------------------------

const lineItemB = z
  .object({
    id,
    invoiceId: id,
    description: z.string(),
    quantity: decimal,
    rate: decimal,
    amount: decimal,
  })
  .meta({ id: "LineItem" });
const lineItemA = z
  .object({ id, description: z.string(), quantity: number, rate: number, amount: number })
  .meta({ id: "LineItemFormA" });

const paymentStatus = z.enum(["CONFIRMED", "FAILED", "REFUNDED"]);
const paymentB = z
  .object({
    id,
    invoiceId: id,
    transactionHash: txHash,
    ledgerNumber: z.number().int(),
    fromWallet: wallet,
    toWallet: wallet,
    amount: decimal,
    asset: currency,
    status: paymentStatus,
    confirmedAt: timestamp,
  })
  .meta({ id: "Payment" });
const paymentA = z
  .object({ id, transactionHash: txHash, amount: number, currency, confirmedAt: timestamp })
  .meta({ id: "PaymentFormA" });

const changes = z.record(z.string(), z.unknown()).meta({
  description: "What changed, e.g. `{status: {from, to}}`; for PAID also the transaction",
  example: { status: { from: "DRAFT", to: "PENDING" } },
});
const auditB = z
  .object({
    id,
    invoiceId: id,
    action: auditAction,
    actorWallet: z.string().meta({ description: "Wallet, or `SYSTEM` for jobs" }),
    changes: changes.nullable(),
    createdAt: timestamp,
  })
  .meta({ id: "AuditLogEntry" });
const auditA = z
  .object({
    action: auditAction,
    actorWallet: z.string(),
    timestamp,
    metadata: changes.optional(),
  })
  .meta({ id: "AuditLogEntryFormA" });

const invoiceCommon = {
  id,
  invoiceNumber: z.string().meta({ example: "INV-0001" }),
  status: invoiceStatus,
  freelancerWallet: wallet,
  freelancerName: z.string().nullable(),
  freelancerEmail: z.string().nullable(),
  freelancerCompany: z.string().nullable(),
  clientName: z.string(),
  clientEmail: z.string(),
  clientCompany: z.string().nullable(),
  clientAddress: z.string().nullable(),
  clientWallet: wallet.nullable(),
  title: z.string(),
  description: z.string().nullable(),
  notes: z.string().nullable(),
};

const invoiceB = z.object({
  ...invoiceCommon,
  subtotal: decimal,
  taxRate: decimal,
  taxAmount: decimal,
  discount: decimal,
  total: decimal,
  currency,
  networkPassphrase,
  dueDate: timestamp.nullable(),
  sentAt: timestamp.nullable(),
  paidAt: timestamp.nullable(),
  cancelledAt: timestamp.nullable(),
  transactionHash: txHash.nullable(),
  ledgerNumber: z.number().int().nullable(),
  payerWallet: wallet.nullable(),
  paymentLink,
  createdAt: timestamp,
  updatedAt: timestamp,
  lineItems: z.array(lineItemB),
  payments: z.array(paymentB),
  auditLogs: z.array(auditB),
});

const invoiceA = z.object({
  ...invoiceCommon,
  amount: number.meta({ description: "Subtotal" }),
  taxRate: z.number(),
  taxAmount: z.number(),
  discount: z.number(),
  totalAmount: number,
  currency,
  networkPassphrase,
  dueDate: timestamp.nullable(),
  sentAt: timestamp.nullable(),
  paidAt: timestamp.nullable(),
  transactionHash: txHash.nullable(),
  ledgerNumber: z.number().int().nullable(),
  payerWallet: wallet.nullable(),
  paymentLink,
  createdAt: timestamp,
  updatedAt: timestamp,
  items: z.array(lineItemA),
  payments: z.array(paymentA),
  auditLog: z.array(auditA),
});

export const ownerInvoice = wire(
  "Invoice",
  invoiceB,
  invoiceA,
  "The owner's view of an invoice: every field, payments and the audit trail",
);

export const publicInvoice = wire(
  "PublicInvoice",
  z.object({
    id,
    invoiceNumber: z.string(),
    status: invoiceStatus,
    title: z.string(),
    description: z.string().nullable(),
    freelancerWallet: wallet,
    freelancerName: z.string().nullable(),
    freelancerCompany: z.string().nullable(),
    clientName: z.string(),
    subtotal: decimal,
    taxRate: decimal,
    taxAmount: decimal,
    discount: decimal,
    total: decimal,
    currency,
    networkPassphrase,
    dueDate: timestamp.nullable(),
    paidAt: timestamp.nullable(),
    transactionHash: txHash.nullable(),
    createdAt: timestamp,
    lineItems: z.array(lineItemB),
  }),
  z.object({
    id,
    invoiceNumber: z.string(),
    clientName: z.string(),
    amount: number,
    currency,
    totalAmount: number,
    status: invoiceStatus,
    dueDate: timestamp.nullable(),
    items: z.array(lineItemA),
    createdAt: timestamp,
  }),
  "The payer's view: never emails, addresses, notes or the audit trail",
);

const pageFields = {
  total: z.number().int().meta({ description: "Matching invoices in all pages" }),
  limit: z.number().int(),
  offset: z.number().int(),
  hasMore: z.boolean(),
};

export const invoicePage = wire(
  "InvoicePage",
  z.object({
    invoices: z.array(
      z.object({
        id,
        invoiceNumber: z.string(),
        status: invoiceStatus,
        title: z.string(),
        clientName: z.string(),
        total: decimal,
        currency,
        networkPassphrase,
        dueDate: timestamp.nullable(),
        createdAt: timestamp,
      }),
    ),
    ...pageFields,
  }),
  z.object({
    items: z.array(
      z.object({
        id,
        invoiceNumber: z.string(),
        clientName: z.string(),
        amount: number,
        totalAmount: number,
        currency,
        status: invoiceStatus,
        dueDate: timestamp.nullable(),
        createdAt: timestamp,
        paymentLink,
      }),
    ),
    ...pageFields,
  }),
);

export const sentInvoice = wire(
  "SentInvoice",
  z.object({ id, status: invoiceStatus, sentAt: timestamp.nullable(), updatedAt: timestamp }),
  z.object({ id, status: invoiceStatus, paymentLink, sentAt: timestamp.nullable() }),
);

export const cancelledInvoice = wire(
  "CancelledInvoice",
  z.object({ id, status: invoiceStatus, cancelledAt: timestamp.nullable(), updatedAt: timestamp }),
  z.object({ id, status: invoiceStatus, cancelledAt: timestamp.nullable() }),
);

export const deletedInvoice = wire(
  "DeletedInvoice",
  z.object({ success: z.literal(true) }),
  z.object({ id, message: z.literal("Invoice deleted successfully") }),
);

const statusBreakdown = z.object(
  Object.fromEntries(INVOICE_STATUSES.map((s) => [s, z.number().int()])) as Record<
    (typeof INVOICE_STATUSES)[number],
    z.ZodNumber
  >,
);

export const invoiceStats = wire(
  "InvoiceStats",
  z.object({
    totalInvoices: z.number().int(),
    paidInvoices: z.number().int(),
    pendingInvoices: z.number().int(),
    totalRevenue: byAsset(decimal).meta({ description: "Sum of the totals of PAID invoices" }),
    revenueThisMonth: byAsset(decimal),
    avgInvoiceValue: byAsset(decimal),
    pendingAmount: byAsset(decimal).meta({
      description: "Invoices awaiting payment: PENDING, PROCESSING, FAILED, EXPIRED",
    }),
    statusBreakdown,
    recentActivity: z.array(
      z.object({
        invoiceId: id,
        invoiceNumber: z.string(),
        action: auditAction,
        amount: decimal,
        currency,
        timestamp,
      }),
    ),
    revenueByMonth: z.array(
      z.object({ month: z.string().meta({ example: "2026-01" }), revenue: byAsset(decimal) }),
    ),
  }),
  z.object({
    totalInvoices: z.number().int(),
    paidInvoices: z.number().int(),
    pendingInvoices: z.number().int(),
    totalRevenue: byAsset(number),
    revenueThisMonth: byAsset(number),
    avgInvoiceValue: byAsset(number),
    pendingAmount: byAsset(number),
    statusBreakdown,
    recentActivity: z.array(
      z.object({
        invoiceId: id,
        invoiceNumber: z.string(),
        action: auditAction,
        amount: number,
        currency,
        timestamp,
      }),
    ),
    revenueByMonth: z.array(z.object({ month: z.string(), revenue: byAsset(number) })),
  }),
);

// ---- clients ------------------------------------------------------------------------------

const client = z
  .object({
    id,
    freelancerWallet: wallet,
    name: z.string(),
    email: z.string(),
    company: z.string().nullable(),
    address: z.string().nullable(),
    isFavorite: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "Client" });

export const clientResponse: WireShape = {
  name: "Client",
  b: client,
  a: client,
  envelope: z
    .object({ success: z.literal(true), data: client })
    .meta({ id: "ClientFormAEnvelope", description: "Form A (`?envelope=true`): Client" }),
  same: true,
};

export const clientList = wire(
  "ClientList",
  z.array(client).meta({ description: "Favorites first, then newest first" }),
);

export const clientDeleted = wire(
  "ClientDeleted",
  z.object({ success: z.literal(true) }),
  z.object({ id, deleted: z.literal(true) }),
);

// ---- payment links ------------------------------------------------------------------------

const linkStatus = z.enum(["ACTIVE", "PAID", "EXPIRED", "CANCELLED"]).meta({ id: "LinkStatus" });

const linkFields = (amount: z.ZodType) => ({
  id,
  checkoutUrl: paymentLink,
  amount,
  asset: currency,
  networkPassphrase,
  destination: wallet.meta({ description: "The creator's wallet (payment recipient)" }),
  memo: z.string().meta({ description: "Text memo the payment must carry", example: "INV-0042" }),
  metadata: z.object({ title: z.string(), reference: z.string().nullable() }),
  description: z.string().nullable(),
  activateNewAccounts: z.boolean(),
  status: linkStatus,
  expiresAt: timestamp.nullable(),
  paidAt: timestamp.nullable(),
  transactionHash: txHash.nullable(),
  createdAt: timestamp,
});

export const paymentLinkResponse = wire(
  "PaymentLink",
  z.object(linkFields(decimal)),
  z.object(linkFields(number)),
);

export const paymentLinkList = wire(
  "PaymentLinkList",
  z.object({ links: z.array(paymentLinkResponse.b) }),
  z.object({ links: z.array(paymentLinkResponse.a) }),
);

export const paymentLinkStatus = wire(
  "PaymentLinkStatus",
  z.object({
    id,
    status: linkStatus,
    transactionHash: txHash.nullable(),
    ledgerNumber: z.number().int().nullable(),
    payerWallet: wallet.nullable(),
    paidAt: timestamp.nullable(),
    expiresAt: timestamp.nullable(),
  }),
);

// ---- payments -----------------------------------------------------------------------------

export const paymentIntent = wire(
  "PaymentIntent",
  z.object({
    invoiceId: id,
    transactionXdr: z
      .string()
      .nullable()
      .meta({ description: "Unsigned transaction (base64 XDR); null without a sender" }),
    xdr: z.string().nullable().meta({ description: "Form B overview name of transactionXdr" }),
    sep7Uri: z.string().meta({
      description: "SEP-7 `web+stellar:pay` URI, always present",
      example: `web+stellar:pay?destination=${EXAMPLE_WALLET}&amount=1050&memo=INV-0001&memo_type=MEMO_TEXT`,
    }),
    amount: z.string().meta({ description: "Decimal string", example: "1050" }),
    asset: z.object({
      code: currency,
      issuer: wallet.nullable().meta({ description: "null for XLM" }),
    }),
    memo: z.string().meta({ example: "INV-0001" }),
    destination: wallet,
    networkPassphrase,
    timeout: z.number().int().meta({ description: "Seconds", example: 300 }),
    status: invoiceStatus,
  }),
);

const submitRecorded = z
  .object({
    success: z.literal(true),
    transactionHash: txHash,
    ledger: z.number().int(),
    status: invoiceStatus,
    paidAt: timestamp.nullable(),
  })
  .meta({ id: "SubmitRecorded", description: "The transaction was applied; the invoice is PAID" });
const submitAlreadyPaid = z
  .object({
    success: z.literal(true),
    alreadyPaid: z.literal(true),
    transactionHash: txHash.nullable(),
    ledger: z.number().int().nullable(),
    status: invoiceStatus,
    paidAt: timestamp.nullable(),
  })
  .meta({ id: "SubmitAlreadyPaid", description: "The invoice was already paid; nothing was sent" });

// The more specific member first, so zod keeps `alreadyPaid` when both would match.
export const submitResult = wire(
  "SubmitResult",
  z.union([submitAlreadyPaid, submitRecorded]).meta({ override: { type: "object" } }),
);

export const submitPending = wire(
  "SubmitPending",
  z.object({
    success: z.literal(false),
    pending: z.literal(true),
    status: z.literal("PROCESSING"),
    transactionHash: txHash,
    message: z.string(),
  }),
  undefined,
  "202: the network timed out before confirming; poll the status or confirm with this hash",
);

export const confirmResult = wire(
  "ConfirmResult",
  z
    .union([
      z
        .object({
          status: z.literal("confirmed"),
          transactionHash: txHash,
          ledger: z.number().int(),
          paidAt: timestamp.nullable(),
        })
        .meta({ id: "ConfirmConfirmed" }),
      z
        .object({
          status: z.literal("already_paid"),
          transactionHash: txHash.nullable(),
          ledger: z.number().int().nullable(),
          paidAt: timestamp.nullable(),
        })
        .meta({ id: "ConfirmAlreadyPaid" }),
    ])
    .meta({ override: { type: "object" } }),
);

export const paymentStatusResponse = wire(
  "PaymentStatus",
  z.object({
    invoiceId: id,
    status: invoiceStatus,
    transactionHash: txHash.nullable(),
    ledgerNumber: z.number().int().nullable(),
    paidAt: timestamp.nullable(),
    payerWallet: wallet.nullable(),
  }),
);

export const verifiedTransaction = wire(
  "VerifiedTransaction",
  z.object({
    successful: z.boolean(),
    hash: txHash,
    ledger: z.number().int(),
    createdAt: timestamp,
    networkPassphrase,
    memoType: z.enum(["text", "id", "hash", "return", "none"]),
    memo: z.string().nullable(),
    payments: z.array(
      z.object({
        type: z.string().meta({
          description:
            "`payment`, `path_payment_strict_receive`, `path_payment_strict_send` or `create_account`",
        }),
        from: wallet,
        to: wallet,
        amount: z.string().meta({ description: "Decimal string received by `to`" }),
        assetCode: z.string().meta({ example: "USDC" }),
        assetIssuer: wallet.optional().meta({ description: "Absent for XLM" }),
      }),
    ),
  }),
);

// ---- webhooks -----------------------------------------------------------------------------

const webhookEvents = z.array(z.string()).meta({
  description: "Event types, or `*` for all",
  example: ["invoice.paid", "invoice.expired"],
});

const webhook = z
  .object({
    id,
    url: z.string().meta({ example: "https://example.com/hooks/stellar" }),
    events: webhookEvents,
    status: z.enum(["active", "disabled"]).meta({
      description: "`disabled` after deliveries failed for days; a manual retry enables it again",
    }),
    createdAt: timestamp,
    disabledAt: timestamp.nullable(),
    failingSince: timestamp.nullable(),
  })
  .meta({ id: "Webhook" });

export const createdWebhook = wire(
  "CreatedWebhook",
  z.object({
    id,
    url: z.string(),
    events: webhookEvents,
    secret: z.string().meta({
      description: "Signing secret (`whsec_...`), shown only in this response",
      example: "whsec_8f3c...",
    }),
    createdAt: timestamp,
  }),
);

export const webhookList = wire("WebhookList", z.array(webhook));

export const webhookDeleted = wire(
  "WebhookDeleted",
  z.object({ success: z.literal(true) }),
  z.object({ id, deleted: z.literal(true) }),
);

const delivery = z
  .object({
    id,
    eventId: z.string().meta({ example: "evt_clx8f2k9p0000abcd1234efgh" }),
    eventType: z.string().nullable(),
    status: z.enum(["pending", "delivered", "failed"]),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    lastAttemptAt: timestamp.nullable(),
    nextAttemptAt: timestamp.nullable().meta({ description: "Set while pending" }),
    deliveredAt: timestamp.nullable(),
    createdAt: timestamp,
  })
  .meta({ id: "WebhookDelivery" });

export const webhookDelivery: WireShape = {
  name: "WebhookDelivery",
  b: delivery,
  a: delivery,
  envelope: z.object({ success: z.literal(true), data: delivery }).meta({
    id: "WebhookDeliveryFormAEnvelope",
    description: "Form A (`?envelope=true`): WebhookDelivery",
  }),
  same: true,
};

export const webhookDeliveryPage = wire(
  "WebhookDeliveryPage",
  z.object({ deliveries: z.array(delivery), ...pageFields }),
);

// ---- prices, health, cron -----------------------------------------------------------------

export const xlmPrice = wire(
  "XlmPrice",
  z.object({
    usd: z.number().meta({ description: "XLM price in USD", example: 0.1234 }),
    cached: z.boolean().meta({ description: "Served from the server cache (younger than 60 s)" }),
    stale: z
      .literal(true)
      .optional()
      .meta({ description: "Present only when true: the last known price, the source failed" }),
  }),
);

/** Health is the same in both forms and never enveloped. */
export const health = z
  .object({
    status: z.enum(["ok", "degraded"]),
    database: z.enum(["reachable", "unreachable"]),
    version: z.string().meta({ example: "0.1.0" }),
  })
  .meta({ id: "Health" });

export const cronExpireResult = wire(
  "CronExpireResult",
  z.object({ expired: z.number().int().meta({ description: "Invoices moved to EXPIRED" }) }),
);

export const cronWebhooksResult = wire(
  "CronWebhooksResult",
  z.object({
    fannedOut: z.number().int(),
    attempted: z.number().int(),
    delivered: z.number().int(),
    retrying: z.number().int(),
    failed: z.number().int(),
    more: z.boolean().meta({ description: "Work was left for another pass" }),
  }),
);

export const cronWatcherResult = wire(
  "CronWatcherResult",
  z.object({
    results: z.array(
      z.object({
        network: z.enum(["testnet", "mainnet"]),
        skipped: z.enum(["idle", "busy"]).optional(),
        horizonRequests: z.number().int(),
        records: z.number().int(),
        matched: z.number().int(),
        more: z.boolean(),
        cursor: z.string().nullable(),
      }),
    ),
  }),
);

// ---- sample rows: the document's examples are real serializer output ----------------------

const T0 = new Date("2026-01-15T10:30:00.000Z");
const T1 = new Date("2026-01-15T10:42:10.000Z");
const FREELANCER = EXAMPLE_WALLET;
const PAYER = "GCFXHS4GXL6BVUCXBWXGTITROWLVYXQKQLF4YH5O5JT3YZXCYPAFBJZB";
const USDC_TESTNET = "GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5";

export const SAMPLE_INVOICE: InvoiceRow = {
  id: EXAMPLE_ID,
  kind: "INVOICE",
  invoiceNumber: "INV-0001",
  status: "PENDING",
  freelancerWallet: FREELANCER,
  freelancerName: "Grace Freelancer",
  freelancerEmail: "grace@example.com",
  freelancerCompany: null,
  clientName: "Ada Client",
  clientEmail: "ada@example.com",
  clientCompany: "Analytical Engines Ltd",
  clientAddress: null,
  clientWallet: null,
  title: "Website",
  description: "Landing page and blog",
  notes: null,
  subtotal: "1000.0000000",
  taxRate: "10.00",
  taxAmount: "100.0000000",
  discount: "50.0000000",
  total: "1050.0000000",
  currency: "USDC",
  networkPassphrase: TESTNET,
  dueDate: new Date("2026-12-31T00:00:00.000Z"),
  sentAt: T0,
  paidAt: null,
  cancelledAt: null,
  expiredAt: null,
  transactionHash: null,
  ledgerNumber: null,
  payerWallet: null,
  linkReference: null,
  linkExpiresAt: null,
  activateNewAccounts: false,
  createdAt: T0,
  updatedAt: T0,
  deletedAt: null,
};

export const SAMPLE_PAID_INVOICE: InvoiceRow = {
  ...SAMPLE_INVOICE,
  status: "PAID",
  paidAt: T1,
  transactionHash: EXAMPLE_HASH,
  ledgerNumber: 1234567,
  payerWallet: PAYER,
  clientWallet: PAYER,
  updatedAt: T1,
};

export const SAMPLE_LINE_ITEM: LineItemRow = {
  id: "clx8f2k9p0001abcd1234efgh",
  invoiceId: EXAMPLE_ID,
  position: 0,
  description: "Build",
  quantity: "1.00",
  rate: "1000.0000000",
  amount: "1000.0000000",
};

export const SAMPLE_PAYMENT: PaymentRow = {
  id: "clx8f2k9p0002abcd1234efgh",
  invoiceId: EXAMPLE_ID,
  transactionHash: EXAMPLE_HASH,
  ledgerNumber: 1234567,
  fromWallet: PAYER,
  toWallet: FREELANCER,
  amount: "1050.0000000",
  asset: "USDC",
  status: "CONFIRMED",
  confirmedAt: T1,
};

export const SAMPLE_AUDIT: AuditRow[] = [
  {
    id: "clx8f2k9p0003abcd1234efgh",
    invoiceId: EXAMPLE_ID,
    action: "CREATED",
    actorWallet: FREELANCER,
    changes: { status: { from: null, to: "DRAFT" } },
    createdAt: T0,
  },
  {
    id: "clx8f2k9p0004abcd1234efgh",
    invoiceId: EXAMPLE_ID,
    action: "SENT",
    actorWallet: FREELANCER,
    changes: { status: { from: "DRAFT", to: "PENDING" } },
    createdAt: T0,
  },
];

export const SAMPLE_LINK: InvoiceRow = {
  ...SAMPLE_INVOICE,
  id: "clx8f2k9p0005abcd1234efgh",
  kind: "LINK",
  invoiceNumber: "INV-0042",
  clientName: "Payment link",
  clientEmail: "",
  clientCompany: null,
  title: "Coffee beans",
  description: null,
  subtotal: "25.5000000",
  taxRate: "0.00",
  taxAmount: "0.0000000",
  discount: "0.0000000",
  total: "25.5000000",
  dueDate: null,
  linkReference: "order-42",
  linkExpiresAt: new Date("2099-01-16T10:30:00.000Z"),
};

export const SAMPLE_CLIENT: ClientRow = {
  id: "clx8f2k9p0006abcd1234efgh",
  freelancerWallet: FREELANCER,
  name: "Ada Client",
  email: "ada@example.com",
  company: "Analytical Engines Ltd",
  address: null,
  isFavorite: true,
  createdAt: T0,
  updatedAt: T0,
};

const zeroByAsset = { XLM: "0.0000000", USDC: "0.0000000", EURC: "0.0000000" };
export const SAMPLE_STATS: InvoiceStats = {
  totalInvoices: 3,
  paidInvoices: 1,
  pendingInvoices: 1,
  totalRevenue: { ...zeroByAsset, USDC: "1050.0000000" },
  revenueThisMonth: { ...zeroByAsset, USDC: "1050.0000000" },
  avgInvoiceValue: { ...zeroByAsset, USDC: "1050.0000000" },
  pendingAmount: { ...zeroByAsset, XLM: "250.0000000" },
  statusBreakdown: {
    DRAFT: 1,
    PENDING: 1,
    PROCESSING: 0,
    PAID: 1,
    FAILED: 0,
    EXPIRED: 0,
    CANCELLED: 0,
  },
  recentActivity: [
    {
      invoiceId: EXAMPLE_ID,
      invoiceNumber: "INV-0001",
      action: "PAID",
      amount: "1050.0000000",
      currency: "USDC",
      timestamp: T1,
    },
  ],
  revenueByMonth: [{ month: "2026-01", revenue: { ...zeroByAsset, USDC: "1050.0000000" } }],
};

export const SAMPLE_INTENT: PaymentIntent = {
  invoiceId: EXAMPLE_ID,
  transactionXdr: "AAAAAgAAAACKc4j...",
  sep7Uri: `web+stellar:pay?destination=${FREELANCER}&amount=1050&asset_code=USDC&asset_issuer=${USDC_TESTNET}&memo=INV-0001&memo_type=MEMO_TEXT&network_passphrase=${encodeURIComponent(TESTNET)}`,
  amount: "1050",
  asset: { code: "USDC", issuer: USDC_TESTNET },
  memo: "INV-0001",
  networkPassphrase: TESTNET,
  timeout: 300,
  destination: FREELANCER,
  status: "PROCESSING",
};

export const SAMPLE_VERIFIED: VerifiedTransaction = {
  hash: EXAMPLE_HASH,
  successful: true,
  memoType: "text",
  memo: "INV-0001",
  createdAt: T1,
  ledger: 1234567,
  sourceAccount: PAYER,
  operations: [
    {
      type: "payment",
      from: PAYER,
      to: FREELANCER,
      assetCode: "USDC",
      assetIssuer: USDC_TESTNET,
      amount: "1050.0000000",
    },
  ],
  network: "testnet",
  networkPassphrase: TESTNET,
};

export const SAMPLE_WEBHOOK: CreatedSubscription = {
  id: "clx8f2k9p0007abcd1234efgh",
  wallet: FREELANCER,
  url: "https://example.com/hooks/stellar",
  events: ["invoice.paid", "invoice.expired"],
  secret: "whsec_5b0f9c1e2d3a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e",
  createdAt: T0,
  disabledAt: null,
  failingSince: null,
  deletedAt: null,
};

export const SAMPLE_DELIVERY: DeliveryView = {
  id: "clx8f2k9p0008abcd1234efgh",
  subscriptionId: SAMPLE_WEBHOOK.id,
  eventId: "evt_clx8f2k9p0009abcd1234efgh",
  eventSeq: 42n,
  invoiceId: EXAMPLE_ID,
  status: "delivered",
  attempts: 1,
  nextAttemptAt: T1,
  lastAttemptAt: T1,
  lastStatusCode: 200,
  lastError: null,
  deliveredAt: T1,
  createdAt: T1,
  eventType: "invoice.paid",
};

const owner: OwnerInvoice = {
  ...SAMPLE_INVOICE,
  lineItems: [SAMPLE_LINE_ITEM],
  payments: [],
  auditLogs: SAMPLE_AUDIT,
};
const page: InvoicePage = {
  invoices: [SAMPLE_INVOICE],
  total: 1,
  limit: 50,
  offset: 0,
  hasMore: false,
};
const recorded: RecordOutcome = {
  kind: "recorded",
  invoice: SAMPLE_PAID_INVOICE,
  payment: SAMPLE_PAYMENT,
};
const tick: TickResult = {
  network: "testnet",
  horizonRequests: 1,
  records: 2,
  matched: 1,
  more: false,
  cursor: "5234567890123456-1",
};

type Example = { b: unknown; a: unknown };
const both = <T>(s: Serializer<T>, v: T): Example => ({ b: s.b(v), a: s.a(v) });
const same = (v: unknown): Example => ({ b: v, a: v });

/** Example bodies per WireShape name, produced by the real serializers. */
export function exampleBodies(appUrl: string): Record<string, Example> {
  return {
    NonceResponse: same({
      nonce: "9f86d081884c7d659a2feaa0c55ad015",
      message: `Stellar Invoicing Authentication\nWallet: ${FREELANCER}\nNonce: 9f86d081884c7d659a2feaa0c55ad015\nTimestamp: 2026-01-15T10:30:00.000Z`,
      expiresIn: 300,
    }),
    SessionResponse: same({
      token: "eyJhbGciOiJIUzI1NiJ9.eyJ3YWxsZXRBZGRyZXNzIjoiR0JSUC4uLiJ9.c2lnbmF0dXJl",
      expiresAt: "2026-01-15T11:30:00.000Z",
      walletAddress: FREELANCER,
    }),
    WhoAmI: same({ walletAddress: FREELANCER }),
    Invoice: both(ownerInvoiceSerializer(appUrl), owner),
    PublicInvoice: both(publicInvoiceSerializer, {
      ...SAMPLE_INVOICE,
      lineItems: [SAMPLE_LINE_ITEM],
    }),
    InvoicePage: both(invoicePageSerializer(appUrl), page),
    SentInvoice: both(sentInvoiceSerializer(appUrl), SAMPLE_INVOICE),
    CancelledInvoice: both(cancelledInvoiceSerializer, {
      ...SAMPLE_INVOICE,
      status: "CANCELLED",
      cancelledAt: T1,
      updatedAt: T1,
    }),
    DeletedInvoice: both(deletedInvoiceSerializer, { id: EXAMPLE_ID }),
    InvoiceStats: both(statsSerializer, SAMPLE_STATS),
    Client: both(clientSerializer, SAMPLE_CLIENT),
    ClientList: both(clientListSerializer, [SAMPLE_CLIENT]),
    ClientDeleted: both(clientDeletedSerializer, { id: SAMPLE_CLIENT.id }),
    PaymentLink: both(linkSerializer(appUrl), SAMPLE_LINK),
    PaymentLinkList: both(linkListSerializer(appUrl), [SAMPLE_LINK]),
    PaymentLinkStatus: both(linkStatusSerializer, SAMPLE_LINK),
    PaymentIntent: both(paymentIntentSerializer, SAMPLE_INTENT),
    SubmitResult: both(submitSerializer, recorded),
    SubmitPending: both(submitSerializer, {
      kind: "pending",
      hash: EXAMPLE_HASH,
      invoice: { ...SAMPLE_INVOICE, status: "PROCESSING" },
    }),
    ConfirmResult: both(confirmSerializer, recorded),
    PaymentStatus: both(paymentStatusSerializer, SAMPLE_PAID_INVOICE),
    VerifiedTransaction: both(verifiedTransactionSerializer, SAMPLE_VERIFIED),
    CreatedWebhook: both(createdWebhookSerializer, SAMPLE_WEBHOOK),
    WebhookList: both(webhookListSerializer, [SAMPLE_WEBHOOK]),
    WebhookDeleted: both(webhookDeletedSerializer, { id: SAMPLE_WEBHOOK.id }),
    WebhookDelivery: both(deliverySerializer, {
      ...SAMPLE_DELIVERY,
      status: "pending",
      deliveredAt: null,
    }),
    WebhookDeliveryPage: both(deliveryPageSerializer, {
      deliveries: [SAMPLE_DELIVERY],
      total: 1,
      limit: 50,
      offset: 0,
      hasMore: false,
    }),
    CronWebhooksResult: same({
      fannedOut: 2,
      attempted: 2,
      delivered: 2,
      retrying: 0,
      failed: 0,
      more: false,
    }),
    XlmPrice: same({ usd: 0.1234, cached: true }),
    CronExpireResult: same({ expired: 2 }),
    CronWatcherResult: same({
      results: [
        tick,
        {
          ...tick,
          network: "mainnet",
          skipped: "idle",
          horizonRequests: 0,
          records: 0,
          matched: 0,
          cursor: null,
        },
      ],
    }),
  };
}
