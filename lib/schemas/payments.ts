import {
  INVALID_RECEIVED_ON,
  MANUAL_PAYMENT_METHODS,
  parseReceivedOn,
  REFERENCE_MAX,
} from "@/lib/domain/manual-payment";
import { PRICE_CURRENCIES } from "@/lib/domain/money";
import { z } from "@/lib/zod";
import { walletAddressSchema } from "./auth";
import { amountSchema, networkNameSchema, networkPassphraseSchema, optionalText } from "./common";
import { receivedPaymentA, receivedPaymentB, settledA, settledB } from "./received-payments";
import {
  currency,
  EXAMPLE_WALLET,
  id,
  int,
  invoiceStatus,
  muxedAccount,
  networkPassphrase,
  PAYER_ACCOUNT,
  payerAccount,
  timestamp,
  txHash,
  wallet,
  wire,
} from "./wire";

const hash = z
  .string({ error: "transactionHash required" })
  .regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex characters")
  .transform((v) => v.toLowerCase());

/**
 * POST /api/invoices/:id/payments: a payment received outside Stellar, recorded by the owner
 * (docs/decisions.md, Payments received outside Stellar). The checks that need the invoice
 * (whole cents when priced in fiat, never past the amount due) and the clock (not in the
 * future) are the service's (lib/domain/manual-payment.ts).
 */
export const recordManualPaymentSchema = z
  .object({
    amount: amountSchema.describe(
      "Exact decimal, > 0: in the invoice's price currency when it has one (at most 2 decimals), else in its asset (at most 7); at most the amount due",
    ),
    receivedOn: z
      .string({ error: "receivedOn required" })
      .transform((v, ctx) => {
        const d = parseReceivedOn(v);
        if (d === null) {
          ctx.addIssue({ code: "custom", message: INVALID_RECEIVED_ON });
          return z.NEVER;
        }
        return d;
      })
      .meta({
        description: "The date the money was received, YYYY-MM-DD; not in the future",
        example: "2026-01-15",
      }),
    method: z.enum(MANUAL_PAYMENT_METHODS, {
      error: `must be one of ${MANUAL_PAYMENT_METHODS.join(", ")}`,
    }),
    reference: optionalText(REFERENCE_MAX).describe(
      `Free text, at most ${REFERENCE_MAX} characters: a bank reference, a receipt number`,
    ),
  })
  .strict();
export type RecordManualPaymentBody = z.output<typeof recordManualPaymentSchema>;

/** An asset a payer may send (docs/decisions.md, Path payments): `"XLM"` or `{code, issuer}`. */
export const sendAssetSchema = z.union([
  z.literal("XLM"),
  z
    .object({
      code: z
        .string({ error: "sendAsset.code required" })
        .regex(/^[A-Za-z0-9]{1,12}$/, "must be 1 to 12 letters or digits"),
      issuer: walletAddressSchema,
    })
    .strict(),
]);

/** A paying address: an account (G...) or a smart wallet's contract account (C...). */
const senderSchema = z
  .string()
  .regex(PAYER_ACCOUNT, "Invalid Stellar address")
  .describe(
    "Stellar account id (G...), or a smart wallet's contract address (C...: then `feeAccount` is required)",
  );

export const CONTRACT_SENDER_NEEDS_FEE_ACCOUNT =
  "required when the sender is a contract account (C...): the G account that sends the transaction and pays its fee";
export const FEE_ACCOUNT_ONLY_FOR_CONTRACT = "only for a contract account sender (C...)";
export const CONTRACT_SENDER_NO_PATH = "a contract account pays in the invoice's own asset";

export const payIntentSchema = z
  .object({
    senderPublicKey: senderSchema.optional().describe("desktop flow: the payer's account"),
    payerAddress: senderSchema.optional().describe("Form B alias of senderPublicKey"),
    feeAccount: walletAddressSchema
      .optional()
      .describe(
        "With a contract account sender (a smart wallet, C...): the G account that is the transaction's source and pays its fee (the wallet's fee payer); it signs the envelope after the contract account signs its authorization entries",
      ),
    networkPassphrase: networkPassphraseSchema,
    sendAsset: sendAssetSchema
      .optional()
      .describe(
        "Pay with this asset instead of the invoice's (with a G sender): the transaction is then one path_payment_strict_receive delivering exactly `amount`",
      ),
  })
  .strict()
  .superRefine((v, ctx) => {
    const sender = v.senderPublicKey ?? v.payerAddress;
    const contract = sender?.startsWith("C") ?? false;
    if (contract && !v.feeAccount) {
      ctx.addIssue({
        code: "custom",
        path: ["feeAccount"],
        message: CONTRACT_SENDER_NEEDS_FEE_ACCOUNT,
      });
    }
    if (!contract && v.feeAccount) {
      ctx.addIssue({
        code: "custom",
        path: ["feeAccount"],
        message: FEE_ACCOUNT_ONLY_FOR_CONTRACT,
      });
    }
    if (contract && v.sendAsset !== undefined) {
      ctx.addIssue({ code: "custom", path: ["sendAsset"], message: CONTRACT_SENDER_NO_PATH });
    }
  });

