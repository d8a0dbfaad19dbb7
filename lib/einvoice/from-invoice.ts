import type { invoiceLineItems, invoices, profiles } from "@/db/schema";
import type { PostalAddress, TaxScheme } from "@/lib/domain/address";
import { Decimal } from "@/lib/domain/money";
import { breakdownOf, hasLineTaxes } from "@/lib/domain/tax";
import type { Language } from "@/lib/i18n";
import { NETWORK_PASSPHRASES } from "@/lib/stellar/networks";
import type { EInvoiceInput, EInvoiceLine } from "./types";

// An invoice as the owner sees it (its row and lines, as OwnerInvoice has them) and the
// seller's profile, as an e-invoice input; a credit note is its invoice's input with its own
// number, date, lines and amounts, kind "creditNote" and the invoice as `precedingInvoice`.

type InvoiceRow = typeof invoices.$inferSelect;
type LineItemRow = typeof invoiceLineItems.$inferSelect;

/** The invoice fields an e-invoice is made from (a subset of the owner view's row). */
export type EInvoiceSource = Pick<
  InvoiceRow,
  | "id"
  | "invoiceNumber"
  | "freelancerWallet"
  | "freelancerName"
  | "freelancerCompany"
  | "freelancerEmail"
  | "clientName"
  | "clientEmail"
  | "clientCompany"
  | "clientTaxId"
  | "clientTaxScheme"
  | "clientPostalAddress"
  | "title"
  | "notes"
  | "paymentTerms"
  | "supplyDate"
  | "periodStart"
  | "periodEnd"
  | "taxCurrency"
  | "taxExchangeRate"
  | "taxRateSource"
  | "taxRateAt"
  | "subtotal"
  | "taxRate"
  | "taxAmount"
  | "discount"
  | "total"
  | "taxBreakdown"
  | "currency"
  | "priceCurrency"
  | "networkPassphrase"
  | "dueDate"
  | "sentAt"
> & {
  lineItems: Pick<
    LineItemRow,
    "description" | "quantity" | "rate" | "amount" | "taxRate" | "taxCategory"
  >[];
};

/**
 * A stored line (an invoice's, or a credit note's) as an e-invoice line: its own rate and
 * category, else the invoice's rate, `S` above 0 % and `Z` at 0 % (docs/decisions.md, Tax per line).
 */
export function eInvoiceLineOf(
  l: Pick<LineItemRow, "description" | "quantity" | "rate" | "amount" | "taxRate" | "taxCategory">,
  invoiceTaxRate: string,
): EInvoiceLine {
  const rate = l.taxRate ?? invoiceTaxRate;
  return {
    description: l.description,
    quantity: l.quantity,
    price: l.rate,
    amount: l.amount,
    rate,
    category: l.taxCategory ?? (new Decimal(rate).gt("0") ? "S" : "Z"),
  };
}

/** The seller's part of the profile (db/schema/billing.ts), plus a phone once it has one. */
export type EInvoiceSeller = Pick<
  typeof profiles.$inferSelect,
  "displayName" | "company" | "email" | "taxId" | "taxScheme" | "postalAddress"
> & { phone?: string | null };

const utcDay = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

export function eInvoiceInputOf(
  invoice: EInvoiceSource,
  seller: EInvoiceSeller | null,
  opts: {
    /** `{APP_URL}/pay/<id>`. */
    payLink: string | null;
    /** The asset's issuer on the invoice's network (lib/stellar/assets.ts), null for XLM. */
    issuer: string | null;
    language?: Language;
    buyerReference?: string | null;
  },
): EInvoiceInput {
  const lines = invoice.lineItems.map((l) => eInvoiceLineOf(l, invoice.taxRate));
  const personName = invoice.freelancerName ?? seller?.displayName ?? null;
  const company = invoice.freelancerCompany ?? seller?.company ?? null;
  return {
    kind: "invoice",
    number: invoice.invoiceNumber,
    issueDate: utcDay(invoice.sentAt),
    language: opts.language,
    title: invoice.title,
    notes: invoice.notes,
    seller: {
      name: company ?? personName,
      tradingName: company && personName ? personName : null,
      address: (seller?.postalAddress as PostalAddress | null) ?? null,
      taxId: seller?.taxId ?? null,
      taxScheme: (seller?.taxScheme as TaxScheme | null) ?? null,
      email: invoice.freelancerEmail ?? seller?.email ?? null,
      contactName: personName,
      phone: seller?.phone ?? null,
      identifier: invoice.freelancerWallet,
    },
    buyer: {
      name: invoice.clientCompany ?? invoice.clientName,
      tradingName: null,
      address: invoice.clientPostalAddress,
      taxId: invoice.clientTaxId,
      taxScheme: invoice.clientTaxScheme,
      email: invoice.clientEmail,
    },
    buyerReference: opts.buyerReference ?? null,
    lines,
    subtotal: invoice.subtotal,
    discount: invoice.discount,
    taxAmount: invoice.taxAmount,
    total: invoice.total,
    breakdown: breakdownOf(invoice),
    taxPerLine: hasLineTaxes(invoice.lineItems),
    priceCurrency: invoice.priceCurrency,
    currency: invoice.currency,
    taxCurrency: invoice.taxCurrency,
    taxExchange: invoice.taxExchangeRate
      ? {
          rate: invoice.taxExchangeRate,
          source: invoice.taxRateSource,
          at: invoice.taxRateAt?.toISOString() ?? null,
        }
      : null,
    dueDate: utcDay(invoice.dueDate),
    paymentTerms: invoice.paymentTerms,
    supplyDate: invoice.supplyDate,
    periodStart: invoice.periodStart,
    periodEnd: invoice.periodEnd,
    payment: {
      network: invoice.networkPassphrase === NETWORK_PASSPHRASES.mainnet ? "mainnet" : "testnet",
      asset: invoice.currency,
      issuer: opts.issuer,
      recipient: invoice.freelancerWallet,
      memo: invoice.invoiceNumber,
      payLink: opts.payLink,
    },
    precedingInvoice: null,
  };
}

/** A credit note's own figures: computed like an invoice's (lib/domain/tax.ts), positive. */
export type CreditNoteFigures = Pick<
  EInvoiceInput,
  | "number"
  | "issueDate"
  | "lines"
  | "subtotal"
  | "discount"
  | "taxAmount"
  | "total"
  | "breakdown"
  | "taxPerLine"
> & { reason: string | null };

/**
 * The e-invoice input of a credit note (type 381) for the invoice whose input is `invoice`: the
 * same parties, currency, tax currency and rate (fixed when the invoice was sent), its own
 * number, date, lines and amounts, and the invoice as its preceding invoice (BT-25, BT-26).
 */
export function creditNoteInputOf(invoice: EInvoiceInput, note: CreditNoteFigures): EInvoiceInput {
  return {
    ...invoice,
    kind: "creditNote",
    number: note.number,
    issueDate: note.issueDate,
    title: null,
    notes: note.reason,
    lines: note.lines,
    subtotal: note.subtotal,
    discount: note.discount,
    taxAmount: note.taxAmount,
    total: note.total,
    breakdown: note.breakdown,
    taxPerLine: note.taxPerLine,
    dueDate: null,
    paymentTerms: null,
    precedingInvoice: invoice.issueDate
      ? { number: invoice.number, issueDate: invoice.issueDate }
      : null,
  };
}
