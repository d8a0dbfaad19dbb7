import { CURRENCIES } from "@/lib/domain/money";
import { z } from "@/lib/zod";
import { amountSchema, networkNameSchema, networkPassphraseSchema } from "./common";
import { EXAMPLE_HASH, EXAMPLE_WALLET, networkPassphrase, txHash, wallet, wire } from "./wire";

// Recipient readiness and the one-click trustline (docs/decisions.md, Recipient readiness):
// requests and responses (lib/serializers/readiness.ts).

/** The network a request names: `networkPassphrase` (Form B) or `network` (Form A). */
const networkFields = {
  networkPassphrase: networkPassphraseSchema.optional(),
  network: networkNameSchema.optional().describe("testnet or mainnet (alias of networkPassphrase)"),
};

/** GET /api/wallet/readiness: can the signed-in wallet receive `amount` of `currency`? */
export const readinessQuerySchema = z
  .object({
    ...networkFields,
    currency: z.enum(CURRENCIES).meta({ description: "The invoice asset", example: "USDC" }),
    amount: amountSchema
      .optional()
      .describe(
        "The invoice total in the asset: the trustline must have room for it. Omit it (fiat-priced invoices) to skip the room check",
      ),
  })
  .strict();

/** POST /api/wallet/trustline. */
export const buildTrustlineSchema = z
  .object({
    ...networkFields,
    currency: z
      .enum(["USDC", "EURC"], { error: "currency must be USDC or EURC" })
      .meta({ description: "The asset to trust (its trusted issuer on that network)" }),
  })
  .strict();

/** POST /api/wallet/trustline/submit. */
export const submitTrustlineSchema = z
  .object({
    ...networkFields,
    signedTransactionXdr: z
      .string({ error: "signedTransactionXdr required" })
      .min(1)
      .max(20_000)
      .describe("The trustline's transactionXdr, signed by the wallet"),
  })
  .strict();

const assetRef = z.object({
  code: z.enum(CURRENCIES).meta({ example: "USDC" }),
  issuer: wallet.nullable().meta({ description: "The trusted issuer; null for XLM" }),
});

export const recipientReadiness = wire(
  "RecipientReadiness",
  z.object({
    status: z.enum(["ready", "not_ready", "unknown"]).meta({
      description:
        "ready; not_ready (sending an invoice would be refused with `message`); unknown (the network could not be reached: sending is not blocked)",
    }),
    problem: z.enum(["no_account", "no_trustline", "not_authorized", "no_room"]).nullable(),
    wallet,
    networkPassphrase,
    asset: assetRef,
    message: z
      .string()
      .nullable()
      .meta({
        description: "What sending would answer",
        example: `Your wallet cannot receive USDC on Testnet yet: it has no trustline to USDC issued by ${EXAMPLE_WALLET}`,
      }),
    fix: z.string().nullable().meta({ description: "What to do about it" }),
    canAddTrustline: z.boolean().meta({
      description: "POST /api/wallet/trustline fixes it (no trustline, or a full one)",
    }),
  }),
);

export const trustlineTransaction = wire(
  "TrustlineTransaction",
  z.object({
    transactionXdr: z.string().meta({
      description:
        "Unsigned change_trust (base64 XDR) from the wallet to the trusted issuer, no limit (the maximum); sign it and send it to POST /api/wallet/trustline/submit",
    }),
    networkPassphrase,
    asset: assetRef,
    wallet,
  }),
);

export const trustlineResult = wire(
  "TrustlineResult",
  z.object({
    transactionHash: txHash.meta({ example: EXAMPLE_HASH }),
    ledger: z.number().int(),
    networkPassphrase,
    assets: z.array(assetRef),
  }),
);
