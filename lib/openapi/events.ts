import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { EVENT_TYPES, type EventType, INVOICE_STATUSES } from "@/lib/domain/invoice-state";
import { CURRENCIES } from "@/lib/domain/money";
import { UNAPPLIED_REASONS } from "@/lib/domain/unapplied";
import * as base from "@/lib/schemas/wire";
import {
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  SIGNATURE_TOLERANCE_SECONDS,
  SIGNATURE_V2_HEADER,
  TIMESTAMP_HEADER,
} from "@/lib/webhooks/sign";

/**
 * Webhook events for the OpenAPI 3.1 `webhooks` section: the envelope
 * `{id, type, created, data}` and each type's `data`, field for field as the services write
 * them with emitEvent (lib/services/invoices, payments, links and lib/jobs/expire-due-invoices).
 */

const id = base.id;
const timestamp = base.timestamp;
const wallet = base.wallet;
const decimal = base.decimal.meta({ description: "Exact decimal string" });
const hash = base.txHash;
const status = z.enum(INVOICE_STATUSES);
const currency = z.enum(CURRENCIES);
const invoiceNumber = z.string().meta({ example: "INV-0001" });

/** What every payment event starts with: the payment operation as recorded. */
const payment = {
  id: id.meta({ description: "Payment id" }),
  invoiceId: id,
  transactionHash: hash,
  ledgerNumber: z.number().int(),
  fromWallet: wallet,
  toWallet: wallet,
  amount: decimal,
  asset: z.string().meta({
    description: "Asset code received (the invoice currency unless `wrong_asset`)",
    example: "USDC",
  }),
  confirmedAt: timestamp,
};
const amountPaid = decimal.meta({
  description: "The invoice's sum of applied payments (less refunds) after this payment",
});

/** `data` of each event type. */
export const EVENT_DATA: Record<EventType, z.ZodObject> = {
  "invoice.created": z.object({
    id,
    invoiceNumber,
    status,
    freelancerWallet: wallet,
    clientName: z.string(),
    clientEmail: z.string(),
    total: decimal,
    currency,
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
    total: decimal,
    currency,
    transactionHash: hash,
    ledgerNumber: z.number().int(),
    payerWallet: wallet,
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
    asset: currency,
    applied: z.literal(true),
    amountPaid,
    amountDue: decimal.meta({ description: "max(total - amountPaid, 0) after this payment" }),
  }),
  "payment.unapplied": z.object({
    ...payment,
    assetIssuer: wallet
      .nullable()
      .meta({ description: "Issuer of the asset received; null for XLM" }),
    applied: z.literal(false),
    reason: z.enum(UNAPPLIED_REASONS).meta({
      description:
        "`already_paid` (after the invoice was PAID), `invoice_cancelled`, `invoice_not_sent` (a draft or deleted invoice), `wrong_asset` (another asset or issuer: see `asset` and `assetIssuer`), `unpriced` (fiat-priced invoice, no quote and no known price), `link_parent` (sent to a reusable or open-amount link's own memo), `link_full` (the link had received all the payments it accepts)",
    }),
  }),
  "payment.refunded": z.object({
    ...payment,
    status: z.enum(["CONFIRMED", "REFUNDED"]).meta({
      description: "REFUNDED once the whole payment went back; CONFIRMED after a partial refund",
    }),
    amountRefunded: decimal.meta({ description: "Sent back for this payment so far" }),
    amountPaid,
    refund: z.object({
      id: id.meta({ description: "Refund id" }),
      amount: decimal,
      destination: wallet.meta({ description: "The payment's sender" }),
      memo: z.string().meta({ example: "RF-k9p0000abcd" }),
      transactionHash: hash,
      ledgerNumber: z.number().int(),
      confirmedAt: timestamp,
    }),
  }),
  "link.created": z.object({
    id,
    checkoutUrl: z.url(),
    amount: decimal.nullable().meta({ description: "null: the payer chooses (open amount)" }),
    asset: currency,
    metadata: z.object({ title: z.string(), reference: z.string().nullable() }),
    expiresAt: timestamp,
    createdAt: timestamp,
  }),
  "link.paid": z.object({
    id,
    parentLinkId: id.optional().meta({
      description:
        "The reusable or open-amount link this payment's checkout belongs to (`id` is the checkout); absent for a single-use link",
    }),
    amount: decimal,
    asset: currency,
    transactionHash: hash,
    metadata: z.object({ reference: z.string().nullable() }),
    paidAt: timestamp,
  }),
};

