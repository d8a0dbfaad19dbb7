import type { profiles } from "@/db/schema";
import type { PostalAddress, TaxScheme } from "@/lib/domain/address";
import { Decimal } from "@/lib/domain/money";
import { breakdownOf, hasLineTaxes } from "@/lib/domain/tax";
import type { Language } from "@/lib/i18n";
import type { LineItemRow, OwnerInvoice } from "@/lib/services/invoices/store";
import { NETWORK_PASSPHRASES } from "@/lib/stellar/networks";
import type { EInvoiceInput, EInvoiceLine } from "./types";

// An invoice as the owner sees it (lib/services/invoices/store.ts, OwnerInvoice) and the
// seller's profile, as an e-invoice input. A credit note makes its own input the same way,
// with kind "creditNote" and its invoice as `precedingInvoice`.

/** The invoice fields an e-invoice is made from. */
export type EInvoiceSource = Pick<
  OwnerInvoice,
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
  const lines: EInvoiceLine[] = invoice.lineItems.map((l) => {
    const rate = l.taxRate ?? invoice.taxRate;
    return {
      description: l.description,
      quantity: l.quantity,
      price: l.rate,
      amount: l.amount,
      rate,
      category: l.taxCategory ?? (new Decimal(rate).gt("0") ? "S" : "Z"),
    };
  });
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
