import type { PostalAddress } from "@/lib/domain/address";
import { isCountryCode, TAX_SCHEMES } from "@/lib/domain/tax-id";
import { z } from "@/lib/zod";
import { optionalText } from "./common";

// A party's tax identity and postal address (docs/decisions.md, Tax identities): one shape
// each, used by the profile (the seller), saved clients and invoices (the buyer).

export const COUNTRY_CODE = "must be an ISO 3166-1 alpha-2 country code (e.g. DE)";

export const countryCodeSchema = z
  .string()
  .trim()
  .transform((v) => v.toUpperCase())
  .refine(isCountryCode, COUNTRY_CODE)
  .describe("ISO 3166-1 alpha-2 country code, e.g. DE");

export const taxSchemeSchema = z
  .enum(TAX_SCHEMES, { error: `taxScheme must be one of ${TAX_SCHEMES.join(", ")}` })
  .describe(
    "The tax id's scheme: eu_vat (checked for its country's format and check digits), gb_vat, au_abn (check digits), other (3-50 letters, digits and . / - space). Left out: the number is kept as typed, unchecked",
  );

/** A postal address (EN 16931 BG-5 / BG-8): up to three lines, city, postcode, region, country. */
export const postalAddressSchema = z
  .object({
    line1: optionalText(100),
    line2: optionalText(100),
    line3: optionalText(100),
    city: optionalText(100),
    postcode: optionalText(20),
    region: optionalText(100),
    country: countryCodeSchema,
  })
  .strict();

export type PostalAddressInput = z.output<typeof postalAddressSchema>;

export type { PostalAddress };

/** What a stored address answers: every line present, null when blank. */
export const postalAddress = z
  .object({
    line1: z.string().nullable(),
    line2: z.string().nullable(),
    line3: z.string().nullable(),
    city: z.string().nullable(),
    postcode: z.string().nullable(),
    region: z.string().nullable(),
    country: z.string().meta({ example: "DE" }),
  })
  .meta({ id: "PostalAddress" });

/** The stored form of a parsed address: every key present. */
export function storedAddress(input: PostalAddressInput | null | undefined): PostalAddress | null {
  if (!input) return null;
  return {
    line1: input.line1 ?? null,
    line2: input.line2 ?? null,
    line3: input.line3 ?? null,
    city: input.city ?? null,
    postcode: input.postcode ?? null,
    region: input.region ?? null,
    country: input.country,
  };
}
