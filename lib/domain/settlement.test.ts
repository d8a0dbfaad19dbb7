import { describe, expect, it } from "vitest";
import {
  amountSettling,
  checkTolerance,
  isPaidInFull,
  parseTolerance,
  toleranceBasisPoints,
} from "./settlement";

describe("settlement", () => {
  it("is paid in full at the total without tolerance, one stroop short is not", () => {
    expect(isPaidInFull("25", "25")).toBe(true);
    expect(isPaidInFull("24.9999999", "25")).toBe(false);
    expect(isPaidInFull("0", "25", "0")).toBe(false);
  });

  it("compares exactly with a tolerance: one stroop either side of the boundary", () => {
    // 100 x (1 - 1.5 / 100) = 98.5
    expect(isPaidInFull("98.5", "100", "1.5")).toBe(true);
    expect(isPaidInFull("98.4999999", "100", "1.5")).toBe(false);
    // 1001 x 0.9999 = 1000.8999: exact, no rounding
    expect(isPaidInFull("1000.8999", "1001", "0.01")).toBe(true);
    expect(isPaidInFull("1000.8998999", "1001", "0.01")).toBe(false);
    // A boundary that is not a whole stroop rounds up: 0.0000003 x 0.95 = 0.000000285
    expect(amountSettling("0.0000003", "5")).toBe("0.0000003");
    expect(isPaidInFull("0.0000002", "0.0000003", "5")).toBe(false);
    expect(amountSettling("100", "1.5")).toBe("98.5000000");
  });

  it("parses tolerances: 0 to 5, two decimals", () => {
    expect(parseTolerance("1.5")).toBe("1.50");
    expect(parseTolerance(0)).toBe("0.00");
    expect(toleranceBasisPoints("4.99")).toBe(499n);
    expect(toleranceBasisPoints(null)).toBe(0n);
    expect(checkTolerance("5").ok).toBe(true);
    expect(checkTolerance("5.01").ok).toBe(false);
    expect(checkTolerance("1.234").ok).toBe(false);
    expect(checkTolerance("-1").ok).toBe(false);
    expect(() => parseTolerance("6")).toThrow(/paymentTolerance/);
  });
});
