import type { PostalAddress } from "@/lib/domain/address";
import type { PriceCurrency } from "@/lib/domain/money";
import { computeInvoiceTotals, hasLineTaxes, type TaxCategory } from "@/lib/domain/tax";
import {
  creditNoteInputOf,
  type EInvoiceInput,
  type EInvoiceProfile,
  type EInvoiceSeller,
  type EInvoiceSource,
  eInvoiceInputOf,
} from "@/lib/einvoice";
import type { Language } from "@/lib/i18n";
import { NETWORK_PASSPHRASES } from "@/lib/stellar/networks";

// The e-invoice case set (issue 30, "Done when"): realistic invoices computed and stored as
// the service does (computeInvoiceTotals, the stored breakdown only with line taxes), turned
// into inputs by eInvoiceInputOf, plus two credit notes built by hand as their own inputs.

export const SELLER_WALLET = "GCFXHS4GXL6BVUCXBWXGTITROWLVYXQKQLF4YH5O5JT3YZXCYPAFBJZB";
export const USDC_ISSUER = "GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5";
export const EURC_ISSUER = "GB3Q6QDZYTHWT7E5PVS3W7FUT5GVAFC5KSZFFLPU25GO7VTC3NM2ZTVO";

const BERLIN: PostalAddress = {
  line1: "Kastanienallee 12",
  line2: null,
  line3: null,
  city: "Berlin",
  postcode: "10435",
  region: null,
  country: "DE",
};
const PARIS: PostalAddress = {
  line1: "14 rue de la Paix",
  line2: "Bâtiment B",
  line3: null,
  city: "Paris",
  postcode: "75002",
  region: "Île-de-France",
  country: "FR",
};
const MUNICH: PostalAddress = {
  line1: "Leopoldstraße 40",
  line2: null,
  line3: null,
  city: "München",
  postcode: "80802",
  region: "Bayern",
  country: "DE",
};

export const SELLER: EInvoiceSeller = {
  displayName: "Anna Schmidt",
  company: "Schmidt Design & Code",
  email: "anna@schmidt-design.example",
  taxId: "DE136695976",
  taxScheme: "eu_vat",
  postalAddress: BERLIN,
  phone: "+49 30 1234567",
};

type Line = {
  description: string;
  quantity: string;
  rate: string;
  taxRate?: string;
  taxCategory?: TaxCategory;
  exemptionReason?: string;
  exemptionReasonCode?: string;
};

type InvoiceSpec = {
  number: string;
  lines: Line[];
  taxRate?: string;
  discount?: string;
  currency?: "XLM" | "USDC" | "EURC";
  priceCurrency?: PriceCurrency | null;
  taxCurrency?: PriceCurrency | null;
  taxExchangeRate?: string | null;
  client?: Partial<
    Pick<
      EInvoiceSource,
      | "clientName"
      | "clientCompany"
      | "clientTaxId"
      | "clientTaxScheme"
      | "clientPostalAddress"
      | "clientEmail"
    >
  >;
  title?: string;
  notes?: string | null;
  paymentTerms?: string | null;
  supplyDate?: string | null;
  periodStart?: string | null;
  periodEnd?: string | null;
  sent?: boolean;
};

