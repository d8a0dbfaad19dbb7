import { type AddressValues, addressBoxes, addressFromForm } from "@/lib/client/address-form";
import type { TaxScheme } from "@/lib/domain/address";
import type { PriceCurrency } from "@/lib/domain/money";
import type { Language } from "@/lib/i18n/languages";
import { type ProfileBody, type ProfileInput, profileInputSchema } from "@/lib/schemas/profile";
import { z } from "@/lib/zod";

export type { AddressValues };

/**
 * The profile form's values (text boxes) and their rules: the API's own request schema
 * (lib/schemas/profile.ts) applied to what the boxes hold; nothing here restates a rule.
 */
export type ProfileFormValues = {
  displayName: string;
  company: string;
  email: string;
  phone: string;
  address: string;
  taxId: string;
  /** "": no scheme (the number is kept as typed). */
  taxScheme: TaxScheme | "";
  taxCountry: string;
  postalAddress: AddressValues;
  reportingCurrency: PriceCurrency;
  paymentTermsDays: string;
  /** Comma-separated days, e.g. "-3, 0, 7". */
  defaultReminders: string;
  defaultPaymentTolerance: string;
  emailFooter: string;
  /** "": English (docs/decisions.md, Languages). */
  defaultLanguage: Language | "";
};

const shape = profileInputSchema.shape;
const blank = (v: string) => (v.trim() === "" ? null : v.trim());
const from = <S extends z.ZodType>(schema: S, convert: (v: string) => unknown) =>
  z.preprocess(convert, schema) as unknown as z.ZodType<z.output<S>, string>;

export const profileFormSchema = z.object({
  displayName: from(shape.displayName, blank),
  company: from(shape.company, blank),
  email: from(shape.email, blank),
  phone: from(shape.phone, blank),
  address: from(shape.address, blank),
  taxId: from(shape.taxId, blank),
  taxScheme: z.preprocess((v: string) => v || null, shape.taxScheme) as unknown as z.ZodType<
    z.output<typeof shape.taxScheme>,
    TaxScheme | ""
  >,
  taxCountry: from(shape.taxCountry, blank),
  postalAddress: addressFromForm(shape.postalAddress),
  reportingCurrency: shape.reportingCurrency.unwrap(),
  paymentTermsDays: from(shape.paymentTermsDays, (v) => (blank(v) === null ? null : Number(v))),
  defaultReminders: from(shape.defaultReminders, (v) =>
    blank(v) === null ? null : v.split(",").map((day) => Number(day.trim() || Number.NaN)),
  ),
  defaultPaymentTolerance: from(shape.defaultPaymentTolerance, blank),
  emailFooter: from(shape.emailFooter, blank),
  defaultLanguage: z.preprocess(
    (v: string) => v || null,
    shape.defaultLanguage,
  ) as unknown as z.ZodType<z.output<typeof shape.defaultLanguage>, Language | "">,
});

export type ProfileFormOutput = z.output<typeof profileFormSchema>;

/** The form's starting values: the saved profile's. */
export function profileFormValues(p: ProfileBody): ProfileFormValues {
  return {
    displayName: p.displayName ?? "",
    company: p.company ?? "",
    email: p.email ?? "",
    phone: p.phone ?? "",
    address: p.address ?? "",
    taxId: p.taxId ?? "",
    taxScheme: p.taxScheme ?? "",
    taxCountry: p.taxCountry ?? "",
    postalAddress: addressBoxes(p.postalAddress),
    reportingCurrency: p.reportingCurrency,
    paymentTermsDays: p.paymentTermsDays === null ? "" : String(p.paymentTermsDays),
    defaultReminders: p.defaultReminders?.join(", ") ?? "",
    defaultPaymentTolerance: p.defaultPaymentTolerance ?? "",
    emailFooter: p.emailFooter ?? "",
    defaultLanguage: p.defaultLanguage ?? "",
  };
}

/** PUT /api/profile's body: the form's fields, and the logo only when it changed. */
export function profileRequest(
  values: ProfileFormOutput,
  logo: string | null | undefined,
): ProfileInput {
  return logo === undefined ? values : { ...values, logo };
}
