import { EVENT_TYPES, INVOICE_STATUSES } from "@/lib/domain/invoice-state";
import { PAYMENT_METHODS } from "@/lib/domain/manual-payment";
import { CURRENCIES, PRICE_CURRENCIES } from "@/lib/domain/money";
import { QUOTE_STATUSES } from "@/lib/domain/quote-state";
import { UNAPPLIED_REASONS } from "@/lib/domain/unapplied";
import { z } from "@/lib/zod";
import {
  id,
  int,
  payerAccount,
  payerAddress,
  timestamp,
  txHash,
  wallet,
  wire,
  decimal as wireDecimal,
} from "./wire";

/**
 * `GET /api/events` (docs/decisions.md, Events): the wallet's events of the last 30 days,
 * newest first, a cursor page at a time.
 */

export const EVENT_ID = /^evt_[a-z0-9]{20,40}$/;

/**
 * The test event (`POST /api/webhooks/{id}/test`, "Send test event" in the settings): written
 * to the outbox like any event, but delivered to the one endpoint it tests (never fanned out,
 * whatever events the endpoint asked for) and never listed by `GET /api/events`. Not a type a
 * subscription chooses (`EVENT_TYPES`).
 */
export const PING_EVENT = "ping";
/** Every type a delivery can carry: the subscribable ones and the test event. */
export const DELIVERED_EVENT_TYPES = [...EVENT_TYPES, PING_EVENT] as const;
export type DeliveredEventType = (typeof DELIVERED_EVENT_TYPES)[number];
export const UNKNOWN_EVENT_TYPE = `Unknown event type. Use one of ${EVENT_TYPES.join(", ")}`;

export const listEventsQuerySchema = z
  .object({
    limit: z.coerce
      .number({ error: "limit must be a whole number from 1 to 100" })
      .int("limit must be a whole number from 1 to 100")
      .min(1, "limit must be a whole number from 1 to 100")
      .max(100, "limit must be a whole number from 1 to 100")
      .optional()
      .meta({ description: "Events per page, 1 to 100 (default 20 in Form A, 50 in Form B)" }),
    starting_after: z
      .string()
      .regex(EVENT_ID, "starting_after must be an event id (evt_...)")
      .optional()
      .meta({
        description:
          "An event id from the previous page (its last one): the page continues after it, older events",
        example: "evt_clx8f2k9p0000abcd1234efgh",
      }),
    type: z
      .enum(EVENT_TYPES, { error: UNKNOWN_EVENT_TYPE })
      .optional()
      .meta({ description: "Only events of this type" }),
  })
  .strict();

export type ListEventsQuery = z.infer<typeof listEventsQuerySchema>;

// ---- the events themselves ----------------------------------------------------------------
//
// Each event type's `data`, and the envelope `{id, type, created, data}`, are written once,
// here (ARCHITECTURE.md, "Add an event"). The same schemas:
// - type the builders (`EventData<T>`, lib/services/invoices/lifecycle.ts),
// - parse every payload before it enters the outbox (`writeEvent`,
//   lib/services/events/outbox.ts): an unknown type or a malformed payload throws and rolls
//   back the transaction that caused it,
// - are the OpenAPI document's `webhooks` section (lib/openapi/events.ts references them),
// - type the envelope a delivery sends and `GET /api/events` lists (lib/webhooks/envelope.ts).

const decimal = wireDecimal.meta({ description: "Exact decimal string" });
const status = z.enum(INVOICE_STATUSES);
const currency = z.enum(CURRENCIES);
const invoiceNumber = z.string().meta({ example: "INV-0001" });

/** What every payment event starts with: the payment operation as recorded. */
const payment = {
  id: id.meta({ description: "Payment id" }),
  invoiceId: id,
  transactionHash: txHash
    .nullable()
    .meta({ description: "null for a payment received outside Stellar (`method`)" }),
  ledgerNumber: z.number().int().nullable(),
  fromWallet: payerAccount.nullable(),
  toWallet: wallet,
  amount: decimal,
  asset: z.string().meta({
    description:
      "Asset code received (the invoice currency unless `wrong_asset`); for a payment received outside Stellar, the unit of `amount`: the invoice's price currency, else its asset",
    example: "USDC",
  }),
  confirmedAt: timestamp.meta({
    description:
      "When it reached the ledger; for a payment received outside Stellar, the date received (00:00 UTC)",
  }),
  method: z.enum(PAYMENT_METHODS).optional().meta({
    description:
      "`stellar`, or how a payment recorded by the owner was received (`bank_transfer`, `cash`, `other`); absent from events written before it was added (those are `stellar`)",
  }),
  reference: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "The owner's reference of a payment received outside Stellar" }),
};
const amountPaid = decimal.meta({
  description:
    "The invoice's sum of applied payments (less refunds) after this payment, in `priceCurrency` when set (7 decimals, never rounded per payment: shown rounded half up to the cent), else in the asset",
});

