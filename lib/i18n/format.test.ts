import { describe, expect, it } from "vitest";
import { formatDay, formatDecimal, formatMoment, localizeAmount, localizeNumber } from "./format";

describe("numbers in a document's language", () => {
  it("keeps every digit of a decimal string, with the locale's separators", () => {
    expect(formatDecimal("1234567.1234567", "de")).toBe("1.234.567,1234567");
    expect(formatDecimal("1234567.1234567", "en")).toBe("1,234,567.1234567");
    expect(formatDecimal("1234567.1234567", "fr")).toBe("1\u00a0234\u00a0567,1234567");
    expect(formatDecimal("1234567.1234567", "es")).toBe("1.234.567,1234567");
    expect(formatDecimal("1234567.1234567", "pt")).toBe("1\u00a0234\u00a0567,1234567");
  });
  it("is exact beyond a float's precision", () => {
    expect(formatDecimal("98765432109876543.21", "de")).toBe("98.765.432.109.876.543,21");
    expect(formatDecimal("0.0000001", "de")).toBe("0,0000001");
    expect(formatDecimal("-1228.5", "de")).toBe("-1.228,5");
  });
  it("rewrites an English-formatted amount, its unit kept", () => {
    expect(localizeAmount("1,228.50 EUR", "de")).toBe("1.228,50 EUR");
    expect(localizeAmount("1,228.50 EUR", "en")).toBe("1,228.50 EUR");
    expect(localizeAmount("-30.00 XLM", "fr")).toBe("-30,00 XLM");
    // Spanish and Portuguese group only from five digits (CLDR's minimum grouping).
    expect(localizeAmount("1,228.50 EUR", "es")).toBe("1228,50 EUR");
    expect(localizeAmount("12,228.50 EUR", "es")).toBe("12.228,50 EUR");
    expect(localizeAmount("—", "de")).toBe("—");
    expect(localizeNumber("19", "de")).toBe("19");
    expect(localizeNumber("7.5", "de")).toBe("7,5");
  });
});

describe("dates in a document's language", () => {
  const day = new Date("2026-11-27T14:05:00Z");
  it("writes the UTC day in each locale", () => {
    expect(formatDay(day, "en")).toBe("27 Nov 2026");
    expect(formatDay(day, "de")).toBe("27. Nov. 2026");
    expect(formatDay(day, "fr")).toBe("27 nov. 2026");
    expect(formatDay(day, "es")).toBe("27 nov 2026");
    expect(formatDay(day, "pt")).toBe("27/11/2026");
    expect(formatDay(new Date("2026-11-27T23:59:00Z"), "de")).toBe("27. Nov. 2026");
  });
  it("adds the UTC time", () => {
    expect(formatMoment(day, "de")).toBe("27. Nov. 2026, 14:05 UTC");
  });
});
