import { PAYMENT_METHODS } from "@/lib/domain/manual-payment";
import { PRICE_CURRENCIES } from "@/lib/domain/money";
import { UNAPPLIED_REASONS } from "@/lib/domain/unapplied";
import { z } from "@/lib/zod";
import { decimal, id, int, number, payerAccount, timestamp, txHash, wallet } from "./wire";

/**
 * Payments as recorded (the owner's Payment) and as the payer sees them, with what was paid
 * and is due: the schemas the payment status shares with the invoice views, in a module of
 * their own so that the status route does not load the invoice schemas (client parties, tax-id
 * checks: docs/decisions.md, Cold start). `lib/schemas/invoices.ts` re-exports them.
 */
/** What a payment operation delivered: the invoice currency, or another asset (unapplied). */
const receivedAsset = z.string().meta({
  description:
    "Asset code received: the invoice currency, or another code for an unapplied `wrong_asset` payment",
  example: "USDC",
});
const assetIssuer = wallet
  .nullable()
  .meta({ description: "Issuer of the asset received; null for XLM" });
const applied = z.boolean().meta({
  description: "Counts towards `amountPaid`; otherwise `unappliedReason` says why not",
});
const unappliedReason = z
  .enum(UNAPPLIED_REASONS)
  .meta({
    id: "UnappliedReason",
    description:
      "Why a recorded payment does not count: `already_paid` (arrived after the invoice was PAID), `invoice_cancelled`, `invoice_not_sent` (a draft or deleted invoice), `wrong_asset` (another asset, or the right code from another issuer: see `asset` and `assetIssuer`), `unpriced` (a fiat-priced invoice's payment with no quote and no known price), `link_parent` (sent to a reusable or open-amount link's own memo: such a link is paid through its checkouts), `link_full` (a checkout's payment when its link had received all the payments it accepts and the checkout held no place), `memo_mismatch` (sent to this invoice's muxed address with a text memo naming another invoice of the wallet: the invoice the memo names is not paid by it)",
  })
  .nullable();

/** What a payment counts for on a fiat-priced invoice (docs/decisions.md, Fiat pricing). */
const paymentValue = {
  priceValue: decimal.nullable().meta({
    description:
      "Fiat-priced invoices: what the payment counts for in the invoice's priceCurrency, to 7 decimals (never rounded to the cent per payment), at the quote live when its ledger closed, else at the rate when recorded",
    example: "100.0000000",
  }),
  paidLate: z.boolean().meta({
    description:
      "Fiat-priced invoices: no quote was live when it arrived, so it was valued at the rate when recorded",
  }),
};

/** How a payment came: `stellar`, or a payment the owner recorded by hand. */
const paymentMethod = z.enum(PAYMENT_METHODS).meta({
  description:
    "`stellar` (a ledger payment), or how a payment received outside Stellar and recorded by the owner came: `bank_transfer`, `cash`, `other` (then `transactionHash`, `ledgerNumber` and `fromWallet` are null, and it is never refunded through Stellar)",
});
/** The ledger's hash; null for a payment received outside Stellar. */
const paymentHash = txHash
  .nullable()
  .meta({ description: "The transaction's hash; null for a payment received outside Stellar" });
const manualFields = {
  reference: z.string().nullable().meta({
    description: "A payment received outside Stellar: the owner's reference (bank reference...)",
    example: "SEPA 2026-114",
  }),
  recordedBy: z.string().nullable().meta({
    description:
      "A payment received outside Stellar: who recorded it (the owner's wallet, or `key:<prefix>` for an API key)",
  }),
  voidedAt: timestamp
    .nullable()
    .meta({ description: "A payment received outside Stellar that the owner voided: when" }),
};

/** One payment operation as recorded: every field of the Payment row (the owner's view). */
export const paymentB = z
  .object({
    id,
    invoiceId: id,
    transactionHash: paymentHash,
    innerTransactionHash: txHash.nullable().meta({
      description:
        "A fee-bump transaction's inner hash (`transactionHash` is then the outer, fee-bump hash); null otherwise",
    }),
    operationIndex: int.meta({ description: "Index of the operation in its transaction" }),
    ledgerNumber: int.nullable(),
    fromWallet: payerAccount.nullable(),
    toWallet: wallet,
    amount: decimal,
    asset: receivedAsset,
    assetIssuer,
    applied,
    unappliedReason,
    amountRefunded: decimal.meta({ description: "Sent back to the payer so far" }),
    status: z.enum(["CONFIRMED", "FAILED", "REFUNDED", "VOIDED"]).meta({
      description:
        "VOIDED: a payment received outside Stellar that the owner withdrew (not counted)",
    }),
    confirmedAt: timestamp.meta({
      description:
        "When it reached the ledger; for a payment received outside Stellar, the date received (00:00 UTC)",
    }),
    method: paymentMethod,
    ...manualFields,
    ...paymentValue,
    fiatCurrency: z.enum(PRICE_CURRENCIES).nullable().meta({
      description: "The reporting currency of `fiatValue` (USD)",
    }),
    fiatValue: decimal.nullable().meta({
      description:
        "The payment's value in `fiatCurrency` when received (2 decimals); null when no price was known",
      example: "131.25",
    }),
    rate: decimal.nullable().meta({ description: "`fiatCurrency` per unit of `asset`" }),
    rateSource: z.string().nullable().meta({
      description:
        "Where the rate came from: the price source's host, `fixed` (USDC-USD, EURC-EUR), or `quote:<id>`",
    }),
    rateAt: timestamp.nullable().meta({ description: "When that price was fetched" }),
    quoteId: z.string().nullable().meta({ description: "The quote live when its ledger closed" }),
  })
  .meta({ id: "Payment" });
export const paymentA = z
  .object({
    id,
    transactionHash: paymentHash,
    innerTransactionHash: txHash.nullable().meta({
      description:
        "A fee-bump transaction's inner hash (`transactionHash` is then the outer, fee-bump hash); null otherwise",
    }),
    operationIndex: int,
    amount: number,
    currency: receivedAsset,
    assetIssuer,
    applied,
    unappliedReason,
    amountRefunded: number,
    confirmedAt: timestamp,
    method: paymentMethod,
    reference: manualFields.reference,
    priceValue: z.number().nullable(),
    paidLate: z.boolean(),
    fiatCurrency: z.enum(PRICE_CURRENCIES).nullable(),
    fiatValue: z.number().nullable(),
  })
  .meta({ id: "PaymentFormA" });

/**
 * What the payer may see of each payment (the public view and the payment status, for the
 * checkout's receipt): the ledger facts and whether it counted; the sender is the payer.
 */
export const receivedPaymentB = paymentB
  .pick({
    transactionHash: true,
    operationIndex: true,
    ledgerNumber: true,
    fromWallet: true,
    amount: true,
    asset: true,
    assetIssuer: true,
    applied: true,
    unappliedReason: true,
    confirmedAt: true,
    method: true,
    priceValue: true,
    paidLate: true,
  })
  .meta({ id: "ReceivedPayment" });
export const receivedPaymentA = receivedPaymentB
  .extend({ amount: number, priceValue: z.number().nullable() })
  .meta({ id: "ReceivedPaymentFormA" });

/** Paid so far and left to pay, exact (docs/decisions.md, Partial payments). */
export const settledB = {
  amountPaid: decimal.meta({ description: "Sum of the applied payments, less refunds" }),
  amountDue: decimal.meta({
    description: "max(total - amountCredited - amountPaid, 0): what is still owed",
  }),
};
export const settledA = { amountPaid: number, amountDue: number };
