import { TAX_SCHEMES } from "@/lib/domain/tax-id";
import { LANGUAGES, languageMessage } from "@/lib/i18n/languages";
import { z } from "@/lib/zod";
import { optionalText } from "./common";
import { postalAddress, postalAddressSchema, taxSchemeSchema } from "./parties";
import { deletedShape, type FormB, id, timestamp, wallet, wire } from "./wire";

export const clientInputSchema = z
  .object({
    name: z
      .string({ error: "Name is required" })
      .trim()
      .min(1, "Name is required")
      .max(200, "Name must be at most 200 characters"),
    email: z
      .string({ error: "Invalid email" })
      .trim()
      .max(200, "Invalid email")
      .pipe(z.email({ message: "Invalid email" })),
    company: optionalText(200),
    address: optionalText(500),
    taxId: optionalText(50).describe(
      "The client's VAT number, ABN...: checked under taxScheme when one is given (400 with details.taxId)",
    ),
    taxScheme: taxSchemeSchema.nullish(),
    postalAddress: postalAddressSchema
      .nullish()
      .describe("Structured address; its country is the client's country"),
    isBusiness: z.boolean().nullish().describe("Whether the client is a business"),
    language: z
      .enum(LANGUAGES, { error: languageMessage("language") })
      .nullish()
      .describe(
        "The language of this client's documents (en, de, fr, es, pt): new invoices for the client take it; null: the profile's default",
      ),
    buyerReference: optionalText(200).describe(
      "The reference its invoices take by default (EN 16931 BT-10): a German public buyer's Leitweg-ID, which an XRechnung requires",
    ),
    isFavorite: z.boolean().optional(),
  })
  .strict();

export const favoriteInputSchema = z.object({ isFavorite: z.boolean() }).strict();

// ---- responses (lib/serializers/clients.ts) ------------------------------------------------

const client = z.object({
  id,
  freelancerWallet: wallet,
  name: z.string(),
  email: z.string(),
  company: z.string().nullable(),
  address: z.string().nullable(),
  taxId: z.string().nullable(),
  taxScheme: z.enum(TAX_SCHEMES).nullable(),
  postalAddress: postalAddress.nullable(),
  isBusiness: z.boolean().nullable(),
  language: z.enum(LANGUAGES).nullable(),
  buyerReference: z.string().nullable(),
  isFavorite: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const clientResponse = wire("Client", client);

export const clientList = wire(
  "ClientList",
  z.array(clientResponse.b).meta({ description: "Favorites first, then newest first" }),
);

export const clientDeleted = deletedShape("ClientDeleted");

export type ClientBody = FormB<typeof clientResponse>;
