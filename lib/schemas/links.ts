import { MAX_LINK_PAYMENTS } from "@/lib/domain/link-payments";
import { CURRENCIES, PRICE_CURRENCIES } from "@/lib/domain/money";
import { z } from "@/lib/zod";
import {
  amountSchema,
  networkNameSchema,
  networkPassphraseSchema,
  optionalText,
  quoteTtlSchema,
} from "./common";
import { receivedPaymentA, receivedPaymentB } from "./received-payments";
import {
  currency,
  decimal,
  type FormB,
  id,
  int,
  networkPassphrase,
  number,
  payerAccount,
  paymentLink,
  timestamp,
  txHash,
  wallet,
  wire,
} from "./wire";

export const createLinkSchema = z
  .object({
    amount: amountSchema
      .optional()
      .describe(
        "in `priceCurrency` (2 decimals) when set, else in `asset`; required unless `openAmount`",
      ),
    openAmount: z
      .boolean()
      .optional()
      .describe(
        "the payer chooses the amount at the checkout (leave `amount` out); implied by `minAmount`",
      ),
    minAmount: amountSchema
      .optional()
      .describe("open amount only: the least a payer may choose, in the same unit as `amount`"),
    reusable: z
      .boolean()
      .optional()
      .describe(
        "accept many payments (each payer's checkout is its own paid record); implied by `maxPayments`",
      ),
    maxPayments: z
      .int()
      .min(1)
      .max(MAX_LINK_PAYMENTS)
      .optional()
      .describe(
        `reusable links: at most this many payments (1 to ${MAX_LINK_PAYMENTS}); omitted: unlimited`,
      ),
    asset: z.enum(CURRENCIES),
    priceCurrency: z
      .enum(PRICE_CURRENCIES, { error: "priceCurrency must be USD or EUR" })
      .optional()
      .describe("Price the link in USD or EUR; the payer pays `asset` at a locked quote"),
    quoteTtlMinutes: quoteTtlSchema,
    networkPassphrase: networkPassphraseSchema.optional().describe("default testnet"),
    network: networkNameSchema.optional().describe("alias: testnet or mainnet"),
    title: optionalText(200),
    reference: optionalText(200).describe("your own reference, echoed in link events"),
    description: optionalText(2000),
    expiresAt: z.iso
      .datetime({ offset: true })
      .optional()
      .describe(
        "ISO 8601; at most 90 days ahead; default: 24 hours from now for a single-use link, none (never expires) for a reusable one",
      ),
    activateNewAccounts: z
      .boolean()
      .optional()
      .describe(
        "XLM only, amount at least 1: when the recipient account does not exist yet, the payment creates it",
      ),
  })
  .strict();

export type CreateLinkInput = z.infer<typeof createLinkSchema>;

/** The fields of a link its owner may change after creation (PATCH /api/links/{id}). */
export const LINK_EDITABLE = ["title", "description", "reference", "expiresAt"] as const;

/**
 * PATCH /api/links/{id}: the create shape, every field optional, so a body that names a field
 * fixed at creation (amount, asset, network...) is answered 400 naming it, not an unknown key.
 * `expiresAt: null`: a reusable link that never expires.
 */
export const updateLinkSchema = createLinkSchema
  .partial()
  .extend({
    expiresAt: z.iso
      .datetime({ offset: true })
      .nullable()
      .optional()
      .describe(
        "ISO 8601, in the future and at most 90 days ahead; null (reusable links only): never expires",
      ),
  })
  .strict();

export type UpdateLinkInput = z.infer<typeof updateLinkSchema>;

/** A payer's checkout of a reusable or open-amount link (docs/decisions.md, Payment links). */
export const linkCheckoutSchema = z
  .object({
    amount: amountSchema
      .optional()
      .describe("open-amount links only (required there): the amount the payer chooses"),
  })
  .strict();

export type LinkCheckoutInput = z.infer<typeof linkCheckoutSchema>;

// ---- responses (lib/serializers/links.ts) --------------------------------------------------

const LINK_STATUSES = ["ACTIVE", "PAID", "EXPIRED", "CANCELLED"] as const;
const linkStatus = z.enum(LINK_STATUSES).meta({ id: "LinkStatus" });

