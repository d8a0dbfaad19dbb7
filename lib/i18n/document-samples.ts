import type { InvoicePdfData } from "@/lib/services/invoices/pdf-render";

// Invoices that use every part of the PDF (tax per line with a reverse-charge row, a tax
// currency, a service period, payments on and off the ledger with a refund, terms and notes):
// what the language tests render in each language (lib/i18n/documents.test.ts).

const W = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";

export const richInvoice: InvoicePdfData = {
  invoiceNumber: "INV-0042",
  status: "PENDING",
  title: "Website redesign",
  description: "Design and build of the marketing site",
  notes: "Merci.",
  paymentTerms: "30",
  supplyDate: null,
  periodStart: "2026-10-01",
  periodEnd: "2026-10-31",
  buyerReference: null,
  taxCurrency: "EUR",
  taxExchangeRate: "0.925925925926",
  taxRateSource: "coingecko",
  taxRateAt: new Date("2026-11-02T10:00:00.000Z"),
  freelancerWallet: W,
  freelancerName: "Grace Freelancer",
  freelancerEmail: "grace@example.com",
  freelancerCompany: null,
  clientName: "Ada Client",
  clientEmail: "ada@example.com",
  clientCompany: "Analytical Engines SARL",
  clientAddress: "12 rue du Métier\nParis",
  clientTaxId: "FR40303265045",
  clientTaxScheme: "eu_vat",
  clientPostalAddress: null,
  clientIsBusiness: true,
  subtotal: "1240.0000000",
  taxRate: "0.00",
  taxAmount: "190.9500000",
  discount: "11.5000000",
  total: "1419.4500000",
  amountPaid: "250.0000000",
  currency: "USDC",
  networkPassphrase: "Test SDF Network ; September 2015",
  dueDate: new Date("2026-11-27T00:00:00.000Z"),
  createdAt: new Date("2026-11-01T10:00:00.000Z"),
  sentAt: new Date("2026-11-02T10:00:00.000Z"),
  paidAt: null,
  transactionHash: null,
  lineItems: [
    {
      description: "Design",
      quantity: "1.5",
      rate: "666.6666667",
      amount: "1000.0000000",
      taxRate: "19.00",
    },
    {
      description: "Books",
      quantity: "2",
      rate: "20.0000000",
      amount: "40.0000000",
      taxRate: "7.00",
    },
    {
      description: "Consulting",
      quantity: "1",
      rate: "200.0000000",
      amount: "200.0000000",
      taxRate: "0.00",
    },
  ],
  taxBreakdown: [
    {
      category: "S",
      rate: "19.00",
      taxableAmount: "990.7258065",
      taxAmount: "188.2379032",
      exemptionReason: null,
      exemptionReasonCode: null,
    },
    {
      category: "S",
      rate: "7.00",
      taxableAmount: "39.6290323",
      taxAmount: "2.7740323",
      exemptionReason: null,
      exemptionReasonCode: null,
    },
    {
      category: "AE",
      rate: "0.00",
      taxableAmount: "198.1451613",
      taxAmount: "0.0000000",
      exemptionReason: "Reverse charge: VAT to be accounted for by the recipient",
      exemptionReasonCode: "VATEX-EU-AE",
    },
  ],
  payments: [
    {
      transactionHash: "a".repeat(64),
      amount: "200.0000000",
      asset: "USDC",
      applied: true,
      amountRefunded: "12.5000000",
      confirmedAt: new Date("2026-11-10T09:00:00.000Z"),
      priceValue: null,
    },
    {
      transactionHash: null,
      amount: "50.0000000",
      asset: "USDC",
      applied: true,
      amountRefunded: "0",
      confirmedAt: new Date("2026-11-12T00:00:00.000Z"),
      priceValue: null,
      method: "bank_transfer",
      reference: "SEPA 114",
    },
  ],
};

/** The same invoice paid: the PAID stamp and "paid in full" instead of the pay instructions. */
export const paidInvoice: InvoicePdfData = {
  ...richInvoice,
  status: "PAID",
  amountPaid: "1419.4500000",
  paidAt: new Date("2026-11-20T09:00:00.000Z"),
};
