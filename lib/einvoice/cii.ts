import { create } from "xmlbuilder2";
import type { XMLBuilder } from "xmlbuilder2/lib/interfaces";
import type { PostalAddress } from "@/lib/domain/address";
import { Decimal } from "@/lib/domain/money";
import { type Language, t } from "@/lib/i18n";
import { type DocumentAmounts, documentAmounts } from "./amounts";
import { eInvoiceProblems, taxSchemeId } from "./problems";
import {
  DEFAULT_UNIT,
  type EInvoiceInput,
  type EInvoiceParty,
  type EInvoiceProblem,
  type EInvoiceProfile,
} from "./types";

// The Cross Industry Invoice (UN/CEFACT CII D16B) of an invoice or a credit note, EN 16931
// profile, or XRechnung's CIUS of it (docs/decisions.md, E-invoices). Pure: one input, one XML
// string, built with xmlbuilder2 (escaping is the library's). The element order is the D16B
// schema's; the rules it must pass are EN 16931's (BR-*) and, for XRechnung, BR-DE-*.

const NS = {
  rsm: "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
  ram: "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
  qdt: "urn:un:unece:uncefact:data:standard:QualifiedDataType:100",
  udt: "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
} as const;

/** BT-24: the specification identifier of each profile. */
export const GUIDELINE_IDS: Record<EInvoiceProfile, string> = {
  en16931: "urn:cen.eu:en16931:2017",
  xrechnung: "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0",
};

/** BT-3: commercial invoice, credit note (UNTDID 1001). */
const TYPE_CODES = { invoice: "380", creditNote: "381" } as const;

/** BT-81: mutually defined (UNTDID 4461): a payment on the Stellar network. */
export const STELLAR_PAYMENT_MEANS = "ZZZ";

export class EInvoiceError extends Error {
  constructor(readonly problems: EInvoiceProblem[]) {
    super(`The document cannot become an e-invoice: ${problems.map((p) => p.field).join(", ")}`);
  }
}

/**
 * Text as XML 1.0 allows it: the builder escapes markup but writes control characters and lone
 * surrogates as they are, which no parser reads; they are dropped (a typed text never needs one).
 */
export const xmlText = (v: string) =>
  v.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "");

/** A rate without its trailing zeros: "0.925400000000" -> "0.9254". */
const trimRate = (rate: string) =>
  rate.includes(".") ? rate.replace(/0+$/, "").replace(/\.$/, "") : rate;

/** YYYY-MM-DD as format 102 (YYYYMMDD). */
const day102 = (day: string) => day.replaceAll("-", "");

/** The stablecoins' currencies, exactly 1 to 1 (docs/decisions.md, Fiat pricing). */
const PEGGED: Partial<Record<string, string>> = { USDC: "USD", EURC: "EUR" };

const NETWORK_NAMES = { mainnet: "Stellar Mainnet", testnet: "Stellar Testnet" } as const;

/**
 * The CII XML of `input`. Throws EInvoiceError listing what is missing (eInvoiceProblems) when
 * the document cannot become a valid e-invoice of `profile`.
 */