const WHEN: Record<EventType, string> = {
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
  "link.created": "A payment link is created.",
  "link.paid":
    "A payment link is paid (after `invoice.paid` and `payment.confirmed`): for a reusable or open-amount link, once per paid checkout.",
};

/** Pascal-case component name of an event type: `invoice.paid` -> `InvoicePaidEvent`. */
export function eventComponentName(type: EventType): string {
  return `${type
    .split(".")
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join("")}Event`;
}

/** The delivered body of each event type: the envelope `{id, type, created, data}`. */
export const EVENT_ENVELOPES = {} as Record<EventType, z.ZodType>;
for (const type of EVENT_TYPES) {
  EVENT_ENVELOPES[type] = z
    .object({
      id: z.string().regex(/^evt_/).meta({
        description: "Event id (`evt_...`): receivers drop duplicates by it",
        example: "evt_clx8f2k9p0000abcd1234efgh",
      }),
      type: z.literal(type),
      created: z.number().int().meta({ description: "Unix time in seconds", example: 1768473000 }),
      data: EVENT_DATA[type],
    })
    .meta({ id: eventComponentName(type), description: WHEN[type] });
}

const deliveryHeaders = z.object({
  [SIGNATURE_HEADER]: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .meta({
      description:
        "Lowercase hex HMAC-SHA256 of the raw request body, keyed with the endpoint's current secret (`whsec_...`, shown once when the webhook is created or its secret rotated, or WEBHOOK_SECRET). Compare in constant time; answer 401 on a mismatch. It does not cover the time: prefer the V2 header, which also stops replays.",
    }),
  [SIGNATURE_V2_HEADER]: z
    .string()
    .regex(/^t=\d+(,v1=[0-9a-f]{64})+$/)
    .meta({
      description: `\`t=<unix seconds>,v1=<hex>\`: each \`v1\` is the lowercase hex HMAC-SHA256 of \`<t>.<raw body>\` keyed with a secret of the endpoint. Accept the delivery when \`t\` is within ${SIGNATURE_TOLERANCE_SECONDS / 60} minutes of your clock and any \`v1\` matches (constant-time compare). For 24 hours after a secret rotation there are two \`v1\` entries, the new secret's first, then the old one's.`,
      example: "t=1768473000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd",
    }),
  [EVENT_ID_HEADER]: z.string().meta({ description: "The event id (same as `id` in the body)" }),
  [TIMESTAMP_HEADER]: z
    .string()
    .regex(/^\d+$/)
    .meta({ description: "Unix seconds of this delivery attempt" }),
});

/** The OpenAPI 3.1 `webhooks` section: one entry per event type. */
export function buildWebhooks(): ZodOpenApiPathsObject {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(".", "_")}`,
          tags: ["Webhook events"],
          summary: type,
          description: `${WHEN[type]}\n\nDelivered as an HTTP POST with a JSON body to every registered endpoint that asked for \`${type}\` (or \`*\`), at least once and in order per invoice. The service signs the exact bytes it sends: verify \`${SIGNATURE_V2_HEADER}\` (or the classic \`${SIGNATURE_HEADER}\`) over the raw body before parsing it.`,
          requestParams: { header: deliveryHeaders },
          requestBody: {
            required: true,
            content: { "application/json": { schema: EVENT_ENVELOPES[type] } },
          },
          responses: {
            "200": {
              description:
                "Any 2xx within 5 seconds acknowledges the event. Anything else (or no answer) is retried with exponential backoff for about three days.",
            },
          },
        },
      },
    ]),
  );
}