/** The unit of an invoice's or a link's amounts (docs/decisions.md, Fiat pricing). */
const priceCurrency = z.enum(PRICE_CURRENCIES).nullable().meta({
  description:
    "USD or EUR when the invoice (or link) is priced in fiat: its `total`, `amount` (link), `amountPaid` and `amountDue` are then in this currency and the asset is what the payer settles in; null: they are in the asset. Absent from events recorded before the field was added (those are as sent then)",
});

/** What `payment.refunded` adds about the refund itself. */
export const refundFacts = z.object({
  id: id.meta({ description: "Refund id" }),
  amount: decimal,
  destination: payerAddress,
  memo: z.string().meta({ example: "RF-k9p0000abcd" }),
  transactionHash: txHash,
  ledgerNumber: z.number().int(),
  confirmedAt: timestamp,
});

/** `data` of each event type: what the outbox accepts and the document shows. */
/** What every quote event starts with (docs/decisions.md, Quotes). */
const quoteEventFields = {
  id: id.meta({ description: "Quote id" }),
  number: z.string().meta({ example: "QT-0001" }),
  status: z.enum(QUOTE_STATUSES),
  clientName: z.string(),
  clientEmail: z.string(),
  total: decimal.meta({ description: "In `priceCurrency` when set, else in `currency`" }),
  currency,
  priceCurrency: z.enum(PRICE_CURRENCIES).nullable(),
  validUntil: z
    .string()
    .meta({ description: "The last day it can be accepted (UTC)", example: "2026-12-31" }),
};