/** Query of GET /api/payments/{invoiceId}/pay-options. */
export const payOptionsQuery = z
  .object({ account: walletAddressSchema.describe("The payer's account") })
  .strict();

export const submitSchema = z
  .object({
    invoiceId: z.string().min(1).max(64),
    signedTransactionXdr: z.string().min(1).max(20_000).optional(),
    signedXdr: z.string().min(1).max(20_000).optional().describe("alias of signedTransactionXdr"),
  })
  .strict()
  .refine((v) => v.signedTransactionXdr || v.signedXdr, {
    message: "signedTransactionXdr required",
    path: ["signedTransactionXdr"],
  });

export const confirmSchema = z
  .object({ invoiceId: z.string().min(1).max(64), transactionHash: hash })
  .strict();

export const verifyTxSchema = z
  .object({
    transactionHash: hash,
    networkPassphrase: networkPassphraseSchema.optional(),
    network: networkNameSchema.optional(),
  })
  .strict();

// ---- responses (lib/serializers/payments.ts) -----------------------------------------------

/** A locked quote (docs/decisions.md, Fiat pricing); amounts as decimal strings in both forms. */
export const quoteSchema = z
  .object({
    id,
    priceCurrency: z.enum(PRICE_CURRENCIES),
    asset: currency,
    rate: z.string().meta({ description: "priceCurrency per unit of asset", example: "0.125" }),
    assetAmount: z.string().meta({
      description:
        "What to send (7 decimals): the fiat amount at the rate, rounded up to the stroop",
      example: "800.0000000",
    }),
    fiatAmount: z.string().meta({ description: "The amount due it covers", example: "100.00" }),
    source: z
      .string()
      .meta({ description: "Where the rate came from", example: "api.coingecko.com" }),
    createdAt: timestamp,
    expiresAt: timestamp.meta({
      description:
        "The unsigned transaction's time bounds end here; pay-intent again for a new quote",
    }),
  })
  .meta({ id: "Quote" });

const pathAsset = z
  .object({
    code: z.string().meta({ example: "XLM" }),
    issuer: wallet.nullable().meta({ description: "null for XLM" }),
  })
  .meta({ id: "PathAsset" });

/** A priced way of paying with another asset (lib/stellar/paths.ts). */
const pathQuote = {
  sendAsset: pathAsset,
  sourceAmount: z.string().meta({
    description: "Horizon's estimate of what sending costs, in sendAsset (7 decimals)",
    example: "10500.0000000",
  }),
  sendMax: z.string().meta({
    description:
      "The most the transaction may take: sourceAmount plus PATH_SLIPPAGE_BPS, rounded up to the stroop",
    example: "10605.0000000",
  }),
  path: z.array(pathAsset).meta({ description: "Intermediary assets, in order" }),
};

export const pathPaymentSchema = z.object(pathQuote).meta({ id: "PathPayment" });

/**
 * A smart wallet's payment (docs/decisions.md, Smart-wallet payers): the transaction invokes
 * the asset contract's `transfer(from, to = destination, amount)`, simulated through the
 * network's Stellar RPC and assembled (footprint, resource fee, the unsigned auth entries).
 */
export const contractPaymentSchema = z
  .object({
    from: payerAccount.meta({ description: "The contract account paying (C...)" }),
    feeAccount: wallet.meta({
      description: "The transaction's source: pays the fee, signs the envelope last",
    }),
    contractId: z.string().meta({
      description: "The invoice asset's Stellar Asset Contract (C...)",
      example: "CDLZFC3SYJYDZT7K67VZ75HPJVIEUVNIXF47ZG2FB2RMQQVU2HHGCYSC",
    }),
    authEntries: z.array(z.string()).meta({
      description:
        "The authorization entries `from` must sign (base64 `SorobanAuthorizationEntry`, as simulated): sign each with the SDK's `authorizeEntry` (or the wallet's `signAuthEntry`), put them back in the operation's `auth`, then the fee account signs the envelope and it goes to POST /api/payments/submit",
    }),
    authValidUntilLedger: int.meta({
      description: "The ledger (exclusive) the signed entries stay valid until",
      example: 123456,
    }),
  })
  .meta({ id: "ContractPayment" });

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
    destination: z.union([wallet, muxedAccount]).meta({
      description:
        "Where the payment goes: the freelancer's wallet (G...), or the invoice's muxedAddress (M...) when MUXED_DESTINATIONS=on or the sender is a contract account (docs/decisions.md, Muxed addresses)",
    }),
    muxedAddress: muxedAccount,
    networkPassphrase,
    timeout: int.meta({ description: "Seconds", example: 300 }),
    status: invoiceStatus,
    quote: quoteSchema.nullable().meta({
      description:
        "Fiat-priced invoices: the quote `amount` comes from (the same while it is live and covers the amount due)",
    }),
    pathPayment: pathPaymentSchema.nullable().meta({
      description:
        "With a `sendAsset` other than `asset`: the path the transaction takes (the freelancer receives exactly `amount` of `asset`); null otherwise",
    }),
    contractPayment: contractPaymentSchema.nullable().meta({
      description:
        "With a contract account sender (C...): the asset contract `transfer` the transaction invokes and what to sign; null otherwise",
    }),
  }),
);

