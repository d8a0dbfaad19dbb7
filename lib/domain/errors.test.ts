import { describe, expect, it } from "vitest";
import {
  isDomainError,
  NotFoundError,
  RateLimitedError,
  retryAfterOf,
  UnavailableError,
} from "./errors";

describe("domain errors", () => {
  it("are recognised by their brand, also when the class comes from another bundle copy", () => {
    expect(isDomainError(new NotFoundError("Invoice not found"))).toBe(true);
    // What a second copy of the module produces: same brand and kind, a different class.
    const copy = Object.assign(new Error("Service temporarily unavailable"), {
      kind: "unavailable",
      [Symbol.for("stellar-invoicing.DomainError")]: true,
    });
    expect(isDomainError(copy)).toBe(true);
    expect(isDomainError(new Error("boom"))).toBe(false);
    expect(isDomainError({ kind: "unavailable" })).toBe(false);
    expect(
      isDomainError({ kind: "nonsense", [Symbol.for("stellar-invoicing.DomainError")]: true }),
    ).toBe(false);
    expect(isDomainError(null)).toBe(false);
  });

  it("only 429 kinds carry a Retry-After", () => {
    expect(retryAfterOf(new RateLimitedError("Too many requests", 7))).toBe(7);
    expect(retryAfterOf(new UnavailableError("down"))).toBeUndefined();
  });
});
