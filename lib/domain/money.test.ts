import { describe, expect, it } from "vitest";
import { ValidationError } from "./errors";
import {
  AMOUNT_SPEC,
  assertAmountMatchesSubtotal,
  canonicalAmount,
  checkDecimal,
  compareAmounts,
  computeTotals,
  formatForFormA,
  fromStroops,
  isAtLeast,
  MAX_AMOUNT,
  parseAmount,
  parseDiscount,
  parseQuantity,
  parseRate,
  parseTaxRate,
  toStroops,
  trimAmount,
} from "./money";

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("parsing decimal inputs", () => {
  it("accepts decimal strings and JSON numbers alike, in canonical form", () => {
    expect(parseRate("0.1")).toBe("0.1000000");
    expect(parseRate(0.1)).toBe("0.1000000");
    expect(parseQuantity(3)).toBe("3.00");
    expect(parseQuantity("1.5")).toBe("1.50");
    expect(parseTaxRate(10)).toBe("10.00");
    expect(parseDiscount("0")).toBe("0.0000000");
  });

  it("accepts exponent forms that String(number) produces when the value fits", () => {
    expect(parseRate(1e-7)).toBe("0.0000001");
    expect(parseRate(0.0000001)).toBe("0.0000001");
  });

  it("rejects a number input with 8 decimals instead of rounding it", () => {
    const error = catchError(() => parseRate(0.12345678));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details).toEqual({
      rate: "rate must have at most 7 decimal places",
    });
    expect(() => parseRate(1e-8)).toThrow("at most 7 decimal places");
    // Float noise shows up as extra decimals and is refused, not rounded away.
    expect(() => parseRate(0.1 + 0.2)).toThrow("at most 7 decimal places");
  });

  it("rejects too many decimals in strings, but accepts harmless trailing zeros", () => {
    expect(() => parseRate("0.12345678")).toThrow(ValidationError);
    expect(() => parseQuantity("1.234")).toThrow("quantity must have at most 2 decimal places");
    expect(() => parseTaxRate("10.125")).toThrow("at most 2 decimal places");
    expect(parseRate("1.50000000")).toBe("1.5000000");
  });

  it("rejects negative inputs", () => {
    expect(() => parseRate("-1")).toThrow("rate must not be negative");
    expect(() => parseRate(-0.5)).toThrow("rate must not be negative");
    expect(() => parseDiscount(-1)).toThrow("discount must not be negative");
    expect(() => parseTaxRate("-0.01")).toThrow("taxRate must not be negative");
    expect(() => parseQuantity(-2)).toThrow("quantity must be greater than 0");
    expect(() => parseAmount("-10")).toThrow("amount must be greater than 0");
  });

  it("applies the lower bounds: quantity and amount > 0, rate and discount >= 0", () => {
    expect(() => parseQuantity(0)).toThrow("quantity must be greater than 0");
    expect(() => parseAmount("0")).toThrow("amount must be greater than 0");
    expect(parseRate(0)).toBe("0.0000000");
    expect(parseRate("-0")).toBe("0.0000000");
  });

  it("keeps the tax rate between 0 and 100", () => {
    expect(parseTaxRate(100)).toBe("100.00");
    expect(parseTaxRate("0")).toBe("0.00");
    expect(() => parseTaxRate("100.01")).toThrow("taxRate must be at most 100");
  });

  it("enforces the precision edge of numeric(18,7) and numeric(10,2)", () => {
    expect(parseAmount(MAX_AMOUNT)).toBe("99999999999.9999999");
    expect(parseAmount("99999999999")).toBe("99999999999.0000000");
    expect(() => parseAmount("100000000000")).toThrow(
      "amount must have at most 11 digits before the decimal point",
    );
    expect(parseQuantity("99999999.99")).toBe("99999999.99");
    expect(() => parseQuantity("100000000")).toThrow("at most 8 digits before");
    // A JSON number 99999999999.9999999 parses to the double 100000000000: too big.
    expect(() => parseAmount(Number("99999999999.9999999"))).toThrow("at most 11 digits");
    expect(() => parseAmount(1e21)).toThrow("at most 11 digits");
    // Leading zeros are not digits of the value.
    expect(parseAmount("000000000000001.5")).toBe("1.5000000");
  });

  it("rejects anything that is not a finite number or a plain decimal string", () => {
    for (const bad of [
      "",
      " 1",
      "1 ",
      "1.",
      ".5",
      "+1",
      "1e5",
      "0x10",
      "1,5",
      "abc",
      "1".repeat(65),
      Number.NaN,
      Number.POSITIVE_INFINITY,
      null,
      undefined,
      true,
      {},
      [],
      10n,
    ]) {
      expect(() => parseRate(bad), String(bad)).toThrow("rate must be a decimal number");
    }
  });

  it("offers a non-throwing check for schema refinements", () => {
    expect(checkDecimal("1.5", AMOUNT_SPEC, "total")).toEqual({ ok: true, value: "1.5000000" });
    expect(checkDecimal("1.123456789", AMOUNT_SPEC, "total")).toEqual({
      ok: false,
      message: "total must have at most 7 decimal places",
    });
  });
});

