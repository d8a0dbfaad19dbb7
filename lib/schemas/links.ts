import { z } from "zod";
import { CURRENCIES, PRICE_CURRENCIES } from "@/lib/domain/money";
import {
  amountSchema,
  networkNameSchema,
  networkPassphraseSchema,
  optionalText,
  quoteTtlSchema,
} from "./common";
import {
  currency,
  decimal,
  type FormB,
  id,
  int,
  networkPassphrase,
  number,
  paymentLink,
  timestamp,
  txHash,
  wallet,
  wire,
} from "./wire";

export const createLinkSchema = z
  .object({
    amount: amountSchema.describe("in `priceCurrency` (2 decimals) when set, else in `asset`"),
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
      .describe("ISO 8601; default 24 hours from now; at most 90 days ahead"),
    activateNewAccounts: z
      .boolean()
      .optional()
      .describe(
        "XLM only, amount at least 1: when the recipient account does not exist yet, the payment creates it",
      ),
  })
  .strict();

export type CreateLinkInput = z.infer<typeof createLinkSchema>;

// ---- responses (lib/serializers/links.ts) --------------------------------------------------

const LINK_STATUSES = ["ACTIVE", "PAID", "EXPIRED", "CANCELLED"] as const;
const linkStatus = z.enum(LINK_STATUSES).meta({ id: "LinkStatus" });

const link = z.object({
  id,
  checkoutUrl: paymentLink,
  amount: decimal.meta({ description: "In `priceCurrency` when set, else in `asset`" }),
  asset: currency,
  priceCurrency: z.enum(PRICE_CURRENCIES).nullable().meta({
    description: "USD or EUR: the payer pays `asset` at a quote locked by each pay-intent",
  }),
  quoteTtlMinutes: int,
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

export const paymentLinkResponse = wire("PaymentLink", link, {
  a: link.extend({ amount: number }),
});

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
    payerWallet: wallet.nullable(),
    paidAt: timestamp.nullable(),
    expiresAt: timestamp.nullable(),
  }),
);

export type PaymentLinkBody = FormB<typeof paymentLinkResponse>;
