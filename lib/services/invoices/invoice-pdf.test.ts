import { describe, expect, it } from "vitest";
import { pdfQrCode } from "@/tests/helpers/pdf";
import { type InvoicePdfData, renderInvoicePdf } from "./invoice-pdf";

const sample: InvoicePdfData = {
  invoiceNumber: "INV-0042",
  status: "PENDING",
  title: "Website redesign",
  description: "Design and build of the marketing site",
  notes: "Thank you for your business.",
  paymentTerms: null,
  buyerReference: null,
  supplyDate: null,
  periodStart: null,
  periodEnd: null,
  taxCurrency: null,
  freelancerWallet: "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H",
  freelancerName: "Grace Freelancer",
  freelancerEmail: "grace@example.com",
  freelancerCompany: null,
  clientName: "Ada Client",
  clientEmail: "ada@example.com",
  clientCompany: "Analytical Engines Ltd",
  clientAddress: "12 Loom Street\nLondon",
  clientTaxId: null,
  clientTaxScheme: null,
  clientPostalAddress: null,
  clientIsBusiness: null,
  subtotal: "1000.0000000",
  taxRate: "10.00",
  taxAmount: "100.0000000",
  discount: "50.0000000",
  total: "1050.0000000",
  currency: "USDC",
  networkPassphrase: "Test SDF Network ; September 2015",
  dueDate: new Date("2026-12-31T00:00:00.000Z"),
  createdAt: new Date("2026-01-05T10:00:00.000Z"),
  sentAt: new Date("2026-01-06T10:00:00.000Z"),
  paidAt: null,
  transactionHash: null,
  lineItems: [
    { description: "Design", quantity: "1.00", rate: "400.0000000", amount: "400.0000000" },
    { description: "Build", quantity: "2.00", rate: "300.0000000", amount: "600.0000000" },
  ],
};

/** The text shown on the pages, as a PDF reader extracts it (PDF.js, Firefox's reader). */
async function pageText(pdf: Buffer): Promise<string> {
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const doc = await getDocument({ data: new Uint8Array(pdf), verbosity: 0 }).promise;
  let text = "";
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    for (const item of content.items) if ("str" in item) text += `${item.str}\n`;
  }
  await doc.destroy();
  return text;
}