describe("computeTotals", () => {
  it("computes 3 x 0.1 = 0.3 exactly", () => {
    const totals = computeTotals({ lineItems: [{ quantity: 3, rate: 0.1 }] });
    expect(totals.lineItems[0]).toEqual({
      quantity: "3.00",
      rate: "0.1000000",
      amount: "0.3000000",
    });
    expect(totals.subtotal).toBe("0.3000000");
    expect(totals.total).toBe("0.3000000");
  });

  it("rounds 1.5 x 0.3333333 = 0.49999995 half up to 0.5000000", () => {
    const totals = computeTotals({ lineItems: [{ quantity: "1.5", rate: "0.3333333" }] });
    expect(totals.lineItems[0].amount).toBe("0.5000000");
    expect(totals.total).toBe("0.5000000");
  });

  it("rounds line amounts below half down", () => {
    // 1.01 x 0.0000004 = 0.000000404 -> 0.0000004
    const totals = computeTotals({ lineItems: [{ quantity: "1.01", rate: "0.0000004" }] });
    expect(totals.lineItems[0].amount).toBe("0.0000004");
  });

  it("gives subtotal 1000, tax 10 %, discount 50 -> total 1050", () => {
    const totals = computeTotals({
      lineItems: [
        { quantity: 2, rate: 250 },
        { quantity: "1", rate: "500" },
      ],
      taxRate: 10,
      discount: "50",
    });
    expect(totals).toEqual({
      lineItems: [
        { quantity: "2.00", rate: "250.0000000", amount: "500.0000000" },
        { quantity: "1.00", rate: "500.0000000", amount: "500.0000000" },
      ],
      subtotal: "1000.0000000",
      taxRate: "10.00",
      taxAmount: "100.0000000",
      discount: "50.0000000",
      total: "1050.0000000",
    });
  });

  it("rounds the tax amount half up to 7 decimals", () => {
    // 0.0000005 x 10 % = 0.00000005 -> 0.0000001
    const totals = computeTotals({ lineItems: [{ quantity: 1, rate: "0.0000005" }], taxRate: 10 });
    expect(totals.taxAmount).toBe("0.0000001");
    expect(totals.total).toBe("0.0000006");
  });

  it("defaults an absent or null tax rate and discount to zero", () => {
    const totals = computeTotals({
      lineItems: [{ quantity: 1, rate: 5 }],
      taxRate: null,
      discount: undefined,
    });
    expect(totals.taxRate).toBe("0.00");
    expect(totals.taxAmount).toBe("0.0000000");
    expect(totals.discount).toBe("0.0000000");
    expect(totals.total).toBe("5.0000000");
  });

  it("rejects a discount that makes the total 0", () => {
    const error = catchError(() =>
      computeTotals({ lineItems: [{ quantity: 1, rate: 100 }], taxRate: 10, discount: 110 }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toBe("Total must be greater than 0");
    expect((error as ValidationError).details).toHaveProperty("discount");
  });

  it("rejects a discount that makes the total negative", () => {
    expect(() =>
      computeTotals({ lineItems: [{ quantity: 1, rate: 100 }], discount: "100.0000001" }),
    ).toThrow("Total must be greater than 0");
  });

  it("rejects a zero total from zero rates, pointing at the items", () => {
    const error = catchError(() => computeTotals({ lineItems: [{ quantity: 1, rate: 0 }] }));
    expect((error as ValidationError).message).toBe("Total must be greater than 0");
    expect((error as ValidationError).details).toHaveProperty("lineItems");
  });

  it("rejects an empty item list", () => {
    const error = catchError(() => computeTotals({ lineItems: [] }, { itemsField: "items" }));
    expect((error as ValidationError).details).toEqual({
      items: "items must contain at least one item",
    });
  });

  it("reports every bad field at once, with item paths", () => {
    const error = catchError(() =>
      computeTotals({
        lineItems: [
          { quantity: 1, rate: 1 },
          { quantity: -1, rate: "0.123456789" },
        ],
        taxRate: 101,
        discount: -5,
      }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details).toEqual({
      "lineItems.1.quantity": "lineItems.1.quantity must be greater than 0",
      "lineItems.1.rate": "lineItems.1.rate must have at most 7 decimal places",
      taxRate: "taxRate must be at most 100",
      discount: "discount must not be negative",
    });
  });

  it("handles big values at the precision edge exactly", () => {
    const totals = computeTotals({ lineItems: [{ quantity: 1, rate: MAX_AMOUNT }] });
    expect(totals.total).toBe("99999999999.9999999");

    const split = computeTotals({
      lineItems: [
        { quantity: "1", rate: "49999999999.9999999" },
        { quantity: "1", rate: "50000000000.0000000" },
      ],
    });
    expect(split.subtotal).toBe("99999999999.9999999");
  });

  it("rejects line amounts, subtotals and totals beyond numeric(18,7)", () => {
    expect(() =>
      computeTotals({ lineItems: [{ quantity: "99999999.99", rate: "99999999999" }] }),
    ).toThrow(`amount must not exceed ${MAX_AMOUNT}`);
    expect(() =>
      computeTotals({
        lineItems: [
          { quantity: 1, rate: MAX_AMOUNT },
          { quantity: 1, rate: "0.0000001" },
        ],
      }),
    ).toThrow(`subtotal must not exceed ${MAX_AMOUNT}`);
    expect(() =>
      computeTotals({ lineItems: [{ quantity: 1, rate: "90000000000" }], taxRate: 50 }),
    ).toThrow(`total must not exceed ${MAX_AMOUNT}`);
  });
});

describe("assertAmountMatchesSubtotal", () => {
  it("accepts an equal amount in any form and rejects a different one", () => {
    expect(() => assertAmountMatchesSubtotal(1000, "1000.0000000")).not.toThrow();
    expect(() => assertAmountMatchesSubtotal("1000.00", "1000.0000000")).not.toThrow();
    const error = catchError(() => assertAmountMatchesSubtotal(999, "1000.0000000"));
    expect((error as ValidationError).details).toEqual({
      amount: "amount must equal the sum of the line items (1000)",
    });
  });
});

describe("stroops", () => {
  it("converts decimal strings to stroops and back", () => {
    expect(toStroops("1")).toBe(10_000_000n);
    expect(toStroops("0.0000001")).toBe(1n);
    expect(toStroops("1.5")).toBe(15_000_000n);
    expect(toStroops("100.0000000")).toBe(1_000_000_000n);
    expect(fromStroops(1n)).toBe("0.0000001");
    expect(fromStroops(0n)).toBe("0.0000000");
    expect(fromStroops(15_000_000n)).toBe("1.5000000");
    expect(fromStroops(-15_000_000n)).toBe("-1.5000000");
  });

  it("round-trips at the precision edge without loss", () => {
    for (const amount of [
      MAX_AMOUNT,
      "0.0000001",
      "12345678901.2345678",
      "0.0000000",
      "-3.0000001",
    ]) {
      expect(fromStroops(toStroops(amount))).toBe(amount);
    }
    expect(toStroops(MAX_AMOUNT)).toBe(999_999_999_999_999_999n);
    // Beyond Number.MAX_SAFE_INTEGER stroops: bigint keeps it exact.
    expect(fromStroops(999_999_999_999_999_999n)).toBe(MAX_AMOUNT);
  });

  it("refuses amounts finer than a stroop", () => {
    expect(() => toStroops("0.00000001")).toThrow(ValidationError);
    expect(() => toStroops("1e-7")).toThrow(ValidationError);
    expect(() => toStroops("")).toThrow(ValidationError);
    expect(toStroops("1.50000000")).toBe(15_000_000n);
  });

  it("compares exactly in stroops", () => {
    expect(compareAmounts("1", "1.0000000")).toBe(0);
    expect(compareAmounts("0.9999999", "1")).toBe(-1);
    expect(compareAmounts("100.0000001", "100")).toBe(1);
    expect(isAtLeast("100", "100.0000000")).toBe(true);
    expect(isAtLeast("100.0000001", "100")).toBe(true);
    expect(isAtLeast("99.9999999", "100")).toBe(false);
  });

  it("formats canonical and trimmed forms", () => {
    expect(canonicalAmount("1050")).toBe("1050.0000000");
    expect(trimAmount("99.5000000")).toBe("99.5");
    expect(trimAmount("100.0000000")).toBe("100");
    expect(trimAmount("0.0000001")).toBe("0.0000001");
    expect(trimAmount("0")).toBe("0");
  });

  it("turns a decimal string into a Form A number only at the edge", () => {
    expect(formatForFormA("1050.0000000")).toBe(1050);
    expect(formatForFormA("0.3000000")).toBe(0.3);
    expect(formatForFormA("0.0000001")).toBe(1e-7);
  });
});
