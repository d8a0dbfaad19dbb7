import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Decimal } from "@/lib/domain/money";
import type { TaxCategory } from "@/lib/domain/tax";
import { one, parseCii, text } from "@/tests/helpers/cii-read";
import { en16931Violations, SUMS } from "@/tests/helpers/cii-rules";
import { CII_XSD_DIR, ciiSchemaErrors } from "@/tests/helpers/cii-xsd";
import { inputOf, storedInvoice } from "@/tests/helpers/einvoice-cases";
import { buildCii } from "./cii";
import { eInvoiceProblems } from "./problems";

// Many invoices the service could store (seeded, so every run makes the same ones): lines with
// amounts finer than a cent, several rates and categories, discounts, every currency. Each
// must become an e-invoice that adds up as EN 16931 wants, with the API's amount due in cents.

function prng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TAXES: {
  taxRate: string;
  taxCategory?: TaxCategory;
  exemptionReason?: string;
  exemptionReasonCode?: string;
}[] = [
  { taxRate: "19" },
  { taxRate: "7" },
  { taxRate: "20" },
  { taxRate: "5.5" },
  { taxRate: "0" },
  {
    taxRate: "0",
    taxCategory: "AE",
    exemptionReason: "Reverse charge",
    exemptionReasonCode: "VATEX-EU-AE",
  },
  {
    taxRate: "0",
    taxCategory: "E",
    exemptionReason: "Exempt under art. 132 (1) (i)",
    exemptionReasonCode: "VATEX-EU-132-1I",
  },
];

function randomInvoice(n: number) {
  const r = prng(n + 1);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const kind = pick(["USDC", "EURC", "XLM", "EUR", "USD"] as const);
  const fiat = kind === "EUR" || kind === "USD";
  const decimals = fiat ? 2 : pick([2, 2, 3, 7]);
  const amount = (max: number) => (r() * max).toFixed(decimals);
  const perLine = r() < 0.7;
  const lineCount = 1 + Math.floor(r() * 6);
  const lines = Array.from({ length: lineCount }, (_, i) => ({
    description: `Line ${i + 1}`,
    quantity: pick(["1", "2", "0.5", "3.25", "12", "7.75"]),
    rate: new Decimal(amount(900)).plus("0.01").toFixed(decimals),
    ...(perLine ? pick(TAXES) : {}),
  }));
  const taxRate = perLine ? "19" : pick(["19", "21", "0"]);
  const invoice = storedInvoice({
    number: `INV-9${String(n).padStart(3, "0")}`,
    currency: fiat ? pick(["XLM", "USDC", "EURC"] as const) : kind,
    priceCurrency: fiat ? kind : null,
    taxCurrency: kind === "XLM" ? "EUR" : pick([null, null, "EUR", "USD"] as const),
    taxExchangeRate:
      kind === "XLM" ? `0.${String(Math.floor(r() * 1e6)).padStart(6, "0")}` : "0.925400000000",
    taxRate,
    lines,
  });
  // A discount below the subtotal where EN 16931 can state it (lowering the base).
  const discountable = perLine || taxRate === "0";
  const discount =
    discountable && r() < 0.5
      ? new Decimal(invoice.subtotal)
          .times((r() * 0.3).toFixed(6))
          .round(decimals, Decimal.roundDown)
          .toFixed(decimals)
      : null;
  const final = discount
    ? storedInvoice({
        number: invoice.invoiceNumber,
        currency: invoice.currency,
        priceCurrency: invoice.priceCurrency,
        taxCurrency: invoice.taxCurrency,
        taxExchangeRate: invoice.taxExchangeRate,
        taxRate,
        discount,
        lines,
      })
    : invoice;
  return final;
}

const invoices = Array.from({ length: 150 }, (_, n) => randomInvoice(n));
const docs = invoices.map((invoice) => {
  const input = inputOf(invoice);
  return { invoice, input, xml: buildCii(input) };
});

const dumpDir = process.env.EINVOICE_DUMP_DIR;
if (dumpDir) {
  fs.mkdirSync(dumpDir, { recursive: true });
  for (const d of docs)
    fs.writeFileSync(path.join(dumpDir, `${d.invoice.invoiceNumber}.xml`), d.xml);
}

describe("150 generated invoices", () => {
  it("each can become an e-invoice, adds up as EN 16931 wants, and owes the API's total in cents", () => {
    for (const { invoice, input, xml } of docs) {
      expect(eInvoiceProblems(input), invoice.invoiceNumber).toEqual([]);
      expect(en16931Violations(xml), invoice.invoiceNumber).toEqual([]);
      const factor =
        input.priceCurrency || input.currency !== "XLM" ? "1" : (input.taxExchange?.rate as string);
      const due = new Decimal(invoice.total).times(factor).round(2, Decimal.roundHalfUp).toFixed(2);
      const sums = one(parseCii(xml), SUMS);
      expect(sums && text(sums, "ram:DuePayableAmount"), invoice.invoiceNumber).toBe(due);
    }
  });

  it.skipIf(!CII_XSD_DIR)("each is valid against the CII D16B schema", async () => {
    const errors = await ciiSchemaErrors(
      docs.map((d) => ({ name: d.invoice.invoiceNumber, xml: d.xml })),
    );
    expect(errors.filter((e) => e.length > 0)).toEqual([]);
  });
});
