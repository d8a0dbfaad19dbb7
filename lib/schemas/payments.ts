import { z } from "zod";
import { networkNameSchema, networkPassphraseSchema } from "./common";

const wallet = z.string().regex(/^G[A-Z2-7]{55}$/, "Invalid Stellar address");
const hash = z
  .string({ error: "transactionHash required" })
  .regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex characters")
  .transform((v) => v.toLowerCase());

export const payIntentSchema = z
  .object({
    senderPublicKey: wallet.optional().describe("desktop flow: the payer's account"),
    payerAddress: wallet.optional().describe("Form B alias of senderPublicKey"),
    networkPassphrase: networkPassphraseSchema,
  })
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
