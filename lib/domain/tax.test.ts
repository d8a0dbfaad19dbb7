import { describe, expect, it } from "vitest";
import { ValidationError } from "./errors";
import { computeTotals, Decimal } from "./money";
import { computeInvoiceTotals } from "./tax";

const details = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return err.details;
    throw err;
  }
  throw new Error("no error");
};

describe("tax per line (docs/decisions.md, Tax per line)", () => {
  it("an invoice without line taxes is computed exactly as the spec's formula, with one breakdown row", () => {
    const input = {
      lineItems: [
        { quantity: "2", rate: "250" },
        { quantity: "1", rate: "500" },
      ],
      taxRate: "10",
      discount: "50",
    };
    const t = computeInvoiceTotals(input);
    const { lineTaxes, taxBreakdown, ...totals } = t;
    expect(totals).toEqual(computeTotals(input));
    expect(taxBreakdown).toEqual([
      {
        category: "S",
        rate: "10.00",
        taxableAmount: "1000.0000000",
        taxAmount: "100.0000000",
        exemptionReason: null,
        exemptionReasonCode: null,
      },
    ]);
    expect(lineTaxes.every((l) => l.taxRate === null && l.taxCategory === null)).toBe(true);
  });

  it("19 %, 7 % and 0 %: one row each, the discount shared in proportion, tax rounded per row, exact to the stroop", () => {
    const t = computeInvoiceTotals({
      lineItems: [
        { quantity: "3", rate: "33.33", taxRate: "19" },
        { quantity: "1", rate: "10.01", taxRate: "7" },
        { quantity: "2", rate: "5", taxRate: "0" },
      ],
      discount: "10",
    });
    expect(t.subtotal).toBe("120.0000000");
    expect(t.taxBreakdown.map((r) => [r.category, r.rate, r.taxableAmount, r.taxAmount])).toEqual([
      // 99.99 - 10 x 99.99/120 (8.3325) = 91.6575; x 19 % = 17.414925
      ["S", "19.00", "91.6575000", "17.4149250"],
      // 10.01 - 0.8341667 = 9.1758333; x 7 % = 0.642308331 -> 0.6423083
      ["S", "7.00", "9.1758333", "0.6423083"],
      // the last row takes what is left of the discount: 10 - 8.3325 - 0.8341667
      ["Z", "0.00", "9.1666667", "0.0000000"],
    ]);
    // The shares (net - taxable) add up to the discount exactly.
    const nets = ["99.99", "10.01", "10"];
    const shares = t.taxBreakdown.reduce(
      (sum, r, i) => sum.plus(new Decimal(nets[i]).minus(r.taxableAmount)),
      new Decimal("0"),
    );
    expect(shares.toFixed(7)).toBe("10.0000000");
    expect(t.taxAmount).toBe("18.0572333");
    expect(t.discount).toBe("10.0000000");
    expect(t.total).toBe("128.0572333"); // 120 - 10 + 18.0572333
  });

  it("rounds each row's tax half up, not each line's (fiat: 3 x 0.03 at 19 % is 0.02, not 3 x 0.01)", () => {
    const t = computeInvoiceTotals(
      {
        lineItems: [
          { quantity: "1", rate: "0.03", taxRate: "19" },
          { quantity: "1", rate: "0.03", taxRate: "19" },
          { quantity: "1", rate: "0.03", taxRate: "19" },
        ],
      },
      { scale: 2 },
    );
    expect(t.taxBreakdown).toHaveLength(1);
    expect(t.taxAmount).toBe("0.0200000");
    expect(t.total).toBe("0.1100000");
  });

  it("lines without their own rate take the invoice's", () => {
    const t = computeInvoiceTotals({
      lineItems: [
        { quantity: "1", rate: "100" },
        { quantity: "1", rate: "100", taxRate: "7" },
      ],
      taxRate: "19",
    });
    expect(t.taxBreakdown.map((r) => [r.rate, r.taxAmount])).toEqual([
      ["19.00", "19.0000000"],
      ["7.00", "7.0000000"],
    ]);
    expect(t.lineTaxes.map((l) => l.taxRate)).toEqual([null, "7.00"]);
    expect(t.total).toBe("226.0000000");
  });

  it("reverse charge: AE at 0 % with its reason and VATEX code", () => {
    const t = computeInvoiceTotals({
      lineItems: [
        {
          quantity: "10",
          rate: "80",
          taxCategory: "AE",
          taxRate: "0",
          exemptionReason: "Reverse charge",
          exemptionReasonCode: "vatex-eu-ae",
        },
      ],
    });
    expect(t.taxBreakdown).toEqual([
      {
        category: "AE",
        rate: "0.00",
        taxableAmount: "800.0000000",
        taxAmount: "0.0000000",
        exemptionReason: "Reverse charge",
        exemptionReasonCode: "VATEX-EU-AE",
      },
    ]);
    expect(t.total).toBe("800.0000000");
  });

  it("exemption codes come from the VATEX list: a French micro-entrepreneur's franchise is one, a made-up code is not", () => {
    const line = (code: string) => ({
      quantity: "1",
      rate: "500",
      taxCategory: "E" as const,
      taxRate: "0",
      exemptionReason: "TVA non applicable, art. 293 B du CGI",
      exemptionReasonCode: code,
    });
    const franchise = computeInvoiceTotals({ lineItems: [line("VATEX-FR-FRANCHISE")] });
    expect(franchise.taxBreakdown?.[0]?.exemptionReasonCode).toBe("VATEX-FR-FRANCHISE");
    expect(() => computeInvoiceTotals({ lineItems: [line("VATEX-EU-999")] })).toThrow(
      expect.objectContaining({
        details: {
          "lineItems.0.exemptionReasonCode": expect.stringContaining("VATEX list"),
        },
      }),
    );
  });

  it("an exempt category needs its reason; a charged one has none; the rate fits the category", () => {
    expect(
      details(() =>
        computeInvoiceTotals({ lineItems: [{ quantity: "1", rate: "5", taxCategory: "E" }] }),
      ),
    ).toEqual({
      "lineItems.0.exemptionReason": "exemptionReason is required for category E (exempt)",
    });
    expect(
      details(() =>
        computeInvoiceTotals({
          lineItems: [
            { quantity: "1", rate: "5", taxCategory: "AE", taxRate: "19", exemptionReason: "x" },
          ],
        }),
      ),
    ).toEqual({ "lineItems.0.taxRate": "taxRate must be 0 for category AE" });
    expect(
      details(() =>
        computeInvoiceTotals({
          lineItems: [{ quantity: "1", rate: "5", taxCategory: "S", taxRate: "0" }],
        }),
      ),
    ).toEqual({
      "lineItems.0.taxRate": "taxRate must be greater than 0 for the standard rate (S)",
    });
    expect(
      details(() =>
        computeInvoiceTotals({
          lineItems: [{ quantity: "1", rate: "5", taxRate: "19", exemptionReason: "because" }],
        }),
      ),
    ).toEqual({
      "lineItems.0.exemptionReason": "exemptionReason is only for categories E, AE, K, G and O",
    });
    expect(
      details(() =>
        computeInvoiceTotals({
          lineItems: [{ quantity: "1", rate: "5", taxRate: "101" }],
        }),
      ),
    ).toEqual({ "lineItems.0.taxRate": "taxRate must be at most 100" });
  });

  it("a discount must stay below the subtotal when it lowers the taxable base", () => {
    expect(
      details(() =>
        computeInvoiceTotals({
          lineItems: [{ quantity: "1", rate: "5", taxRate: "19" }],
          discount: "5",
        }),
      ),
    ).toEqual({ discount: "discount must be less than the subtotal" });
  });
});