export function buildCii(input: EInvoiceInput, profile: EInvoiceProfile = "en16931"): string {
  const problems = eInvoiceProblems(input, profile);
  const amounts = problems.length === 0 ? documentAmounts(input) : null;
  if (!amounts || !input.issueDate) throw new EInvoiceError(problems);
  const lang = input.language ?? "en";
  const xr = profile === "xrechnung";

  const root = create({ version: "1.0", encoding: "UTF-8" }).ele(
    NS.rsm,
    "rsm:CrossIndustryInvoice",
    {
      "xmlns:qdt": NS.qdt,
      "xmlns:ram": NS.ram,
      "xmlns:udt": NS.udt,
    },
  );
  const ram = (parent: XMLBuilder, name: string, text?: string, attrs?: Record<string, string>) => {
    const el = parent.ele(NS.ram, `ram:${name}`, attrs);
    if (text !== undefined) el.txt(xmlText(text));
    return el;
  };
  const date102 = (parent: XMLBuilder, name: string, day: string, ns: "udt" | "qdt" = "udt") =>
    ram(parent, name).ele(NS[ns], `${ns}:DateTimeString`, { format: "102" }).txt(day102(day));

  // Context: BT-23 (the Peppol billing process, which XRechnung's receivers expect) and BT-24.
  const context = root.ele(NS.rsm, "rsm:ExchangedDocumentContext");
  if (xr) {
    ram(
      ram(context, "BusinessProcessSpecifiedDocumentContextParameter"),
      "ID",
      "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0",
    );
  }
  ram(ram(context, "GuidelineSpecifiedDocumentContextParameter"), "ID", GUIDELINE_IDS[profile]);

  // The document: BT-1, BT-3, BT-2, notes (BT-22).
  const doc = root.ele(NS.rsm, "rsm:ExchangedDocument");
  ram(doc, "ID", input.number);
  ram(doc, "TypeCode", TYPE_CODES[input.kind]);
  date102(doc, "IssueDateTime", input.issueDate);
  for (const note of documentNotes(input, amounts, lang)) {
    ram(ram(doc, "IncludedNote"), "Content", note);
  }

  const transaction = root.ele(NS.rsm, "rsm:SupplyChainTradeTransaction");

  // Lines (BG-25).
  input.lines.forEach((line, i) => {
    const item = ram(transaction, "IncludedSupplyChainTradeLineItem");
    ram(ram(item, "AssociatedDocumentLineDocument"), "LineID", String(i + 1));
    ram(ram(item, "SpecifiedTradeProduct"), "Name", line.description);
    const agreement = ram(item, "SpecifiedLineTradeAgreement");
    ram(ram(agreement, "NetPriceProductTradePrice"), "ChargeAmount", amounts.lines[i].price);
    const delivery = ram(item, "SpecifiedLineTradeDelivery");
    ram(delivery, "BilledQuantity", new Decimal(line.quantity).toFixed(2), {
      unitCode: line.unit ?? DEFAULT_UNIT,
    });
    const settlement = ram(item, "SpecifiedLineTradeSettlement");
    const tax = ram(settlement, "ApplicableTradeTax");
    ram(tax, "TypeCode", "VAT");
    ram(tax, "CategoryCode", line.category);
    if (line.category !== "O") ram(tax, "RateApplicablePercent", new Decimal(line.rate).toFixed(2));
    ram(
      ram(settlement, "SpecifiedTradeSettlementLineMonetarySummation"),
      "LineTotalAmount",
      amounts.lines[i].amount,
    );
  });

  // Agreement: BT-10, seller (BG-4), buyer (BG-7).
  const agreement = ram(transaction, "ApplicableHeaderTradeAgreement");
  if (input.buyerReference?.trim()) ram(agreement, "BuyerReference", input.buyerReference.trim());
  const outsideScope = amounts.rows.every((r) => r.category === "O");
  party(ram(agreement, "SellerTradeParty"), input.seller, {
    contact: true,
    withVat: !outsideScope,
    ram,
  });
  party(ram(agreement, "BuyerTradeParty"), input.buyer, {
    contact: false,
    withVat: !outsideScope,
    ram,
  });

  // Delivery: the date of supply (BT-72); the deliver-to address an intra-community supply
  // needs (BR-IC-12: its country; XRechnung's BR-DE-10, 11: its city and postcode), the buyer's.
  const delivery = ram(transaction, "ApplicableHeaderTradeDelivery");
  if (amounts.rows.some((r) => r.category === "K") && input.buyer.address) {
    postalAddress(
      ram(ram(delivery, "ShipToTradeParty"), "PostalTradeAddress"),
      input.buyer.address,
      ram,
    );
  }
  if (input.supplyDate) {
    date102(
      ram(delivery, "ActualDeliverySupplyChainEvent"),
      "OccurrenceDateTime",
      input.supplyDate,
    );
  }

  // Settlement.
  const settlement = ram(transaction, "ApplicableHeaderTradeSettlement");
  if (input.payment && input.kind === "invoice")
    ram(settlement, "PaymentReference", input.payment.memo);
  if (amounts.taxCurrency) ram(settlement, "TaxCurrencyCode", amounts.taxCurrency.currency);
  ram(settlement, "InvoiceCurrencyCode", amounts.currency);
  const means = paymentMeansText(input, lang);
  if (means) {
    const pm = ram(settlement, "SpecifiedTradeSettlementPaymentMeans");
    ram(pm, "TypeCode", STELLAR_PAYMENT_MEANS);
    ram(pm, "Information", means);
  }
  for (const row of amounts.rows) {
    const tax = ram(settlement, "ApplicableTradeTax");
    ram(tax, "CalculatedAmount", row.tax);
    ram(tax, "TypeCode", "VAT");
    if (row.exemptionReason) ram(tax, "ExemptionReason", row.exemptionReason);
    ram(tax, "BasisAmount", row.basis);
    ram(tax, "CategoryCode", row.category);
    if (row.exemptionReasonCode) ram(tax, "ExemptionReasonCode", row.exemptionReasonCode);
    // EN 16931 leaves an O row without a rate (BR-48); XRechnung wants one on every row (BR-DE-14).
    if (row.category !== "O" || xr) ram(tax, "RateApplicablePercent", row.rate);
  }
  if (input.periodStart || input.periodEnd) {
    const period = ram(settlement, "BillingSpecifiedPeriod");
    if (input.periodStart) date102(period, "StartDateTime", input.periodStart);
    if (input.periodEnd) date102(period, "EndDateTime", input.periodEnd);
  }
  // The discount: one allowance per tax row (BG-20), so each row's base is its lines less it.
  for (const row of amounts.rows) {
    if (new Decimal(row.allowance).eq("0")) continue;
    const allowance = ram(settlement, "SpecifiedTradeAllowanceCharge");
    ram(allowance, "ChargeIndicator").ele(NS.udt, "udt:Indicator").txt("false");
    ram(allowance, "ActualAmount", row.allowance);
    ram(allowance, "ReasonCode", "95");
    ram(allowance, "Reason", t(lang, "einvoice.discount"));
    const tax = ram(allowance, "CategoryTradeTax");
    ram(tax, "TypeCode", "VAT");
    ram(tax, "CategoryCode", row.category);
    if (row.category !== "O") ram(tax, "RateApplicablePercent", row.rate);
  }
  const terms = paymentTermsText(input, amounts, lang);
  if (terms || input.dueDate) {
    const pt = ram(settlement, "SpecifiedTradePaymentTerms");
    if (terms) ram(pt, "Description", terms);
    if (input.dueDate) date102(pt, "DueDateDateTime", input.dueDate);
  }
  const sums = ram(settlement, "SpecifiedTradeSettlementHeaderMonetarySummation");
  ram(sums, "LineTotalAmount", amounts.lineTotal);
  if (!new Decimal(amounts.allowanceTotal).eq("0"))
    ram(sums, "AllowanceTotalAmount", amounts.allowanceTotal);
  ram(sums, "TaxBasisTotalAmount", amounts.taxBasisTotal);
  ram(sums, "TaxTotalAmount", amounts.taxTotal, { currencyID: amounts.currency });
  if (amounts.taxCurrency) {
    ram(sums, "TaxTotalAmount", amounts.taxCurrency.taxTotal, {
      currencyID: amounts.taxCurrency.currency,
    });
  }
  if (!new Decimal(amounts.rounding).eq("0")) ram(sums, "RoundingAmount", amounts.rounding);
  ram(sums, "GrandTotalAmount", amounts.grandTotal);
  ram(sums, "DuePayableAmount", amounts.duePayable);
  if (input.precedingInvoice) {
    const ref = ram(settlement, "InvoiceReferencedDocument");
    ram(ref, "IssuerAssignedID", input.precedingInvoice.number);
    date102(ref, "FormattedIssueDateTime", input.precedingInvoice.issueDate, "qdt");
  }

  return root.end({ prettyPrint: true });
}

