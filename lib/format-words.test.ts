import { describe, expect, it } from "vitest";
import { formatAmount, formatDate, formatPriced, stateWords, statusWords } from "./format";

// Issue 28, item 18: one number format, dates in words, states in sentence case.
describe("one format on every screen (lib/format.ts)", () => {
  it("groups thousands in every amount the freelancer's pages, emails and PDF print", () => {
    expect(formatAmount("2040.0000000", "USDC")).toBe("2,040.00 USDC");
    expect(formatAmount("1001")).toBe("1,001.00");
    expect(formatAmount("999.5")).toBe("999.50");
    expect(formatAmount("0.0000001", "XLM")).toBe("0.0000001 XLM");
    expect(formatAmount("-2040.5")).toBe("-2,040.50");
    expect(formatPriced("2040.0000000", { currency: "XLM", priceCurrency: null })).toBe(
      "2,040.00 XLM",
    );
  });

  it("writes dates in words", () => {
    expect(formatDate("2026-11-27T00:00:00.000Z")).toBe("27 Nov 2026");
    expect(formatDate("2026-11-27")).toBe("27 Nov 2026");
    expect(formatDate(null)).toBe("—");
  });

  it("writes states in sentence case, PROCESSING shown as pending", () => {
    expect(stateWords("PARTIALLY_PAID")).toBe("Partially paid");
    expect(stateWords("PAID")).toBe("Paid");
    expect(stateWords("delivered")).toBe("Delivered");
    expect(stateWords("")).toBe("");
    expect(statusWords("PROCESSING")).toBe("Pending");
    expect(statusWords("CANCELLED")).toBe("Cancelled");
  });
});
