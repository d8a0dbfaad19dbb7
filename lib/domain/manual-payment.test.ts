import { describe, expect, it } from "vitest";
import { ValidationError } from "./errors";
import {
  assertManualAmountFits,
  isFutureDate,
  MANUAL_AMOUNT_CENTS,
  parseReceivedOn,
} from "./manual-payment";

const details = (f: () => void) => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as ValidationError).details;
  }
  throw new Error("expected a ValidationError");
};

describe("received-on dates", () => {
  it("takes real calendar dates only", () => {
    expect(parseReceivedOn("2026-01-15")?.toISOString()).toBe("2026-01-15T00:00:00.000Z");
    expect(parseReceivedOn("2026-02-30")).toBeNull();
    expect(parseReceivedOn("2026-1-5")).toBeNull();
    expect(parseReceivedOn("2026-01-15T10:00:00Z")).toBeNull();
  });

  it("is in the future only while no time zone has reached the date (UTC+14)", () => {
    const now = new Date("2026-01-15T09:59:59Z");
    expect(isFutureDate(parseReceivedOn("2026-01-15") as Date, now)).toBe(false);
    // 2026-01-16 begins at UTC+14 at 2026-01-15T10:00Z.
    expect(isFutureDate(parseReceivedOn("2026-01-16") as Date, now)).toBe(true);
    expect(
      isFutureDate(parseReceivedOn("2026-01-16") as Date, new Date("2026-01-15T10:00:00Z")),
    ).toBe(false);
  });
});

describe("the amount against the invoice", () => {
  const xlm = { total: "100.0000000", amountPaid: "40.0000000", priceCurrency: null };
  const eur = { total: "200.0000000", amountPaid: "80.9949000", priceCurrency: "EUR" };

  it("accepts up to the amount due, exactly", () => {
    expect(() => assertManualAmountFits("60.0000000", xlm)).not.toThrow();
    expect(details(() => assertManualAmountFits("60.0000001", xlm))).toEqual({
      amount: "must be at most 60, the amount due",
    });
  });

  it("a fiat-priced invoice: whole cents, up to the amount due as shown (in cents)", () => {
    expect(details(() => assertManualAmountFits("1.0050000", eur))).toEqual({
      amount: MANUAL_AMOUNT_CENTS,
    });
    // 80.9949 paid counts as 80.99: 119.01 is due and may be recorded.
    expect(() => assertManualAmountFits("119.0100000", eur)).not.toThrow();
    expect(details(() => assertManualAmountFits("119.0200000", eur))).toEqual({
      amount: "must be at most 119.01, the amount due",
    });
  });
});