type Ram = (
  parent: XMLBuilder,
  name: string,
  text?: string,
  attrs?: Record<string, string>,
) => XMLBuilder;

/** A trade party in the D16B order: ID, Name, Description, contact, address, URI, tax ids. */
function party(
  el: XMLBuilder,
  p: EInvoiceParty,
  opts: { contact: boolean; withVat: boolean; ram: Ram },
): void {
  const { ram } = opts;
  if (p.identifier) ram(el, "ID", p.identifier);
  ram(el, "Name", p.name ?? "");
  if (p.tradingName && p.tradingName !== p.name) {
    ram(ram(el, "SpecifiedLegalOrganization"), "TradingBusinessName", p.tradingName);
  }
  if (opts.contact && (p.contactName || p.phone || p.email)) {
    const contact = ram(el, "DefinedTradeContact");
    if (p.contactName) ram(contact, "PersonName", p.contactName);
    if (p.phone) ram(ram(contact, "TelephoneUniversalCommunication"), "CompleteNumber", p.phone);
    if (p.email) ram(ram(contact, "EmailURIUniversalCommunication"), "URIID", p.email);
  }
  if (p.address) postalAddress(ram(el, "PostalTradeAddress"), p.address, ram);
  if (p.email) ram(ram(el, "URIUniversalCommunication"), "URIID", p.email, { schemeID: "EM" });
  const scheme = taxSchemeId(p);
  // An invoice outside the scope of VAT carries no VAT number (BR-O-02); a tax number stays.
  if (p.taxId && scheme && (scheme === "FC" || opts.withVat)) {
    ram(ram(el, "SpecifiedTaxRegistration"), "ID", p.taxId, { schemeID: scheme });
  }
}

