import { Decimal } from "@/lib/domain/money";
import type { TaxCategory } from "@/lib/domain/tax-categories";
import { inferTaxScheme } from "@/lib/domain/tax-id";
import { invoiceCurrencyOf } from "./amounts";
import { VATEX_CODES } from "./codes";
import type { EInvoiceInput, EInvoiceParty, EInvoiceProblem, EInvoiceProfile } from "./types";

// What a document lacks to become a valid e-invoice (docs/decisions.md, E-invoices): each
// problem names the field to fill (the profile's as `profile.<field>`, the invoice's by its own
// name) and the rule behind it, so the e-invoice endpoint can answer 400 with them and the
// forms can mark them before the invoice is sent.

/** The tax registration's EN 16931 scheme: VA (a VAT number, BT-31/BT-48) or FC (BT-32). */
export function taxSchemeId(party: Pick<EInvoiceParty, "taxId" | "taxScheme">): "VA" | "FC" | null {
  if (!party.taxId) return null;
  const scheme = party.taxScheme ?? inferTaxScheme(party.taxId);
  return scheme === "eu_vat" || scheme === "gb_vat" ? "VA" : "FC";
}

/** The categories a seller must be registered for (BR-S-02, BR-Z-02, BR-E-02, BR-AE-02...). */
const NEEDS_SELLER_TAX_ID: readonly TaxCategory[] = ["S", "Z", "E", "AE", "K", "G"];
/** ...with a VAT number, not another tax number (BR-IC-02, BR-G-02). */
const NEEDS_SELLER_VAT: readonly TaxCategory[] = ["K", "G"];