describe("renderInvoicePdf", () => {
  it("builds a PDF with the invoice number, parties, totals and payment link", async () => {
    const pdf = await renderInvoicePdf(sample, {
      paymentLink: "https://invoices.example/pay/abc123",
      compress: false,
    });
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf.toString("latin1").trimEnd().endsWith("%%EOF")).toBe(true);
    const text = await pageText(pdf);
    expect(text).toContain("INV-0042");
    expect(text).toContain("Ada Client");
    expect(text).toContain("Status: PENDING");
    expect(text).toContain("1,050.00 USDC");
    expect(text).toContain("Tax (10%)");
    expect(text).toContain("-50.00 USDC");
    expect(text).toContain("https://invoices.example/pay/abc123");
    // The document title names the invoice too.
    expect(pdf.toString("latin1")).toContain("Invoice INV-0042");
  });

  it("labels a fiat-priced invoice's amounts with its price currency, paid in the asset", async () => {
    const pdf = await renderInvoicePdf(
      { ...sample, currency: "XLM", priceCurrency: "EUR" },
      { paymentLink: "https://invoices.example/pay/abc123", compress: false },
    );
    const text = await pageText(pdf);
    expect(text).toContain("1,050.00 EUR");
    expect(text).toContain("RATE (EUR)");
    expect(text).not.toContain("USDC");
    expect(text).toContain("in XLM at the rate locked when you pay");
  });

  it("breaks long item lists over several pages", async () => {
    const many = Array.from({ length: 80 }, (_, i) => ({
      description: `Item ${i + 1}`,
      quantity: "1.00",
      rate: "1.0000000",
      amount: "1.0000000",
    }));
    const pdf = await renderInvoicePdf(
      { ...sample, lineItems: many, subtotal: "80.0000000", total: "80.0000000" },
      { paymentLink: "https://invoices.example/pay/abc123", compress: false },
    );
    const pages = pdf.toString("latin1").match(/\/Type \/Page\b/g) ?? [];
    expect(pages.length).toBeGreaterThan(1);
    expect(await pageText(pdf)).toContain("Item 80");
  });

  it("renders names beyond Windows-1252 as typed (Polish, Czech, Greek, Cyrillic, Turkish)", async () => {
    const names = {
      clientName: "Łukasz Żółć",
      clientCompany: "Kovář s.r.o.",
      freelancerName: "Αλέξης Παπαδόπουλος",
      title: "Дизайн сайта",
    };
    const pdf = await renderInvoicePdf(
      {
        ...sample,
        ...names,
        clientAddress: "İstiklal Caddesi 1\nİstanbul",
        lineItems: [{ ...sample.lineItems[0], description: "Ürün tasarımı – ☕" }],
      },
      { paymentLink: "https://invoices.example/pay/abc123" },
    );
    const text = await pageText(pdf);
    for (const value of Object.values(names)) expect(text).toContain(value);
    expect(text).toContain("İstanbul");
    expect(text).toContain("Ürün tasarımı – ☕");
    // Only the glyphs used are embedded: the file stays small.
    expect(pdf.length).toBeLessThan(120_000);
  });

  it("prints the pay link as a QR code a phone reads, while something is due (and none once paid)", async () => {
    const link = "https://pay.example/pay/inv_qr";
    const pending = await renderInvoicePdf(sample, { paymentLink: link });
    expect(await pdfQrCode(pending)).toBe(link);
    const paid = await renderInvoicePdf(
      { ...sample, status: "PAID", paidAt: new Date("2026-03-02T10:00:00Z") },
      { paymentLink: link },
    );
    expect(await pdfQrCode(paid)).toBeNull();
  });

  it("compresses by default", async () => {
    const pdf = await renderInvoicePdf(sample, { paymentLink: "https://invoices.example/pay/x" });
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf.toString("latin1")).toContain("/FlateDecode");
  });
});

describe("a paid invoice's PDF", () => {
  const paidInTwo: InvoicePdfData = {
    ...sample,
    currency: "USDC",
    priceCurrency: "EUR",
    total: "4681.4200000",
    status: "PAID",
    paidAt: new Date("2026-02-03T09:00:00.000Z"),
    transactionHash: "b".repeat(64),
    payments: [
      {
        transactionHash: "a".repeat(64),
        amount: "2000.0000000",
        asset: "USDC",
        applied: true,
        amountRefunded: "0",
        confirmedAt: new Date("2026-02-01T09:00:00.000Z"),
        priceValue: "1851.8518519",
      },
      {
        transactionHash: "b".repeat(64),
        amount: "3055.9400000",
        asset: "USDC",
        applied: true,
        amountRefunded: "0",
        confirmedAt: new Date("2026-02-03T09:00:00.000Z"),
        priceValue: "2829.5681481",
      },
    ],
  };

  it("lists a payment received outside Stellar with its method and reference instead of a hash", async () => {
    const text = await pageText(
      await renderInvoicePdf(
        {
          ...paidInTwo,
          transactionHash: null,
          payments: [
            paidInTwo.payments?.[0] as NonNullable<InvoicePdfData["payments"]>[number],
            {
              transactionHash: null,
              amount: "2829.5700000",
              asset: "EUR",
              applied: true,
              amountRefunded: "0",
              confirmedAt: new Date("2026-02-03T00:00:00.000Z"),
              priceValue: "2829.5700000",
              method: "bank_transfer",
              reference: "SEPA 114",
            },
          ],
        },
        { paymentLink: "https://invoices.example/pay/abc123", compress: false },
      ),
    );
    expect(text).toContain("2,829.57 EUR");
    expect(text).not.toContain("2,829.57 EUR (");
    expect(text).toContain("Bank transfer · ref SEPA 114");
  });

  it("says PAID, lists every payment with its asset amount and value, and has no pay instructions", async () => {
    const text = await pageText(
      await renderInvoicePdf(paidInTwo, {
        paymentLink: "https://invoices.example/pay/abc123",
        compress: false,
      }),
    );
    expect(text).toMatch(/^PAID$/m);
    expect(text).toContain("Payments received");
    expect(text).toContain("2,000.00 USDC (1,851.85 EUR)");
    expect(text).toContain("3,055.94 USDC (2,829.57 EUR)");
    expect(text).toContain("a".repeat(64));
    expect(text).toContain("b".repeat(64));
    expect(text).not.toMatch(/\bPay\b/);
    expect(text).not.toContain("Pay online");
    expect(text).not.toContain("https://invoices.example/pay/abc123");
  });

  it("keeps the pay instructions while something is due, with the payments so far", async () => {
    const text = await pageText(
      await renderInvoicePdf(
        {
          ...paidInTwo,
          status: "PENDING",
          paidAt: null,
          amountPaid: "1851.8518519",
          payments: paidInTwo.payments?.slice(0, 1),
        },
        { paymentLink: "https://invoices.example/pay/abc123", compress: false },
      ),
    );
    expect(text).not.toMatch(/^PAID$/m);
    expect(text).toContain("Pay online");
    expect(text).toContain("2,000.00 USDC (1,851.85 EUR)");
    // What is left, not the total: paying the total now would overpay.
    expect(text.replace(/\s+/g, " ")).toContain(
      "Pay 2,829.57 EUR (1,851.85 EUR of 4,681.42 EUR paid so far) in USDC",
    );
  });
});