/** An invoice row as the service stores it after a create and a send. */
export function storedInvoice(spec: InvoiceSpec): EInvoiceSource {
  const scale = spec.priceCurrency ? 2 : 7;
  const totals = computeInvoiceTotals(
    { lineItems: spec.lines, taxRate: spec.taxRate ?? null, discount: spec.discount ?? null },
    { scale },
  );
  const sentAt = spec.sent === false ? null : new Date("2026-11-20T09:30:00Z");
  return {
    id: `inv_${spec.number.toLowerCase()}`,
    invoiceNumber: spec.number,
    freelancerWallet: SELLER_WALLET,
    freelancerName: SELLER.displayName,
    freelancerCompany: SELLER.company,
    freelancerEmail: SELLER.email,
    clientName: "Claire Martin",
    clientEmail: "compta@atelier-martin.example",
    clientCompany: "Atelier Martin SARL",
    clientTaxId: "FR40303265045",
    clientTaxScheme: "eu_vat",
    clientPostalAddress: PARIS,
    ...spec.client,
    title: spec.title ?? "Website redesign",
    notes: spec.notes ?? null,
    paymentTerms: spec.paymentTerms ?? "Net 14",
    supplyDate: spec.supplyDate ?? null,
    periodStart: spec.periodStart ?? null,
    periodEnd: spec.periodEnd ?? null,
    taxCurrency: spec.taxCurrency ?? null,
    taxExchangeRate: sentAt ? (spec.taxExchangeRate ?? null) : null,
    taxRateSource: spec.taxExchangeRate
      ? spec.taxExchangeRate === "1.000000000000"
        ? "fixed"
        : "prices.example"
      : null,
    taxRateAt: spec.taxExchangeRate && sentAt ? new Date("2026-11-20T09:29:41Z") : null,
    subtotal: totals.subtotal,
    taxRate: totals.taxRate,
    taxAmount: totals.taxAmount,
    discount: totals.discount,
    total: totals.total,
    taxBreakdown: hasLineTaxes(spec.lines) ? totals.taxBreakdown : null,
    currency: spec.currency ?? "USDC",
    priceCurrency: spec.priceCurrency ?? null,
    networkPassphrase: NETWORK_PASSPHRASES.testnet,
    dueDate: sentAt ? new Date("2026-12-04T23:59:59Z") : null,
    sentAt,
    lineItems: spec.lines.map((l, i) => ({
      description: l.description,
      quantity: totals.lineItems[i].quantity,
      rate: totals.lineItems[i].rate,
      amount: totals.lineItems[i].amount,
      taxRate: totals.lineTaxes[i].taxRate,
      taxCategory: totals.lineTaxes[i].taxCategory,
    })),
  };
}

export function inputOf(
  invoice: EInvoiceSource,
  opts: { language?: Language; buyerReference?: string; seller?: EInvoiceSeller | null } = {},
): EInvoiceInput {
  const issuer =
    invoice.currency === "USDC" ? USDC_ISSUER : invoice.currency === "EURC" ? EURC_ISSUER : null;
  return eInvoiceInputOf(invoice, opts.seller === undefined ? SELLER : opts.seller, {
    payLink: `https://pay.example/pay/${invoice.id}`,
    issuer,
    language: opts.language,
    buyerReference: opts.buyerReference,
  });
}

export type EInvoiceCase = {
  name: string;
  input: EInvoiceInput;
  profile: EInvoiceProfile;
  /** The invoice the API answers (for the totals), absent for hand-built credit notes. */
  invoice?: EInvoiceSource;
};

const REVERSE_CHARGE = "Reverse charge: VAT to be accounted for by the recipient";

function caseOf(
  name: string,
  spec: InvoiceSpec,
  opts: { profile?: EInvoiceProfile; language?: Language; buyerReference?: string } = {},
): EInvoiceCase {
  const invoice = storedInvoice(spec);
  return {
    name,
    invoice,
    input: inputOf(invoice, opts),
    profile: opts.profile ?? "en16931",
  };
}

export const ONE_RATE = caseOf("one rate (19 %, USDC)", {
  number: "INV-0101",
  taxRate: "19",
  lines: [
    { description: "Design workshop", quantity: "2", rate: "450.00" },
    { description: "Logo files", quantity: "1", rate: "300.00" },
  ],
  client: {
    clientName: "Max Weber",
    clientCompany: "Weber Logistik GmbH",
    clientTaxId: "DE811569869",
    clientPostalAddress: MUNICH,
  },
});