export const payOptions = wire(
  "PayOptions",
  z.object({
    invoiceId: id,
    amount: z.string().meta({ description: "What the freelancer must receive", example: "1050" }),
    asset: pathAsset,
    options: z.array(z.object(pathQuote)).meta({
      description:
        "One entry per asset the payer holds that can pay `amount` (the invoice's own asset first when held)",
    }),
  }),
);

const paid = z.object({
  transactionHash: txHash,
  ledger: int,
  status: invoiceStatus,
  paidAt: timestamp.nullable(),
});

// The more specific member first, so zod keeps `alreadyPaid` when both would match.
export const submitResult = wire(
  "SubmitResult",
  z
    .union([
      paid
        .extend({
          success: z.literal(true),
          alreadyPaid: z.literal(true),
          transactionHash: txHash.nullable(),
          ledger: int.nullable(),
        })
        .meta({
          id: "SubmitAlreadyPaid",
          description: "The invoice was already paid; nothing was sent",
        }),
      paid.extend({ success: z.literal(true) }).meta({
        id: "SubmitRecorded",
        description: "The transaction was applied; the invoice is PAID",
      }),
    ])
    .meta({ override: { type: "object" } }),
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
  {
    description:
      "202: the network timed out before confirming; poll the status or confirm with this hash",
  },
);

const confirmed = paid.omit({ status: true });

export const confirmResult = wire(
  "ConfirmResult",
  z
    .union([
      confirmed.extend({ status: z.literal("confirmed") }).meta({ id: "ConfirmConfirmed" }),
      confirmed
        .extend({
          status: z.literal("already_paid"),
          transactionHash: txHash.nullable(),
          ledger: int.nullable(),
        })
        .meta({ id: "ConfirmAlreadyPaid" }),
    ])
    .meta({ override: { type: "object" } }),
);

const paymentStatusB = z.object({
  invoiceId: id,
  status: invoiceStatus,
  transactionHash: txHash.nullable(),
  ledgerNumber: int.nullable(),
  paidAt: timestamp.nullable(),
  payerWallet: payerAccount.nullable(),
  ...settledB,
  priceCurrency: z.enum(PRICE_CURRENCIES).nullable().meta({
    description:
      "USD or EUR when the invoice is priced in fiat: amountPaid and amountDue are then in it",
  }),
  quote: quoteSchema.nullable().meta({ description: "The live quote, if any" }),
  payments: z.array(receivedPaymentB).meta({
    description: "Every payment recorded for the invoice, applied or not, oldest first",
  }),
  updatedAt: timestamp,
});

export const paymentStatusResponse = wire("PaymentStatus", paymentStatusB, {
  a: paymentStatusB.extend({ ...settledA, payments: z.array(receivedPaymentA) }),
});

export const verifiedTransaction = wire(
  "VerifiedTransaction",
  z.object({
    successful: z.boolean(),
    hash: txHash.meta({
      description:
        "The transaction's hash as the ledger records it: for a fee-bump transaction the outer (fee-bump) hash, whichever of its two hashes was asked for",
    }),
    innerHash: txHash.nullable().meta({
      description:
        "A fee-bump transaction's inner transaction hash (either hash finds it); null for any other transaction",
    }),
    ledger: int,
    createdAt: timestamp,
    networkPassphrase,
    memoType: z.enum(["text", "id", "hash", "return", "none"]),
    memo: z.string().nullable(),
    payments: z.array(
      z.object({
        type: z.string().meta({
          description:
            "`payment`, `path_payment_strict_receive`, `path_payment_strict_send`, `create_account`, or `contract_transfer` (a Stellar Asset Contract `transfer`, e.g. from a smart wallet)",
        }),
        from: payerAccount.meta({
          description:
            "The sender: a G account, or for a `contract_transfer` the contract address (C...) it moved the funds from",
        }),
        to: wallet,
        amount: z.string().meta({ description: "Decimal string received by `to`" }),
        assetCode: z.string().meta({ example: "USDC" }),
        assetIssuer: wallet.optional().meta({ description: "Absent for XLM" }),
        toMuxedId: z.string().optional().meta({
          description:
            "Sent to a muxed address (`M...`): its 64-bit id (decimal), `to` being its G account; an invoice's `muxedAddress` carries its own (docs/decisions.md, Muxed addresses). Absent otherwise",
          example: "4611686018427387904",
        }),
      }),
    ),
  }),
);
