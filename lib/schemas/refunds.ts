import { REFUND_STATUSES } from "@/db/schema/refunds";
import { z } from "@/lib/zod";
import { amountSchema } from "./common";
import {
  EXAMPLE_WALLET,
  id,
  networkPassphrase,
  payerAddress,
  timestamp,
  txHash,
  wallet,
  wire,
} from "./wire";

// Refunds (docs/decisions.md, Refunds): request bodies and the two responses
// (lib/serializers/refunds.ts).

/** POST /api/invoices/:id/payments/:paymentId/refund: the body is optional. */
export const createRefundSchema = z
  .object({
    amount: amountSchema
      .optional()
      .describe(
        "Decimal string or number, at most 7 decimals, > 0. Default: the whole payment if unapplied, the overpaid part of a PAID invoice, or the whole applied payment of an invoice not yet PAID",
      ),
  })
  .strict()
  .optional();

export const submitRefundSchema = z
  .object({
    refundId: z.string().min(1).max(64),
    signedTransactionXdr: z
      .string({ error: "signedTransactionXdr required" })
      .min(1)
      .max(20_000)
      .describe("The refund's transactionXdr, signed by the freelancer's wallet"),
  })
  .strict();

const refundAsset = z.object({
  code: z.string().meta({ description: "The asset the payment was received in", example: "USDC" }),
  issuer: wallet.nullable().meta({ description: "null for XLM" }),
});
const refundAmount = z
  .string()
  .meta({ description: "Decimal string (trailing zeros trimmed)", example: "5" });
const refundMemo = z.string().meta({
  description: "Text memo `RF-<refund id>` (at most 28 bytes)",
  example: "RF-clx8f2k9p0000abcd1234e",
});

export const refundIntent = wire(
  "RefundIntent",
  z.object({
    refundId: id,
    transactionXdr: z.string().meta({
      description:
        "Unsigned payment (base64 XDR) from the freelancer's wallet to `destination`; sign it and send it to POST /api/refunds/submit",
    }),
    sep7Uri: z.string().meta({
      description: "SEP-7 `web+stellar:pay` URI of the same payment",
      example: `web+stellar:pay?destination=${EXAMPLE_WALLET}&amount=5&asset_code=XLM&memo=RF-clx8f2k9p0000abcd1234e&memo_type=MEMO_TEXT`,
    }),
    amount: refundAmount,
    asset: refundAsset,
    destination: payerAddress,
    memo: refundMemo,
    networkPassphrase,
    expiresAt: timestamp.meta({ description: "End of the transaction's time bounds (300 s)" }),
  }),
);

export const refundView = wire(
  "Refund",
  z.object({
    refundId: id,
    paymentId: id,
    invoiceId: id,
    status: z.enum(REFUND_STATUSES).meta({
      id: "RefundStatus",
      description:
        "PENDING (built), SUBMITTED (sent, not yet confirmed), CONFIRMED (on the ledger), FAILED (rejected by the ledger) or EXPIRED (its time bounds passed)",
    }),
    amount: refundAmount,
    asset: refundAsset,
    destination: payerAddress,
    memo: refundMemo,
    transactionHash: txHash.nullable(),
    ledgerNumber: z.number().int().nullable(),
    createdAt: timestamp,
    expiresAt: timestamp,
    confirmedAt: timestamp.nullable(),
  }),
);
