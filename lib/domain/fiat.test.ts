import Big from "big.js";
import { describe, expect, it } from "vitest";
import {
  amountUnit,
  exactValueAt,
  fiat2,
  invoiceAmountDue,
  paidTowardsTotal,
  quoteAssetAmount,
  shownAmount,
  valueAgainstQuote,
  valueAt,
} from "./fiat";
import { computeTotals } from "./money";

describe("quotes", () => {
  it("asks for the fiat amount at the rate, rounded up to the stroop", () => {
    expect(quoteAssetAmount("100.00", "0.1157")).toBe("864.3042351");
    expect(quoteAssetAmount("100.00", "0.125")).toBe("800.0000000");
    expect(quoteAssetAmount("0.01", "3")).toBe("0.0033334");
    expect(quoteAssetAmount("99.99", "1")).toBe("99.9900000");
  });

  it("values the quoted amount at exactly the fiat amount, and never a cent short", () => {
    const quote = { rate: "0.1157", assetAmount: "864.3042351", fiatAmount: "100.00" };
    expect(valueAgainstQuote("864.3042351", quote)).toBe("100.0000000");
    // More: the fiat amount plus the extra at the quote's rate.
    expect(valueAgainstQuote("964.3042351", quote)).toBe("111.5700000");
    // Less: its share at the rate (7 decimals, never rounded up to a cent), capped.
    expect(valueAgainstQuote("432.1521176", quote)).toBe("50.0000000");
    expect(valueAgainstQuote("0.04", { ...quote, rate: "0.125" })).toBe("0.0050000");
    expect(valueAgainstQuote("864.3042300", quote)).toBe("99.9999994");
    // Each cent of rounding of a quoted payment is in the payer's favour only up to the quote.
    for (const [fiat, rate] of [
      ["0.01", "0.0913"],
      ["12345.67", "0.1311"],
      ["1.99", "1.0821"],
    ]) {
      const q = { rate, fiatAmount: fiat, assetAmount: quoteAssetAmount(fiat, rate) };
      expect(valueAgainstQuote(q.assetAmount, q)).toBe(new Big(fiat).toFixed(7));
    }
  });

  it("rounds values half up to the cent", () => {
    expect(valueAt("800", "0.1")).toBe("80.00");
    expect(valueAt("0.1", "0.125")).toBe("0.01");
    expect(valueAt("0.1", "0.124")).toBe("0.01");
    expect(valueAt("0.1", "0.0249")).toBe("0.00");
    expect(fiat2("2.005")).toBe("2.01");
    expect(exactValueAt("0.04", "0.125")).toBe("0.0050000");
  });

  it("settles a fiat invoice in cents: a ten-millionth short of the total still pays it", () => {
    expect(paidTowardsTotal("99.9999999", "USD")).toBe("100.0000000");
    expect(paidTowardsTotal("99.9949999", "USD")).toBe("99.9900000");
    expect(paidTowardsTotal("99.9999999", null)).toBe("99.9999999");
  });
});

describe("fiat totals", () => {
  it("keeps fiat amounts to whole cents, half up, and refuses finer rates and discounts", () => {
    const t = computeTotals(
      { lineItems: [{ quantity: "3", rate: "33.33" }], taxRate: "7.25", discount: "0.5" },
      { scale: 2 },
    );
    expect(t).toMatchObject({
      subtotal: "99.9900000",
      taxAmount: "7.2500000",
      total: "106.7400000",
    });
    expect(() =>
      computeTotals({ lineItems: [{ quantity: "1", rate: "1.005" }] }, { scale: 2 }),
    ).toThrow("lineItems.0.rate must have at most 2 decimal places");
    expect(() =>
      computeTotals({ lineItems: [{ quantity: "1", rate: "1" }], discount: "0.001" }, { scale: 2 }),
    ).toThrow("discount must have at most 2 decimal places");
  });
});

describe("amountDue (issue 27, item 15)", () => {
  it("a fiat invoice settled within half a cent owes 0, counted in cents as it was settled", () => {
    const usd = { total: "100.0000000", priceCurrency: "USD" };
    expect(invoiceAmountDue({ ...usd, amountPaid: "99.9950000" })).toBe("0.0000000");
    expect(invoiceAmountDue({ ...usd, amountPaid: "99.9949999" })).toBe("0.0100000");
    expect(invoiceAmountDue({ ...usd, amountPaid: "40.0040000" })).toBe("60.0000000");
    expect(invoiceAmountDue({ ...usd, amountPaid: "120" })).toBe("0.0000000");
  });

  it("an asset-priced invoice owes the exact difference, to the stroop", () => {
    const xlm = { total: "100", priceCurrency: null };
    expect(invoiceAmountDue({ ...xlm, amountPaid: "99.9950000" })).toBe("0.0050000");
    expect(invoiceAmountDue({ ...xlm, amountPaid: "99.9999999" })).toBe("0.0000001");
  });
});

describe("fiat figures shown and exported (issue 28)", () => {
  it("rounds a fiat amountPaid half up to the cent, keeps an asset amount's 7 places", () => {
    expect(fiat2("4681.4218519")).toBe("4681.42");
    expect(fiat2("80.995")).toBe("81.00");
    expect(shownAmount("4681.4218519", "EUR")).toBe("4681.4200000");
    expect(shownAmount("99.9950000", "USD")).toBe("100.0000000");
    expect(shownAmount("4681.4218519", null)).toBe("4681.4218519");
  });

  it("names the unit of an invoice's amounts", () => {
    expect(amountUnit({ currency: "USDC", priceCurrency: "EUR" })).toBe("EUR");
    expect(amountUnit({ currency: "XLM", priceCurrency: null })).toBe("XLM");
  });
});