export const EVENT_DATA = {
  "invoice.created": z.object({
    id,
    invoiceNumber,
    status,
    freelancerWallet: wallet,
    clientName: z.string(),
    clientEmail: z.string(),
    total: decimal.meta({ description: "In `priceCurrency` when set, else in `currency`" }),
    currency,
    priceCurrency,
    createdAt: timestamp,
    recurringId: id
      .nullable()
      .meta({ description: "The recurring schedule that created it; null otherwise" }),
  }),
  "invoice.sent": z.object({
    id,
    invoiceNumber,
    status,
    previousStatus: status,
    sentAt: timestamp,
  }),
  "invoice.paid": z.object({
    id,
    invoiceNumber,
    status,
    previousStatus: status,
    total: decimal.meta({ description: "In `priceCurrency` when set, else in `currency`" }),
    currency,
    priceCurrency,
    transactionHash: txHash.nullable().meta({
      description:
        "The transaction that completed the payment; null when a payment received outside Stellar completed it (its `payment.confirmed` says how)",
    }),
    ledgerNumber: z.number().int().nullable(),
    payerWallet: payerAccount.nullable(),
    paidAt: timestamp,
  }),
  "invoice.expired": z.object({
    id,
    invoiceNumber,
    status,
    previousStatus: status,
    dueDate: timestamp.nullable(),
    expiredAt: timestamp,
  }),
  "invoice.cancelled": z.object({
    id,
    invoiceNumber,
    status,
    previousStatus: status,
    cancelledAt: timestamp,
    cancelledBy: wallet,
    reason: z.string().nullable(),
  }),
  "payment.confirmed": z.object({
    ...payment,
    asset: z.enum([...CURRENCIES, ...PRICE_CURRENCIES]).meta({
      description:
        "The invoice's asset; a payment received outside Stellar on a fiat-priced invoice is in its price currency (USD or EUR)",
    }),
    applied: z.literal(true),
    amountPaid,
    amountDue: decimal.meta({
      description:
        "max(total - amountPaid, 0) after this payment; in whole cents of `priceCurrency` when set",
    }),
    priceCurrency,
  }),
  "payment.unapplied": z.object({
    ...payment,
    assetIssuer: wallet
      .nullable()
      .meta({ description: "Issuer of the asset received; null for XLM" }),
    applied: z.literal(false),
    reason: z.enum(UNAPPLIED_REASONS).meta({
      description:
        "`already_paid` (after the invoice was PAID), `invoice_cancelled`, `invoice_not_sent` (a draft or deleted invoice), `wrong_asset` (another asset or issuer: see `asset` and `assetIssuer`), `unpriced` (fiat-priced invoice, no quote and no known price), `link_parent` (sent to a reusable or open-amount link's own memo), `link_full` (the link had received all the payments it accepts), `memo_mismatch` (sent to this invoice's muxed address with a text memo naming another invoice of the wallet: the invoice the memo names is not paid by it)",
    }),
  }),
  "payment.refunded": z.object({
    ...payment,
    status: z.enum(["CONFIRMED", "REFUNDED"]).meta({
      description: "REFUNDED once the whole payment went back; CONFIRMED after a partial refund",
    }),
    amountRefunded: decimal.meta({ description: "Sent back for this payment so far" }),
    amountPaid,
    priceCurrency,
    refund: refundFacts,
  }),
  "payment.voided": z.object({
    ...payment,
    status: z.literal("VOIDED"),
    amountPaid,
    amountDue: decimal.meta({
      description:
        "max(total - amountPaid, 0) after the void; in whole cents of `priceCurrency` when set",
    }),
    priceCurrency,
  }),
  "link.created": z.object({
    id,
    checkoutUrl: z.url(),
    amount: decimal.nullable().meta({
      description:
        "In `priceCurrency` when set, else in `asset`; null: the payer chooses (open amount)",
    }),
    asset: currency,
    priceCurrency,
    metadata: z.object({ title: z.string(), reference: z.string().nullable() }),
    expiresAt: timestamp.nullable().meta({
      description: "null: a reusable link created without `expiresAt` never expires",
    }),
    createdAt: timestamp,
  }),
  "link.paid": z.object({
    id,
    parentLinkId: id.optional().meta({
      description:
        "The reusable or open-amount link this payment's checkout belongs to (`id` is the checkout); absent for a single-use link",
    }),
    amount: decimal.meta({ description: "In `priceCurrency` when set, else in `asset`" }),
    asset: currency,
    priceCurrency,
    transactionHash: txHash,
    metadata: z.object({ reference: z.string().nullable() }),
    paidAt: timestamp,
  }),
  "credit_note.created": z.object({
    id: id.meta({ description: "Credit note id" }),
    number: z.string().meta({ example: "CN-0001" }),
    invoiceId: id,
    invoiceNumber,
    reason: z.string(),
    subtotal: decimal,
    taxAmount: decimal,
    total: decimal.meta({ description: "What the credit note credits, tax included, in `unit`" }),
    unit: z.string().meta({
      description: "The invoice's price currency when set, else its asset",
      example: "USDC",
    }),
    refundId: id.nullable().meta({ description: "The refund it goes with, if any" }),
    amountCredited: decimal.meta({ description: "The invoice's credit notes' totals so far" }),
    amountDue: decimal.meta({
      description:
        "The invoice's amountDue after the credit note (total - amountCredited - amountPaid, never below 0)",
    }),
    createdAt: timestamp,
  }),
  "quote.sent": z.object(quoteEventFields),
  "quote.accepted": z.object({
    ...quoteEventFields,
    acceptedName: z.string().meta({ description: "The name the client typed to accept" }),
    acceptedAt: timestamp,
    invoiceId: id.meta({ description: "The invoice made from the quote (linked both ways)" }),
    invoiceNumber,
    invoiceStatus: status.meta({
      description: "DRAFT, or PENDING when the quote asked for the invoice to be sent at once",
    }),
  }),
  "quote.declined": z.object({
    ...quoteEventFields,
    declinedAt: timestamp,
    reason: z.string().nullable().meta({ description: "The client's reason, if given" }),
  }),
  [PING_EVENT]: z.object({
    webhookId: id.meta({ description: "The endpoint tested" }),
    message: z.string().meta({
      example: "Test event from the webhook settings: no invoice or payment changed.",
    }),
  }),
} satisfies Record<DeliveredEventType, z.ZodObject>;

/** What a builder of `type` returns and the outbox takes (before parsing). */
export type EventData<T extends DeliveredEventType> = z.input<(typeof EVENT_DATA)[T]>;

/** One event as the outbox takes it: its type and that type's `data`. */
export type EventPayload = {
  [T in DeliveredEventType]: { type: T; data: EventData<T> };
}[DeliveredEventType];