/** BG-5 / BG-8 / BG-15 in the D16B order. */
function postalAddress(a: XMLBuilder, address: PostalAddress, ram: Ram): void {
  if (address.postcode) ram(a, "PostcodeCode", address.postcode);
  if (address.line1) ram(a, "LineOne", address.line1);
  if (address.line2) ram(a, "LineTwo", address.line2);
  if (address.line3) ram(a, "LineThree", address.line3);
  if (address.city) ram(a, "CityName", address.city);
  ram(a, "CountryID", address.country);
  if (address.region) ram(a, "CountrySubDivisionName", address.region);
}

/** BT-82: the Stellar payment in words: network, asset (and issuer), account, memo, pay link. */
export function paymentMeansText(input: EInvoiceInput, lang: Language): string | null {
  const pay = input.payment;
  if (!pay) return null;
  if (input.kind === "creditNote") {
    return input.precedingInvoice
      ? t(lang, "einvoice.creditSettlement", { number: input.precedingInvoice.number })
      : null;
  }
  const asset = pay.issuer
    ? t(lang, "einvoice.assetIssuer", { asset: pay.asset, issuer: pay.issuer })
    : pay.asset;
  const parts = [
    t(lang, "einvoice.stellarPayment", {
      network: NETWORK_NAMES[pay.network],
      asset,
      recipient: pay.recipient,
      memo: pay.memo,
    }),
  ];
  if (pay.payLink) parts.push(t(lang, "einvoice.payLink", { url: pay.payLink }));
  return parts.join(". ");
}

/**
 * BT-20: the invoice's own payment terms, then how much of the asset pays it: an XLM invoice's
 * exact XLM total (its invoice currency is only its tax currency at the fixed rate), or for a
 * fiat-priced one the quote at payment.
 */
function paymentTermsText(
  input: EInvoiceInput,
  amounts: DocumentAmounts,
  lang: Language,
): string | null {
  const parts: string[] = [];
  if (input.paymentTerms?.trim()) parts.push(input.paymentTerms.trim());
  if (input.kind === "invoice" && input.payment) {
    if (!input.priceCurrency && input.currency === "XLM" && input.taxExchange) {
      parts.push(
        t(lang, "einvoice.xlmAmount", {
          amount: input.total,
          rate: trimRate(input.taxExchange.rate),
          currency: amounts.currency,
          date: input.taxExchange.at?.slice(0, 10) ?? input.issueDate ?? "",
        }),
      );
    } else if (input.priceCurrency && PEGGED[input.currency] !== input.priceCurrency) {
      // Paid in XLM, or in the other currency's stablecoin; EURC for EUR (USDC for USD) is 1.00.
      parts.push(t(lang, "einvoice.quotedAmount", { asset: input.currency }));
    }
  }
  if (input.kind === "creditNote" && input.precedingInvoice) {
    parts.push(
      t(lang, "einvoice.creditNoteFor", {
        number: input.precedingInvoice.number,
        date: input.precedingInvoice.issueDate,
      }),
    );
  }
  // A sum due needs a due date or terms (BR-CO-25).
  if (parts.length === 0 && !input.dueDate) parts.push(t(lang, "einvoice.dueOnReceipt"));
  return parts.join(". ");
}

/** BT-22: the title, the notes, and the rate of the tax currency. */
function documentNotes(input: EInvoiceInput, amounts: DocumentAmounts, lang: Language): string[] {
  const notes: string[] = [];
  if (input.title?.trim()) notes.push(input.title.trim());
  if (input.notes?.trim()) notes.push(input.notes.trim());
  if (amounts.taxCurrency && input.taxExchange) {
    notes.push(
      t(lang, "einvoice.taxExchange", {
        currency: amounts.taxCurrency.currency,
        unit: amounts.currency,
        rate: trimRate(input.taxExchange.rate),
        source: input.taxExchange.source ?? "",
        date: input.taxExchange.at?.slice(0, 10) ?? "",
      }),
    );
  }
  return notes;
}