export const THREE_RATES = caseOf("three rates (19 %, 7 %, 0 %), EUR-priced paid in EURC", {
  number: "INV-0102",
  currency: "EURC",
  priceCurrency: "EUR",
  lines: [
    { description: "Consulting", quantity: "12.5", rate: "95.00", taxRate: "19" },
    { description: "Printed handbook", quantity: "30", rate: "12.40", taxRate: "7" },
    { description: "Export documentation", quantity: "1", rate: "80.00", taxRate: "0" },
  ],
  client: {
    clientName: "Max Weber",
    clientCompany: "Weber Logistik GmbH",
    clientTaxId: "DE811569869",
    clientPostalAddress: MUNICH,
  },
});

export const REVERSE = caseOf("reverse charge (AE) to a French business", {
  number: "INV-0103",
  currency: "USDC",
  lines: [
    {
      description: "Backend development",
      quantity: "40",
      rate: "85.00",
      taxRate: "0",
      taxCategory: "AE",
      exemptionReason: REVERSE_CHARGE,
      exemptionReasonCode: "VATEX-EU-AE",
    },
  ],
});

export const EXEMPT = caseOf("exempt (E) with reason, beside a standard line", {
  number: "INV-0104",
  currency: "EURC",
  lines: [
    {
      description: "German language course (12 lessons)",
      quantity: "12",
      rate: "55.00",
      taxRate: "0",
      taxCategory: "E",
      exemptionReason: "Steuerfrei nach § 4 Nr. 21 UStG",
    },
    { description: "Course material", quantity: "1", rate: "40.00", taxRate: "19" },
  ],
  client: {
    clientName: "Max Weber",
    clientCompany: "Weber Logistik GmbH",
    clientTaxId: "DE811569869",
    clientPostalAddress: MUNICH,
  },
});

export const DISCOUNT = caseOf("a discount shared by two rates (19 %, 7 %)", {
  number: "INV-0105",
  currency: "USDC",
  discount: "100.00",
  lines: [
    { description: "Illustrations", quantity: "3", rate: "333.33", taxRate: "19" },
    { description: "Book layout", quantity: "1", rate: "420.00", taxRate: "7" },
  ],
  client: {
    clientName: "Max Weber",
    clientCompany: "Weber Logistik GmbH",
    clientTaxId: "DE811569869",
    clientPostalAddress: MUNICH,
  },
});

export const FIAT_EUR_IN_XLM = caseOf("EUR-priced, paid in XLM", {
  number: "INV-0106",
  currency: "XLM",
  priceCurrency: "EUR",
  taxRate: "19",
  lines: [{ description: "Monthly maintenance, November", quantity: "1", rate: "640.00" }],
  periodStart: "2026-11-01",
  periodEnd: "2026-11-30",
  client: {
    clientName: "Max Weber",
    clientCompany: "Weber Logistik GmbH",
    clientTaxId: "DE811569869",
    clientPostalAddress: MUNICH,
  },
});

export const USDC = caseOf("USDC, tax currency EUR", {
  number: "INV-0107",
  currency: "USDC",
  taxRate: "20",
  taxCurrency: "EUR",
  taxExchangeRate: "0.925400000000",
  lines: [
    { description: "API integration", quantity: "16", rate: "120.00" },
    { description: "Code review", quantity: "3.5", rate: "99.99" },
  ],
  client: {
    clientName: "Claire Martin",
    clientCompany: "Atelier Martin SARL",
    clientTaxId: "FR40303265045",
    clientPostalAddress: PARIS,
  },
});

export const EURC = caseOf("EURC, one line at 21 %", {
  number: "INV-0108",
  currency: "EURC",
  taxRate: "21",
  lines: [{ description: "Photography, one day", quantity: "1", rate: "1250.00" }],
  supplyDate: "2026-11-18",
  client: {
    clientName: "Pieter de Vries",
    clientCompany: "De Vries Media B.V.",
    clientTaxId: "NL004495445B01",
    clientTaxScheme: "eu_vat",
    clientPostalAddress: {
      line1: "Prinsengracht 263",
      line2: null,
      line3: null,
      city: "Amsterdam",
      postcode: "1016 GV",
      region: null,
      country: "NL",
    },
  },
});