const link = z.object({
  id,
  checkoutUrl: paymentLink,
  amount: decimal.nullable().meta({
    description:
      "In `priceCurrency` when set, else in `asset`; null: the payer chooses (open amount)",
  }),
  minAmount: decimal.nullable().meta({ description: "Open amount: the least a payer may choose" }),
  reusable: z.boolean().meta({ description: "Accepts many payments, one per checkout" }),
  maxPayments: int.nullable().meta({
    description: "Payments accepted in all: 1 for a single-use link, null for unlimited",
  }),
  paymentsCount: int.meta({ description: "Payments received (paid checkouts)" }),
  amountReceived: decimal.meta({ description: "Sum of the payments received, in the link's unit" }),
  parentLinkId: id.nullable().meta({
    description: "A checkout of a reusable or open-amount link: that link's id",
  }),
  asset: currency,
  priceCurrency: z.enum(PRICE_CURRENCIES).nullable().meta({
    description: "USD or EUR: the payer pays `asset` at a quote locked by each pay-intent",
  }),
  quoteTtlMinutes: int,
  networkPassphrase,
  destination: wallet.meta({ description: "The creator's wallet (payment recipient)" }),
  memo: z.string().nullable().meta({
    description:
      "Text memo the payment must carry; null for a reusable or open-amount link (each checkout has its own)",
    example: "INV-0042",
  }),
  metadata: z.object({ title: z.string(), reference: z.string().nullable() }),
  description: z.string().nullable(),
  activateNewAccounts: z.boolean(),
  status: linkStatus,
  deactivatedAt: timestamp.nullable().meta({
    description:
      "Set while the owner has deactivated the link: it starts no new payment (checkout and pay-intent answer 409) until reactivated; checkouts already made stay payable",
  }),
  expiresAt: timestamp.nullable().meta({ description: "null: the link never expires" }),
  paidAt: timestamp.nullable(),
  transactionHash: txHash.nullable(),
  createdAt: timestamp,
});

export const paymentLinkResponse = wire("PaymentLink", link, {
  a: link.extend({
    amount: number.nullable(),
    minAmount: number.nullable(),
    amountReceived: number,
  }),
});

/** A payment recorded for one record, applied or not; `id` names it for a refund. */
const recordedB = receivedPaymentB.extend({ id }).meta({ id: "LinkReceivedPayment" });
const recordedA = receivedPaymentA.extend({ id }).meta({ id: "LinkReceivedPaymentFormA" });

/**
 * One payment record of a link: a checkout that received money or any payment, or the link
 * itself when a payment reached its own memo (never applied there: `link_parent`).
 */
const linkPayment = z.object({
  id,
  memo: z.string(),
  amount: decimal.meta({ description: "The amount due of this checkout, in the link's unit" }),
  amountPaid: decimal,
  status: z.string().meta({ description: "The checkout's invoice status", example: "PAID" }),
  payerWallet: payerAccount.nullable(),
  transactionHash: txHash.nullable(),
  paidAt: timestamp.nullable(),
  createdAt: timestamp,
  received: z.array(recordedB).meta({
    description:
      "Every payment recorded for this record, oldest first, applied or not (`unappliedReason`: `link_full` when the link had no place left, `link_parent` when it reached the link's own memo); refund one with its `id`",
  }),
});

export const linkPaymentList = wire(
  "PaymentLinkPayments",
  z.object({
    linkId: id,
    link: paymentLinkResponse.b,
    payments: z.array(linkPayment),
  }),
  {
    a: z.object({
      linkId: id,
      link: paymentLinkResponse.a,
      payments: z.array(
        linkPayment.extend({ amount: number, amountPaid: number, received: z.array(recordedA) }),
      ),
    }),
  },
);

export const paymentLinkList = wire(
  "PaymentLinkList",
  z.object({ links: z.array(paymentLinkResponse.b) }),
  { a: z.object({ links: z.array(paymentLinkResponse.a) }) },
);

export const paymentLinkStatus = wire(
  "PaymentLinkStatus",
  z.object({
    id,
    status: linkStatus,
    transactionHash: txHash.nullable(),
    ledgerNumber: int.nullable(),
    payerWallet: payerAccount.nullable(),
    paidAt: timestamp.nullable(),
    expiresAt: timestamp.nullable(),
  }),
);

export type PaymentLinkBody = FormB<typeof paymentLinkResponse>;
