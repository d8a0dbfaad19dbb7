import { z } from "zod";
import { CURRENCIES } from "@/lib/domain/money";
import { amountSchema, networkNameSchema, networkPassphraseSchema, optionalText } from "./common";

export const createLinkSchema = z
  .object({
    amount: amountSchema,
    asset: z.enum(CURRENCIES),
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