export function eInvoiceProblems(
  input: EInvoiceInput,
  profile: EInvoiceProfile = "en16931",
): EInvoiceProblem[] {
  const problems: EInvoiceProblem[] = [];
  const add = (field: string, message: string) => {
    if (!problems.some((p) => p.field === field)) problems.push({ field, message });
  };
  const creditNote = input.kind === "creditNote";

  if (!input.issueDate) {
    add(
      "issueDate",
      creditNote
        ? "the credit note has no issue date yet"
        : "the invoice is a draft: an e-invoice is issued when the invoice is sent",
    );
  }
  if (creditNote && !input.precedingInvoice) {
    add("invoiceId", "a credit note must name the invoice it corrects (BT-25)");
  }
  if (!invoiceCurrencyOf(input)) {
    if (!input.taxCurrency) {
      add(
        "taxCurrency",
        "an invoice in XLM needs a tax currency (USD or EUR): EN 16931 states amounts in an ISO 4217 currency",
      );
    } else {
      add("taxExchangeRate", "the tax currency's rate is fixed when the invoice is sent");
    }
  }

  // Seller (BG-4) and buyer (BG-7): names, postal addresses with a country (BR-06..BR-11).
  if (!input.seller.name?.trim()) {
    add("profile.company", "the seller's name (your company or display name) is required (BR-06)");
  }
  if (!input.seller.address?.country) {
    add(
      "profile.postalAddress",
      "the seller's postal address with its country is required (BR-08)",
    );
  }
  if (!input.buyer.name?.trim()) add("clientName", "the buyer's name is required (BR-07)");
  if (!input.buyer.address?.country) {
    add("clientPostalAddress", "the buyer's postal address with its country is required (BR-10)");
  }

  // Tax registrations the categories need.
  const categories = new Set(input.breakdown.map((r) => r.category));
  const sellerScheme = taxSchemeId(input.seller);
  const buyerScheme = taxSchemeId(input.buyer);
  if ([...categories].some((c) => NEEDS_SELLER_TAX_ID.includes(c)) && !sellerScheme) {
    add(
      "profile.taxId",
      "the seller's VAT number or tax number is required (BR-S-02, BR-AE-02...)",
    );
  }
  if ([...categories].some((c) => NEEDS_SELLER_VAT.includes(c)) && sellerScheme !== "VA") {
    add(
      "profile.taxId",
      "an intra-community supply or export needs the seller's VAT number (BR-IC-02, BR-G-02)",
    );
  }
  if ((categories.has("AE") || categories.has("K")) && buyerScheme !== "VA") {
    add(
      "clientTaxId",
      "reverse charge and intra-community supply need the buyer's VAT number (BR-AE-02, BR-IC-02)",
    );
  }
  if (categories.has("K") && !input.supplyDate && !input.periodStart && !input.periodEnd) {
    add("supplyDate", "an intra-community supply needs its date of supply or a period (BR-IC-11)");
  }
  // One exemption reason code per row, from the VATEX list (BR-CL-22); a row's lines joined
  // different ones ("; ", lib/domain/tax.ts), which a breakdown row cannot carry.
  for (const row of input.breakdown) {
    const codes = row.exemptionReasonCode?.split("; ") ?? [];
    if (codes.length > 1) {
      add(
        "lineItems.exemptionReasonCode",
        `the lines of category ${row.category} carry different exemption reason codes (${codes.join(", ")}): an e-invoice states one per category`,
      );
    } else if (codes.length === 1 && !VATEX_CODES.has(codes[0])) {
      add(
        "lineItems.exemptionReasonCode",
        `${codes[0]} is not in the VATEX code list an e-invoice is checked against (BR-CL-22), e.g. VATEX-EU-AE`,
      );
    }
  }
  if (categories.has("O") && categories.size > 1) {
    add(
      "lineItems",
      "lines outside the scope of VAT (O) cannot share an invoice with other categories (BR-O-11)",
    );
  }

  // The spec's formula takes the discount off after tax: EN 16931 has no such thing (a
  // document-level allowance lowers the taxable base, BR-S-08), so the document would say a
  // different tax than the invoice. At a rate of 0 the two agree.
  if (
    !input.taxPerLine &&
    new Decimal(input.discount).gt("0") &&
    input.breakdown.some((r) => new Decimal(r.rate).gt("0"))
  ) {
    add(
      "discount",
      "a discount taken off after tax cannot be stated in an e-invoice: give the lines their tax rate (lineItems.taxRate) so the discount lowers the taxable base",
    );
  }

  if (profile === "xrechnung") {
    if (!input.buyerReference?.trim()) {
      add(
        "buyerReference",
        "XRechnung needs the buyer reference, e.g. the Leitweg-ID (BT-10, BR-DE-15)",
      );
    }
    if (!input.seller.contactName?.trim()) {
      add("profile.displayName", "XRechnung needs the seller's contact name (BT-41, BR-DE-5)");
    }
    if (!input.seller.phone?.trim()) {
      add("profile.phone", "XRechnung needs the seller's contact phone (BT-42, BR-DE-6)");
    }
    if (!input.seller.email?.trim()) {
      add(
        "profile.email",
        "XRechnung needs the seller's contact email and electronic address (BT-43, BT-34, BR-DE-7)",
      );
    }
    if (input.seller.address && !input.seller.address.city) {
      add("profile.postalAddress.city", "XRechnung needs the seller's city (BR-DE-3)");
    }
    if (input.seller.address && !input.seller.address.postcode) {
      add("profile.postalAddress.postcode", "XRechnung needs the seller's postcode (BR-DE-4)");
    }
    if (input.buyer.address && !input.buyer.address.city) {
      add("clientPostalAddress.city", "XRechnung needs the buyer's city (BR-DE-8)");
    }
    if (input.buyer.address && !input.buyer.address.postcode) {
      add("clientPostalAddress.postcode", "XRechnung needs the buyer's postcode (BR-DE-9)");
    }
    if (!input.buyer.email?.trim()) {
      add("clientEmail", "XRechnung needs the buyer's electronic address (BT-49)");
    }
  }
  return problems;
}
