// Tax categories and the breakdown's shape (docs/decisions.md, Tax per line): constants and
// types only, so the database schema and the PDF worker take them without the arithmetic.

/** EN 16931 VAT category codes (UNCL5305 subset, BT-151 / BT-118). */
export const TAX_CATEGORIES = ["S", "Z", "E", "AE", "K", "G", "O"] as const;
export type TaxCategory = (typeof TAX_CATEGORIES)[number];

export const TAX_CATEGORY_NAMES: Record<TaxCategory, string> = {
  S: "Standard rate",
  Z: "Zero rated",
  E: "Exempt",
  AE: "Reverse charge",
  K: "Intra-community supply",
  G: "Export outside the EU",
  O: "Outside the scope of VAT",
};

/** Categories whose invoice must say why no VAT is charged (EN 16931 BR-E-10, BR-AE-10, ...). */
export const EXEMPT_CATEGORIES: readonly TaxCategory[] = ["E", "AE", "K", "G", "O"];

/**
 * The CEF VATEX exemption reason codes (BT-121, BR-CL-22), as EN 16931's validation artefacts
 * 1.3.16 list them: a line's `exemptionReasonCode` must be one of them, exactly (upper case).
 */
export const VATEX_CODES: ReadonlySet<string> = new Set([
  "VATEX-EU-79-C",
  "VATEX-EU-132",
  ...[..."ABCDEFGHIJKLMNOPQ"].map((l) => `VATEX-EU-132-1${l}`),
  "VATEX-EU-135-1",
  "VATEX-EU-143",
  ...["A", "B", "C", "D", "E", "F", "FA", "G", "H", "I", "J", "K", "L"].map(
    (l) => `VATEX-EU-143-1${l}`,
  ),
  "VATEX-EU-144",
  "VATEX-EU-146-1E",
  "VATEX-EU-148",
  ...[..."ABCDEFG"].map((l) => `VATEX-EU-148-${l}`),
  "VATEX-EU-151",
  ...["A", "AA", "B", "C", "D", "E"].map((l) => `VATEX-EU-151-1${l}`),
  "VATEX-EU-153",
  "VATEX-EU-159",
  "VATEX-EU-309",
  "VATEX-EU-AE",
  "VATEX-EU-D",
  "VATEX-EU-F",
  "VATEX-EU-G",
  "VATEX-EU-I",
  "VATEX-EU-IC",
  "VATEX-EU-J",
  "VATEX-EU-O",
  "VATEX-FR-AE",
  "VATEX-FR-CNWVAT",
  "VATEX-FR-FRANCHISE",
  "VATEX-FR-298SEXDECIESA",
  "VATEX-FR-CGI261-1",
  "VATEX-FR-CGI261-2",
  "VATEX-FR-CGI261-3",
  "VATEX-FR-CGI261-4",
  "VATEX-FR-CGI261-5",
  "VATEX-FR-CGI261-7",
  "VATEX-FR-CGI261-8",
  "VATEX-FR-CGI261A",
  "VATEX-FR-CGI261B",
  "VATEX-FR-CGI261C-1",
  "VATEX-FR-CGI261C-2",
  "VATEX-FR-CGI261C-3",
  "VATEX-FR-CGI261D-1",
  "VATEX-FR-CGI261D-1BIS",
  "VATEX-FR-CGI261D-2",
  "VATEX-FR-CGI261D-3",
  "VATEX-FR-CGI261D-4",
  "VATEX-FR-CGI261E-1",
  "VATEX-FR-CGI261E-2",
  "VATEX-FR-CGI275",
  "VATEX-FR-CGI277A",
  "VATEX-FR-CGI295",
]);

export type TaxBreakdownRow = {
  category: TaxCategory;
  /** 2 decimals. */
  rate: string;
  /** The row's net amount less its share of the discount, 7 decimals. */
  taxableAmount: string;
  /** round(taxableAmount x rate / 100) half up at the invoice's scale, 7 decimals. */
  taxAmount: string;
  exemptionReason: string | null;
  exemptionReasonCode: string | null;
};

export type LineTax = {
  /** The line's own rate and category, null when it has none (the invoice's rate applies). */
  taxRate: string | null;
  taxCategory: TaxCategory | null;
  exemptionReason: string | null;
  exemptionReasonCode: string | null;
};

/**
 * The legal note a document carries for a category that charges no VAT (EU VAT Directive
 * art. 226 (11) and (11a)): why none is charged. English, and what is stored as a line's
 * default exemption reason; documents print it in the invoice's language from the catalogues'
 * `tax.note.*` and `tax.name.*` (lib/i18n, docs/decisions.md, Languages).
 */
export const TAX_CATEGORY_NOTES: Partial<Record<TaxCategory, string>> = {
  AE: "Reverse charge: VAT to be accounted for by the recipient",
  K: "Intra-community supply of goods: exempt from VAT (art. 138 of Directive 2006/112/EC)",
  G: "Export outside the EU: exempt from VAT",
  E: "Exempt from VAT",
  O: "Outside the scope of VAT",
};
