import { describe, expect, it } from "vitest";
import { ValidationError } from "./errors";
import {
  CHECKOUT_AMOUNT_FIXED,
  CHECKOUT_AMOUNT_REQUIRED,
  checkoutAmount,
  checkoutNumber,
  hasReceived,
  holdUntil,
  paymentLimit,
  paymentTakesPlace,
  takesCheckouts,
} from "./link-payments";

const link = (over: Partial<Parameters<typeof checkoutAmount>[0]> = {}) => ({
  linkReusable: false,
  linkOpenAmount: true,
  linkMaxPayments: null,
  linkMinAmount: null,
  priceCurrency: null,
  activateNewAccounts: false,
  total: "0.0000000",
  ...over,
});

function details(fn: () => unknown): Record<string, string> | undefined {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as ValidationError).details;
  }
  throw new Error("expected a ValidationError");
}

describe("reusable and open-amount links", () => {
  it("only reusable or open-amount links take checkouts; single use is one payment", () => {
    expect(takesCheckouts(link({ linkOpenAmount: false }))).toBe(false);
    expect(takesCheckouts(link())).toBe(true);
    expect(takesCheckouts(link({ linkOpenAmount: false, linkReusable: true }))).toBe(true);
    expect(paymentLimit(link())).toBe(1);
    expect(paymentLimit(link({ linkReusable: true }))).toBeNull();
    expect(paymentLimit(link({ linkReusable: true, linkMaxPayments: 5 }))).toBe(5);
  });

  it("an open amount: required, positive, at least the minimum, at the unit's precision", () => {
    expect(details(() => checkoutAmount(link(), undefined))).toEqual({
      amount: CHECKOUT_AMOUNT_REQUIRED,
    });
    expect(checkoutAmount(link(), "3.1234567")).toBe("3.1234567");
    expect(checkoutAmount(link(), 3.5)).toBe("3.5000000");
    expect(details(() => checkoutAmount(link(), "3.12345678"))?.amount).toMatch(/7 decimal/);
    expect(details(() => checkoutAmount(link(), "0"))?.amount).toMatch(/greater than 0/);
    const min = link({ linkMinAmount: "2.5000000" });
    expect(details(() => checkoutAmount(min, "2.4999999"))).toEqual({
      amount: "must be at least 2.5",
    });
    expect(checkoutAmount(min, "2.5")).toBe("2.5000000");
    const fiat = link({ priceCurrency: "USD" });
    expect(details(() => checkoutAmount(fiat, "1.005"))?.amount).toMatch(/2 decimal/);
    expect(checkoutAmount(fiat, "1.01")).toBe("1.0100000");
    const activating = link({ activateNewAccounts: true });
    expect(details(() => checkoutAmount(activating, "0.9"))?.amount).toMatch(/1 XLM/);
  });

  it("a fixed amount is the link's: the payer sends none", () => {
    const fixed = link({ linkOpenAmount: false, linkReusable: true, total: "7.0000000" });
    expect(checkoutAmount(fixed, undefined)).toBe("7.0000000");
    expect(details(() => checkoutAmount(fixed, "1"))).toEqual({ amount: CHECKOUT_AMOUNT_FIXED });
  });
});

describe("checkout numbers and places", () => {
  it("a checkout is numbered in its link's series, within a text memo", () => {
    expect(checkoutNumber("INV-0042", 1)).toBe("INV-0042-1");
    expect(checkoutNumber("INV-0042", 10_000)).toBe("INV-0042-10000");
    expect(() => checkoutNumber("INV-0042", 0)).toThrow(RangeError);
    expect(() => checkoutNumber(`INV-${"9".repeat(20)}`, 12_345)).toThrow(RangeError);
  });

  it("money received holds a place for good", () => {
    expect(hasReceived({ status: "PENDING", amountPaid: "0.0000000" })).toBe(false);
    expect(hasReceived({ status: "PROCESSING", amountPaid: "0.0000001" })).toBe(true);
    expect(hasReceived({ status: "PAID", amountPaid: "0.0000000" })).toBe(true);
  });

  it("a hold lasts until the checkout expires, or while its transaction can land", () => {
    const t = (m: number) => new Date(Date.UTC(2026, 0, 1, 12, m));
    expect(holdUntil(t(30), t(5), null)).toEqual(t(30));
    expect(holdUntil(t(30), t(34), null)).toEqual(t(34));
    expect(holdUntil(t(30), t(5), t(40))).toEqual(t(40));
    expect(holdUntil(null, t(5), null)).toEqual(t(5));
  });

  it("a payment takes a place only while the link has one for it", () => {
    const places = { limit: 2, othersReceived: 0, othersHeld: 0, held: false };
    expect(paymentTakesPlace(places)).toBe(true);
    // Its own hold covers it, even when the others hold the rest.
    expect(paymentTakesPlace({ ...places, othersHeld: 1, othersReceived: 1, held: true })).toBe(
      true,
    );
    // Without a hold, the others' holds and payments take the places first.
    expect(paymentTakesPlace({ ...places, othersHeld: 1, othersReceived: 1 })).toBe(false);
    expect(paymentTakesPlace({ ...places, othersHeld: 1 })).toBe(true);
    // Never past the limit, whatever it held.
    expect(paymentTakesPlace({ ...places, othersReceived: 2, held: true })).toBe(false);
  });
});