export const XLM_TAX_CURRENCY = caseOf("XLM with tax currency EUR", {
  number: "INV-0109",
  currency: "XLM",
  taxRate: "19",
  taxCurrency: "EUR",
  taxExchangeRate: "0.254317000000",
  lines: [
    { description: "Smart contract audit", quantity: "1", rate: "8000.1234567" },
    { description: "Follow-up call", quantity: "1.5", rate: "393.2100000" },
  ],
  client: {
    clientName: "Max Weber",
    clientCompany: "Weber Logistik GmbH",
    clientTaxId: "DE811569869",
    clientPostalAddress: MUNICH,
  },
});

export const XRECHNUNG = caseOf(
  "German-language XRechnung, two rates",
  {
    number: "INV-0110",
    currency: "EURC",
    priceCurrency: "EUR",
    title: "Webentwicklung Oktober",
    notes: "Vielen Dank für Ihren Auftrag!",
    paymentTerms: "Zahlbar innerhalb von 14 Tagen ohne Abzug",
    lines: [
      { description: "Entwicklung Kundenportal", quantity: "24", rate: "92.50", taxRate: "19" },
      { description: "Fachbuch „Barrierefreiheit“", quantity: "2", rate: "39.90", taxRate: "7" },
    ],
    periodStart: "2026-10-01",
    periodEnd: "2026-10-31",
    client: {
      clientName: "Max Weber",
      clientCompany: "Weber Logistik GmbH",
      clientTaxId: "DE811569869",
      clientPostalAddress: MUNICH,
    },
  },
  { profile: "xrechnung", language: "de", buyerReference: "04011000-12345-67" },
);

/** A credit note built by hand: its own number, lines and amounts, referencing its invoice. */
function creditNote(
  name: string,
  of: EInvoiceCase,
  number: string,
  reason: string,
  lines: { index: number; quantity: string }[],
): EInvoiceCase {
  const invoice = of.invoice as EInvoiceSource;
  const source = invoice.lineItems;
  const specLines: Line[] = lines.map(({ index, quantity }) => ({
    description: source[index].description,
    quantity,
    rate: source[index].rate,
    ...(source[index].taxRate != null ? { taxRate: source[index].taxRate as string } : {}),
    ...(source[index].taxCategory ? { taxCategory: source[index].taxCategory as TaxCategory } : {}),
  }));
  const scale = invoice.priceCurrency ? 2 : 7;
  const perLine = hasLineTaxes(specLines);
  const totals = computeInvoiceTotals(
    { lineItems: specLines, taxRate: invoice.taxRate },
    { scale },
  );
  // Built by hand, as the credit notes' service will: its own lines and amounts.
  const input = creditNoteInputOf(of.input, {
    number,
    issueDate: "2026-11-25",
    reason,
    lines: specLines.map((l, i) => ({
      description: l.description,
      quantity: totals.lineItems[i].quantity,
      price: totals.lineItems[i].rate,
      amount: totals.lineItems[i].amount,
      category: of.input.lines[lines[i].index].category,
      rate: of.input.lines[lines[i].index].rate,
    })),
    subtotal: totals.subtotal,
    discount: totals.discount,
    taxAmount: totals.taxAmount,
    total: totals.total,
    breakdown: totals.taxBreakdown,
    taxPerLine: perLine,
  });
  return { name, input, profile: "en16931" };
}

export const PARTIAL_CREDIT = creditNote(
  "partial credit note (one line, part of it)",
  ONE_RATE,
  "CN-0001",
  "One workshop day was not delivered.",
  [{ index: 0, quantity: "1" }],
);

export const FULL_CREDIT = creditNote(
  "full credit note",
  THREE_RATES,
  "CN-0002",
  "The order was cancelled.",
  [
    { index: 0, quantity: "12.5" },
    { index: 1, quantity: "30" },
    { index: 2, quantity: "1" },
  ],
);

