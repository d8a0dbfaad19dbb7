import { PRICE_CURRENCIES } from "@/lib/domain/money";
import { TOLERANCE_SPEC } from "@/lib/domain/settlement";
import { TAX_SCHEMES } from "@/lib/domain/tax-id";
import { LANGUAGES, languageMessage } from "@/lib/i18n/languages";
import { z } from "@/lib/zod";
import { decimalSchema, emailSchema, optionalText } from "./common";
import { countryCodeSchema, postalAddress, postalAddressSchema, taxSchemeSchema } from "./parties";
import { type FormB, timestamp, wallet, wire } from "./wire";

// The business profile (docs/decisions.md, Profile): PUT /api/profile replaces it whole.

export const MAX_REMINDERS = 5;

export const remindersSchema = z
  .array(
    z
      .number({ error: "Each reminder is a whole number of days" })
      .int("Each reminder is a whole number of days")
      .min(-60, "Reminders are between 60 days before and 60 days after the due date")
      .max(60, "Reminders are between 60 days before and 60 days after the due date"),
  )
  .max(MAX_REMINDERS, `At most ${MAX_REMINDERS} reminders`)
  .refine((days) => new Set(days).size === days.length, "Reminders must be different days")
  .describe(
    "days relative to the due date (-3 = three days before, 0 = on the day, 7 = a week after); at most 5, each -60 to 60, all different",
  );

export const profileInputSchema = z
  .object({
    displayName: optionalText(200),
    company: optionalText(200),
    email: emailSchema.nullish().describe("one address; payment notices go to it"),
    phone: optionalText(50)
      .refine(
        (v) => v == null || /^\+?[0-9][0-9 ()./-]{2,49}$/.test(v),
        "phone must be a phone number: digits, spaces and + ( ) . / -",
      )
      .describe("the seller contact's phone, which an XRechnung requires (BT-42)"),
    address: optionalText(500),
    taxId: optionalText(50).describe(
      "VAT number, ABN, EIN...: at most 50 characters; checked under taxScheme when one is given (an invalid one answers 400 with details.taxId) and kept in its compact form (DE136695976)",
    ),
    taxScheme: taxSchemeSchema.nullish(),
    taxCountry: countryCodeSchema
      .nullish()
      .describe(
        "Where the tax id is registered; left out: the address's country (an EU VAT number's prefix must agree)",
      ),
    postalAddress: postalAddressSchema.nullish().describe("The seller's structured address"),
    logo: z
      .string()
      .max(300_000, "Logo must be at most 200 KB")
      .nullish()
      .describe(
        "`data:image/png;base64,...` (or image/jpeg, image/svg+xml), at most 200 KB of image (an SVG 100 KB); the type is read from the bytes; an SVG that is not well-formed XML or has scripts, event handlers, foreignObject, external references, entities or url() other than #id is refused. Omitted: the stored logo is kept; null: removed",
      ),
    reportingCurrency: z
      .enum(PRICE_CURRENCIES, { error: "reportingCurrency must be USD or EUR" })
      .optional()
      .describe("the dashboard's revenue currency (default USD)"),
    paymentTermsDays: z
      .number({ error: "paymentTermsDays must be a whole number of days" })
      .int("paymentTermsDays must be a whole number of days")
      .min(0, "paymentTermsDays must be between 0 and 365")
      .max(365, "paymentTermsDays must be between 0 and 365")
      .nullish()
      .describe("days from creation to the due date of new invoices; null: no due date"),
    defaultReminders: remindersSchema.nullish(),
    defaultPaymentTolerance: decimalSchema(TOLERANCE_SPEC)
      .nullish()
      .describe("percent, 0 to 5, 2 decimals: new invoices' paymentTolerance"),
    emailFooter: optionalText(500).describe("a line under every email, at most 500 characters"),
    defaultLanguage: z
      .enum(LANGUAGES, { error: languageMessage("defaultLanguage") })
      .nullish()
      .describe(
        "the language of new invoices whose client has none (en, de, fr, es, pt); null: en",
      ),
  })
  .strict();

export type ProfileInput = z.infer<typeof profileInputSchema>;

// ---- responses (lib/serializers/profile.ts) ------------------------------------------------

const profile = z.object({
  wallet,
  displayName: z.string().nullable(),
  company: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  taxId: z.string().nullable(),
  taxScheme: z.enum(TAX_SCHEMES).nullable(),
  taxCountry: z.string().nullable(),
  postalAddress: postalAddress.nullable(),
  logoUrl: z.string().nullable().meta({
    description: "Public URL of the logo (changes with each new logo), or null",
    example: "https://invoices.example/api/profile/logo/GBRP...?v=m5x2k",
  }),
  logoType: z.enum(["image/png", "image/jpeg", "image/svg+xml"]).nullable(),
  reportingCurrency: z.enum(PRICE_CURRENCIES),
  paymentTermsDays: z.number().int().nullable(),
  defaultReminders: z.array(z.number().int()).nullable(),
  defaultPaymentTolerance: z
    .string()
    .nullable()
    .meta({ description: "Percent, 2 decimals", example: "1.50" }),
  emailFooter: z.string().nullable(),
  defaultLanguage: z.enum(LANGUAGES).nullable(),
  updatedAt: timestamp.nullable().meta({ description: "null until the profile is first saved" }),
});

export const profileResponse = wire("Profile", profile, {
  description: "The caller's business profile; every field null (USD) until first saved",
});

export type ProfileBody = FormB<typeof profileResponse>;