describe("tax per line on the PDF (docs/decisions.md, Tax per line)", () => {
  it("prints each line's rate, the discount, one line per category and rate, the total VAT and the exemption reason", async () => {
    const text = await pageText(
      await renderInvoicePdf(
        {
          ...sample,
          subtotal: "120.0000000",
          discount: "10.0000000",
          taxRate: "0.00",
          taxAmount: "18.0572333",
          total: "128.0572333",
          lineItems: [
            {
              description: "Design",
              quantity: "3.00",
              rate: "33.3300000",
              amount: "99.9900000",
              taxRate: "19.00",
            },
            {
              description: "Books",
              quantity: "1.00",
              rate: "10.0100000",
              amount: "10.0100000",
              taxRate: "7.00",
            },
            {
              description: "Export",
              quantity: "2.00",
              rate: "5.0000000",
              amount: "10.0000000",
              taxRate: "0.00",
            },
          ],
          taxBreakdown: [
            {
              category: "S",
              rate: "19.00",
              taxableAmount: "91.6575000",
              taxAmount: "17.4149250",
              exemptionReason: null,
              exemptionReasonCode: null,
            },
            {
              category: "S",
              rate: "7.00",
              taxableAmount: "9.1758333",
              taxAmount: "0.6423083",
              exemptionReason: null,
              exemptionReasonCode: null,
            },
            {
              category: "G",
              rate: "0.00",
              taxableAmount: "9.1666667",
              taxAmount: "0.0000000",
              exemptionReason: "Export outside the EU",
              exemptionReasonCode: "VATEX-EU-G",
            },
          ],
        },
        { paymentLink: "https://invoices.example/pay/abc123", compress: false },
      ),
    );
    for (const expected of [
      "VAT",
      "19%",
      "7%",
      "0%",
      "Total VAT",
      "Export outside the EU: Export outside the EU",
    ]) {
      expect(text).toContain(expected);
    }
    const flat = text.replace(/\s+/g, " ");
    expect(flat).toMatch(/VAT 19% of 91\.6575 USDC 17\.414925 USDC/);
    expect(flat).toContain("Total VAT 18.0572333 USDC Total 128.0572333 USDC");
    expect(flat).toMatch(/Export outside the EU \(G\) on 9\.1666667 USDC 0\.00 USDC/);
  });
});
