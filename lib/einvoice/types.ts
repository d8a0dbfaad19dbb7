import type { PostalAddress, TaxScheme } from "@/lib/domain/address";
import type { Currency, PriceCurrency } from "@/lib/domain/money";
import type { TaxBreakdownRow, TaxCategory } from "@/lib/domain/tax-categories";
import type { Language } from "@/lib/i18n";

// What an e-invoice is made from (docs/decisions.md, E-invoices): a document in its own
// terms, so an invoice and a credit note (type 381, referencing its invoice) are both just an
// input. Amounts are in the document's unit (its price currency, else its asset), as the API
// answers them; lib/einvoice/amounts.ts turns them into the e-invoice's cents.

/**
 * UN/ECE recommendation 20 unit codes a line may carry (BT-130): pieces (C62, the default),
 * hours, days, weeks, months, minutes, a lump sum.
 */
export const UNIT_CODES = ["C62", "HUR", "DAY", "WEE", "MON", "MIN", "LS"] as const;
export type UnitCode = (typeof UNIT_CODES)[number];
export const DEFAULT_UNIT: UnitCode = "C62";

export type EInvoiceParty = {
  /** BT-27 / BT-44: the company, else the person. */
  name: string | null;
  /** BT-28 / BT-45: a trading name (the person's name beside a company). */
  tradingName?: string | null;
  /** BG-5 / BG-8. */
  address: PostalAddress | null;
  /** Stored compact with its prefix (lib/domain/tax-id.ts). */
  taxId: string | null;
  taxScheme: TaxScheme | null;
  /** The electronic address (BT-34 / BT-49, scheme EM) and the contact's email. */
  email: string | null;
  /** BG-6 / BG-9 contact: XRechnung wants the seller's name, phone and email. */
  contactName?: string | null;
  phone?: string | null;
  /** BT-29: the seller's identifier (its Stellar account). */
  identifier?: string | null;
};

export type EInvoiceLine = {
  description: string;
  /** Up to 2 decimals. */
  quantity: string;
  /** BT-130, default C62. */
  unit?: UnitCode;
  /** The net price per unit, in the document's unit. */
  price: string;
  /** The line's net amount (quantity x price, as stored), in the document's unit. */
  amount: string;
  /** The line's effective category and rate: its own, else the invoice's. */
  category: TaxCategory;
  /** 2 decimals. */
  rate: string;
};

export type EInvoicePayment = {
  network: "mainnet" | "testnet";
  /** The asset the payer sends, with its issuer (null for XLM). */
  asset: Currency;
  issuer: string | null;
  /** The freelancer's Stellar account. */
  recipient: string;
  /** The text memo tying the payment to the document (the invoice number). */
  memo: string;
  /** `{APP_URL}/pay/<id>`. */
  payLink: string | null;
};

export type EInvoiceInput = {
  /** 380 commercial invoice, 381 credit note. */
  kind: "invoice" | "creditNote";
  /** BT-1. */
  number: string;
  /** BT-2, YYYY-MM-DD; null while a draft. */
  issueDate: string | null;
  /** The language of the texts the e-invoice adds (payment means, terms). */
  language?: Language;
  title?: string | null;
  notes?: string | null;
  seller: EInvoiceParty;
  buyer: EInvoiceParty;
  /** BT-10, required by XRechnung. */
  buyerReference?: string | null;
  lines: EInvoiceLine[];
  /**
   * The document's amounts as the API answers them (lib/domain/tax.ts): its breakdown, the
   * discount, tax and total.
   */
  subtotal: string;
  discount: string;
  taxAmount: string;
  total: string;
  breakdown: TaxBreakdownRow[];
  /**
   * True when the lines carry their own tax: the discount lowers the taxable base. False: the
   * spec's formula, the discount taken off after tax (docs/decisions.md, Tax per line).
   */
  taxPerLine: boolean;
  /** The amounts' unit: the price currency when priced in fiat, else the asset. */
  priceCurrency: PriceCurrency | null;
  currency: Currency;
  /** VAT in the national currency (docs/decisions.md, Tax currency), fixed at send. */
  taxCurrency: PriceCurrency | null;
  taxExchange: { rate: string; source: string | null; at: string | null } | null;
  /** YYYY-MM-DD. */
  dueDate: string | null;
  paymentTerms: string | null;
  supplyDate?: string | null;
  periodStart?: string | null;
  periodEnd?: string | null;
  payment: EInvoicePayment | null;
  /** A credit note's invoice (BT-25, BT-26). */
  precedingInvoice?: { number: string; issueDate: string } | null;
};

/** The two syntaxes' profiles: EN 16931 itself, and XRechnung's CIUS of it. */
export const EINVOICE_PROFILES = ["en16931", "xrechnung"] as const;
export type EInvoiceProfile = (typeof EINVOICE_PROFILES)[number];

/** What an invoice lacks to become a valid e-invoice: the field to fill, and why. */
export type EInvoiceProblem = { field: string; message: string };