/** When each event is written: the document's description of it. */
export const EVENT_WHEN: Record<DeliveredEventType, string> = {
  "invoice.created": "An invoice is created (DRAFT).",
  "invoice.sent": "A draft is sent: DRAFT becomes PENDING.",
  "invoice.paid":
    "The applied payments reach the total less the payment tolerance (submit, confirm or the watcher): exactly once per invoice, followed by the `payment.confirmed` (and any `payment.unapplied`) of the transaction that completed it.",
  "invoice.expired":
    "The due date has ended without full payment: PENDING, PROCESSING or FAILED becomes EXPIRED.",
  "invoice.cancelled": "The owner cancels the invoice.",
  "payment.confirmed":
    "A payment operation that counts towards the invoice (applied) is recorded: one event per operation, in operation order; `amountPaid` and `amountDue` are the invoice's after it.",
  "payment.unapplied":
    "A payment operation is recorded that does not count towards the invoice (`reason`): after it was PAID, cancelled or not sent, or in another asset. The money is on the freelancer's account and can be refunded.",
  "payment.refunded":
    "A refund of a payment reached the ledger (through submit or seen by the watcher): once per refund.",
  "payment.voided":
    "The owner voids a payment they recorded by hand (received outside Stellar) as a mistake: it no longer counts, and `amountPaid` and `amountDue` are the invoice's after it.",
  "link.created": "A payment link is created.",
  "link.paid":
    "A payment link is paid (after `invoice.paid` and `payment.confirmed`): for a reusable or open-amount link, once per paid checkout.",
  "credit_note.created":
    "A credit note is issued for a sent invoice (by its owner, or when a sent invoice is cancelled): it lowers what the invoice asks for (`amountDue`).",
  "quote.sent":
    "A draft quote is sent: DRAFT becomes SENT and the client is emailed the link to `/quote/<id>`.",
  "quote.accepted":
    "The client accepts a sent quote (typing their name): it becomes ACCEPTED, then CONVERTED with the invoice made from it in the same transaction (a draft, or sent at once when the quote's `onAccept` is `send`). Exactly once per quote.",
  "quote.declined":
    "The client declines a sent quote, with a reason or none: SENT becomes DECLINED.",
  [PING_EVENT]:
    'The endpoint\'s owner asks for a test event (`POST /api/webhooks/{id}/test`, or "Send test event" in the settings): sent to that endpoint only, whatever events it asked for, signed like every event, and shown in its delivery log. Nothing changed: no invoice, payment or link is involved, and `GET /api/events` does not list it.',
};

// ---- the envelope ---------------------------------------------------------------------------

const eventId = z.string().regex(/^evt_/).meta({
  description: "Event id (`evt_...`): receivers drop duplicates by it",
  example: "evt_clx8f2k9p0000abcd1234efgh",
});
const created = int.meta({ description: "Unix time in seconds", example: 1768473000 });

/**
 * The envelope of any event (docs/decisions.md, Webhooks): what a delivery's body holds
 * (`envelopeOf`, lib/webhooks/envelope.ts) and each `GET /api/events` item starts with.
 */
export const eventEnvelope = z.object({
  id: eventId,
  type: z.enum(DELIVERED_EVENT_TYPES),
  created,
  data: z.record(z.string(), z.unknown()),
});
export type EventEnvelope = z.output<typeof eventEnvelope>;

/** Pascal-case component name of an event type: `invoice.paid` -> `InvoicePaidEvent`. */
export function eventComponentName(type: DeliveredEventType): string {
  return `${type
    .split(".")
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join("")}Event`;
}

/** The delivered body of each event type: the envelope with that type's `data`. */
export const EVENT_ENVELOPES = {} as Record<DeliveredEventType, z.ZodObject>;
for (const type of DELIVERED_EVENT_TYPES) {
  EVENT_ENVELOPES[type] = eventEnvelope
    .extend({ type: z.literal(type), data: EVENT_DATA[type] })
    .meta({ id: eventComponentName(type), description: EVENT_WHEN[type] });
}

// ---- responses (lib/serializers/events.ts) -------------------------------------------------

const event = eventEnvelope
  .extend({
    id: eventId.meta({
      description: "Event id (`evt_...`), the same as the webhook delivery's `id`",
      example: "evt_clx8f2k9p0000abcd1234efgh",
    }),
    created: created.meta({
      description: "Unix time in seconds, as in the webhook body",
      example: 1768473000,
    }),
    data: eventEnvelope.shape.data.meta({
      description:
        "The event's fields, exactly what the webhook delivery of the event carries (see the webhook events of this document for each type)",
    }),
    createdAt: timestamp,
    invoiceId: id.nullable().meta({ description: "The invoice (or payment link) it is about" }),
  })
  .meta({
    id: "Event",
    description:
      "The webhook envelope `{id, type, created, data}`, plus `createdAt` and `invoiceId`",
  });

export const eventPage = wire(
  "EventPage",
  z.object({
    events: z.array(event),
    limit: int,
    hasMore: z.boolean().meta({ description: "More (older) events after the last one" }),
  }),
);
