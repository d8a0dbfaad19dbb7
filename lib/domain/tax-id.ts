import countries from "i18n-iso-countries";
import { euVat, stdnum } from "stdnum";
import { EU_VAT_PREFIXES, PREFIX_OF_COUNTRY, TAX_SCHEMES, type TaxScheme } from "./address";
import { ValidationError } from "./errors";

/**
 * Tax registrations (docs/decisions.md, Tax identities): a number and the scheme it belongs to.
 * EU VAT, UK VAT and Australian ABNs are checked for format and check digits by `stdnum` (a
 * port of python-stdnum's validators, one per country, kept up with the tax offices' rules),
 * so no check-digit table is written here. Other schemes are checked for length and
 * characters only.
 */
export { TAX_SCHEMES, type TaxScheme };

export type TaxIdCheck =
  | { ok: true; taxId: string; scheme: TaxScheme; country: string | null }
  | { ok: false; message: string };

const OTHER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 ./-]{1,48}[A-Za-z0-9]$/;

/** An ISO 3166-1 alpha-2 code, upper case, or false. */
export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && countries.isValid(code);
}

/**
 * The scheme a number without one belongs to: an EU VAT prefix (DE, FR, EL...) is EU VAT, GB
 * or XI (Northern Ireland) is UK VAT, anything else is "other".
 */
export function inferTaxScheme(taxId: string): TaxScheme {
  const prefix = taxId.trim().slice(0, 2).toUpperCase();
  if (prefix in EU_VAT_PREFIXES && /\d/.test(taxId)) return "eu_vat";
  if ((prefix === "GB" || prefix === "XI") && /\d/.test(taxId)) return "gb_vat";
  return "other";
}

/**
 * Checks `taxId` under `scheme` (inferred from the number when absent) and returns it in its
 * compact form: EU VAT with its prefix ("DE136695976"), UK VAT with GB or XI, ABN as 11
 * digits. `country` (ISO 3166-1 alpha-2) supplies an EU number's prefix when it has none and
 * must agree with it when it has one.
 */
export function checkTaxId(
  taxId: string,
  scheme?: TaxScheme | null,
  country?: string | null,
): TaxIdCheck {
  const raw = taxId.trim();
  const kind = scheme ?? inferTaxScheme(raw);
  const upper = raw.toUpperCase().replace(/[\s.-]/g, "");
  switch (kind) {
    case "eu_vat": {
      let prefix = upper.slice(0, 2);
      let number = upper.slice(2);
      if (!(prefix in EU_VAT_PREFIXES)) {
        const fromCountry = country ? PREFIX_OF_COUNTRY[country] : undefined;
        if (!fromCountry) {
          return {
            ok: false,
            message: "taxId must start with the EU country's VAT prefix (e.g. DE, FR, EL)",
          };
        }
        prefix = fromCountry;
        number = upper;
      }
      const iso = EU_VAT_PREFIXES[prefix];
      if (country && country !== iso) {
        return {
          ok: false,
          message: `taxId is a ${prefix} VAT number but the country is ${country}`,
        };
      }
      // stdnum's VAT validator of that country (France's is `tva`, the Netherlands' `btw`...).
      const validator = (euVat as Record<string, Validator[] | undefined>)[iso]?.[0];
      const result = validator?.validate(number);
      if (!result?.isValid) {
        return {
          ok: false,
          message: `taxId is not a valid ${prefix} VAT number (${reason(result)})`,
        };
      }
      return { ok: true, taxId: `${prefix}${result.compact}`, scheme: kind, country: iso };
    }
    case "gb_vat": {
      const prefix = upper.startsWith("XI") ? "XI" : "GB";
      const result = stdnum.GB.vat.validate(upper.replace(/^(GB|XI)/, ""));
      if (!result.isValid) {
        return { ok: false, message: `taxId is not a valid UK VAT number (${reason(result)})` };
      }
      return { ok: true, taxId: `${prefix}${result.compact}`, scheme: kind, country: "GB" };
    }
    case "au_abn": {
      const result = stdnum.AU.abn.validate(upper);
      if (!result.isValid) {
        return { ok: false, message: `taxId is not a valid ABN (${reason(result)})` };
      }
      return { ok: true, taxId: result.compact ?? upper, scheme: kind, country: "AU" };
    }
    case "other":
      if (!OTHER_PATTERN.test(raw)) {
        return {
          ok: false,
          message: "taxId must be 3 to 50 letters, digits, spaces, dots, slashes or dashes",
        };
      }
      return { ok: true, taxId: raw, scheme: kind, country: country ?? null };
  }
}

/**
 * A party's tax id as stored: checked and compacted under its scheme, or kept as typed when no
 * scheme is given (the field was free text before schemes; docs/decisions.md, Tax identities).
 * Throws a ValidationError naming `field` when the number fails its scheme.
 */
export function normalizeTaxId(
  taxId: string | null | undefined,
  scheme: TaxScheme | null | undefined,
  country: string | null | undefined,
  field = "taxId",
): { taxId: string | null; scheme: TaxScheme | null } {
  if (!taxId) return { taxId: null, scheme: scheme ?? null };
  if (!scheme) return { taxId, scheme: null };
  const r = checkTaxId(taxId, scheme, country);
  if (!r.ok) {
    const message = r.message.replace(/^taxId/, field);
    throw new ValidationError(message, { [field]: message });
  }
  return { taxId: r.taxId, scheme };
}

type Validator = {
  validate(value: string): { isValid: boolean; compact?: string; error?: Error };
};

/** stdnum's reason, in a word a freelancer reads: "check digit", "length", "format". */
function reason(result: { error?: Error } | undefined): string {
  const name = result?.error?.name ?? "";
  if (/Checksum/.test(name)) return "wrong check digit";
  if (/Length/.test(name)) return "wrong length";
  return "wrong format";
}