export const CASES: EInvoiceCase[] = [
  ONE_RATE,
  THREE_RATES,
  REVERSE,
  EXEMPT,
  DISCOUNT,
  FIAT_EUR_IN_XLM,
  USDC,
  EURC,
  XLM_TAX_CURRENCY,
  PARTIAL_CREDIT,
  FULL_CREDIT,
  XRECHNUNG,
];

/** Beyond the issue's set: the other exempt categories, and amounts finer than a cent. */
export const INTRA_COMMUNITY = caseOf("intra-community supply of goods (K)", {
  number: "INV-0111",
  currency: "EURC",
  supplyDate: "2026-11-12",
  lines: [
    {
      description: "Hand-bound portfolio books",
      quantity: "20",
      rate: "48.00",
      taxRate: "0",
      taxCategory: "K",
      exemptionReason: "Intra-community supply of goods",
      exemptionReasonCode: "VATEX-EU-IC",
    },
  ],
});

export const EXPORT = caseOf("export outside the EU (G)", {
  number: "INV-0112",
  currency: "USDC",
  lines: [
    {
      description: "Printed exhibition catalogues",
      quantity: "100",
      rate: "7.25",
      taxRate: "0",
      taxCategory: "G",
      exemptionReason: "Export outside the EU",
      exemptionReasonCode: "VATEX-EU-G",
    },
  ],
  client: {
    clientName: "Jordan Lee",
    clientCompany: "Lee Studio LLC",
    clientTaxId: null,
    clientTaxScheme: null,
    clientPostalAddress: {
      line1: "500 Market Street",
      line2: null,
      line3: null,
      city: "San Francisco",
      postcode: "94105",
      region: "CA",
      country: "US",
    },
  },
});

export const OUTSIDE_SCOPE = caseOf("outside the scope of VAT (O)", {
  number: "INV-0113",
  currency: "EURC",
  lines: [
    {
      description: "Speaker fee, conference in Singapore",
      quantity: "1",
      rate: "900.00",
      taxRate: "0",
      taxCategory: "O",
      exemptionReason: "Place of supply outside the EU",
      exemptionReasonCode: "VATEX-EU-O",
    },
  ],
});

export const SUB_CENT = caseOf("USDC amounts finer than a cent", {
  number: "INV-0114",
  currency: "USDC",
  lines: [
    { description: "Metered API calls, batch 1", quantity: "1", rate: "10.0049999", taxRate: "19" },
    { description: "Metered API calls, batch 2", quantity: "1", rate: "10.0049999", taxRate: "19" },
    { description: "Metered API calls, batch 3", quantity: "1", rate: "10.0049999", taxRate: "19" },
  ],
});

export const ZERO_RATE_DISCOUNT = caseOf("one rate of 0 % with a discount (the spec's formula)", {
  number: "INV-0115",
  currency: "EURC",
  taxRate: "0",
  discount: "25.00",
  lines: [{ description: "Workshop for a charity", quantity: "1", rate: "250.00" }],
});

/** The same documents in XRechnung (its deliver-to address, its rate on an O row). */
const asXRechnung = (c: EInvoiceCase, buyerReference: string): EInvoiceCase => ({
  ...c,
  name: `${c.name}, XRechnung`,
  profile: "xrechnung",
  input: { ...c.input, number: `${c.input.number}-XR`, buyerReference },
});

export const EXTRA_CASES: EInvoiceCase[] = [
  INTRA_COMMUNITY,
  EXPORT,
  OUTSIDE_SCOPE,
  SUB_CENT,
  ZERO_RATE_DISCOUNT,
  asXRechnung(INTRA_COMMUNITY, "PO-2026-118"),
  asXRechnung(OUTSIDE_SCOPE, "PO-2026-119"),
  asXRechnung(PARTIAL_CREDIT, "PO-2026-120"),
];
