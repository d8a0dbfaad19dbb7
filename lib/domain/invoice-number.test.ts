import { describe, expect, it } from "vitest";
import { ValidationError } from "./errors";
import {
  firstFreeSequence,
  formatInvoiceNumber,
  generatedSequenceOf,
  isValidInvoiceNumber,
  validateInvoiceNumber,
} from "./invoice-number";

describe("formatInvoiceNumber", () => {
  it("zero-pads to 4 digits and grows beyond", () => {
    expect(formatInvoiceNumber(1)).toBe("INV-0001");
    expect(formatInvoiceNumber(42n)).toBe("INV-0042");
    expect(formatInvoiceNumber(9999)).toBe("INV-9999");
    expect(formatInvoiceNumber(10000)).toBe("INV-10000");
    expect(formatInvoiceNumber(12345678901234567890n)).toBe("INV-12345678901234567890");
  });

  it("always produces a valid memo", () => {
    for (const seq of [1, 10, 999, 10_000, Number.MAX_SAFE_INTEGER]) {
      expect(isValidInvoiceNumber(formatInvoiceNumber(seq))).toBe(true);
    }
  });

  it("refuses sequences that cannot be a number", () => {
    expect(() => formatInvoiceNumber(0)).toThrow(RangeError);
    expect(() => formatInvoiceNumber(-1n)).toThrow(RangeError);
    expect(() => formatInvoiceNumber(1.5)).toThrow(RangeError);
    expect(() => formatInvoiceNumber(10n ** 24n)).toThrow(RangeError);
  });
});

describe("validateInvoiceNumber", () => {
  it("accepts INV- plus 1 to 24 letters, digits or hyphens", () => {
    for (const value of ["INV-1", "INV-0001", "INV-20240101-AB12", `INV-${"x".repeat(24)}`]) {
      expect(validateInvoiceNumber(value)).toBe(value);
    }
    // 28 bytes: the longest text memo.
    expect(new TextEncoder().encode(`INV-${"A".repeat(24)}`).length).toBe(28);
  });

  it("rejects anything else with details.invoiceNumber", () => {
    for (const value of [
      "INV-",
      "inv-0001",
      "0001",
      "INV 0001",
      "INV-00_1",
      `INV-${"x".repeat(25)}`,
      "INV-é",
      null,
      1,
    ]) {
      let thrown: unknown;
      try {
        validateInvoiceNumber(value);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, String(value)).toBeInstanceOf(ValidationError);
      expect((thrown as ValidationError).details).toHaveProperty("invoiceNumber");
    }
  });
});

describe("generatedSequenceOf", () => {
  it("reads back exactly the numbers formatInvoiceNumber makes", () => {
    expect(generatedSequenceOf("INV-0042")).toBe(42n);
    expect(generatedSequenceOf("INV-10000")).toBe(10000n);
    for (const other of ["INV-42", "INV-00042", "INV-0000", "INV-CUSTOM", "INV-0042-A", "X-0042"]) {
      expect(generatedSequenceOf(other), other).toBeNull();
    }
  });
});

describe("firstFreeSequence", () => {
  it("skips the wallet's numbers that look generated, from `from` on", () => {
    expect(firstFreeSequence(3n, [])).toBe(3n);
    expect(firstFreeSequence(3n, ["INV-0003", "INV-0004", "INV-0006"])).toBe(5n);
    expect(firstFreeSequence(3n, ["INV-3", "INV-00003", "INV-0002"])).toBe(3n);
    expect(firstFreeSequence(9999n, ["INV-9999", "INV-10000"])).toBe(10001n);
  });
});
