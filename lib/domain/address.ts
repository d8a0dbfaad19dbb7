// Postal addresses and tax schemes as documents print them: pure, so the PDF worker
// (lib/services/invoices/pdf-render.ts) takes them without the validators.

/** A stored postal address (lib/schemas/parties.ts): every key present, null when blank. */
export type PostalAddress = {
  line1: string | null;
  line2: string | null;
  line3: string | null;
  city: string | null;
  postcode: string | null;
  region: string | null;
  country: string;
};

/** The address as printed lines: street lines, "postcode city", region, country code. */
export function addressLines(a: PostalAddress | null | undefined): string[] {
  if (!a) return [];
  const town = [a.postcode, a.city].filter(Boolean).join(" ");
  return [a.line1, a.line2, a.line3, town, a.region, a.country].filter(
    (l): l is string => !!l && l.length > 0,
  );
}

export const TAX_SCHEMES = ["eu_vat", "gb_vat", "au_abn", "other"] as const;
export type TaxScheme = (typeof TAX_SCHEMES)[number];

/** A scheme's name in a form's choice. */
export const TAX_SCHEME_NAMES: Record<TaxScheme, string> = {
  eu_vat: "EU VAT number",
  gb_vat: "UK VAT number",
  au_abn: "Australian ABN",
  other: "Other tax number",
};

/** How a document labels a tax id of each scheme. */
export const TAX_SCHEME_LABELS: Record<TaxScheme, string> = {
  eu_vat: "VAT",
  gb_vat: "VAT",
  au_abn: "ABN",
  other: "Tax ID",
};

/** "VAT: DE136695976"; a number without a scheme is a "Tax ID". */
export function taxIdLine(
  taxId: string | null | undefined,
  scheme: TaxScheme | null | undefined,
  /** The schemes' names in the document's language (lib/i18n, `schemeLabels`); English by default. */
  labels: Record<TaxScheme, string> = TAX_SCHEME_LABELS,
) {
  return taxId ? `${labels[scheme ?? "other"]}: ${taxId}` : null;
}

/** An EU VAT number's prefix is its country's code, but Greece's is EL (ISO: GR). */
export const EU_VAT_PREFIXES: Record<string, string> = {
  AT: "AT",
  BE: "BE",
  BG: "BG",
  CY: "CY",
  CZ: "CZ",
  DE: "DE",
  DK: "DK",
  EE: "EE",
  EL: "GR",
  ES: "ES",
  FI: "FI",
  FR: "FR",
  HR: "HR",
  HU: "HU",
  IE: "IE",
  IT: "IT",
  LT: "LT",
  LU: "LU",
  LV: "LV",
  MT: "MT",
  NL: "NL",
  PL: "PL",
  PT: "PT",
  RO: "RO",
  SE: "SE",
  SI: "SI",
  SK: "SK",
};
/** The EU VAT prefix of an ISO country (GR -> EL), for numbers typed without one. */
export const PREFIX_OF_COUNTRY = Object.fromEntries(
  Object.entries(EU_VAT_PREFIXES).map(([prefix, iso]) => [iso, prefix]),
);

/**
 * Whether a supply to this buyer is reverse charged (EU VAT Directive art. 196): the seller
 * is registered for EU VAT, the buyer is a business with an EU VAT number, and their countries
 * differ. The countries are the numbers' prefixes (EL is Greece). What the forms offer; the
 * freelancer decides (docs/decisions.md, Tax per line).
 */
export function reverseChargeApplies(
  seller: { taxId: string | null; taxScheme: TaxScheme | null },
  buyer: { taxId: string | null; taxScheme: TaxScheme | null; isBusiness: boolean | null },
): boolean {
  if (seller.taxScheme !== "eu_vat" || buyer.taxScheme !== "eu_vat" || !buyer.isBusiness) {
    return false;
  }
  const from = EU_VAT_PREFIXES[seller.taxId?.trim().slice(0, 2).toUpperCase() ?? ""];
  const to = EU_VAT_PREFIXES[buyer.taxId?.trim().slice(0, 2).toUpperCase() ?? ""];
  return Boolean(from && to && from !== to);
}

/** A party as documents print its address and tax id (the seller's profile, a buyer). */
export type PartyIdentity = {
  address?: string | null;
  postalAddress?: PostalAddress | null;
  taxId?: string | null;
  taxScheme?: TaxScheme | null;
};

/**
 * The lines a document prints under a party's name: the structured address when there is one
 * (else the free text), then its tax id. Null entries are left for the caller to skip.
 */
export function partyLines(
  p: PartyIdentity,
  labels: Record<TaxScheme, string> = TAX_SCHEME_LABELS,
): (string | null)[] {
  return [
    p.postalAddress ? addressLines(p.postalAddress).join("\n") : (p.address ?? null),
    taxIdLine(p.taxId, p.taxScheme, labels),
  ];
}
