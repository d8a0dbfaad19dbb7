import { describe, expect, it } from "vitest";
import { amountDue, amountOverpaid } from "./money";

describe("amountDue and amountOverpaid", () => {
  it("are exact to the stroop and never negative", () => {
    expect(amountDue("25", "10")).toBe("15.0000000");
    expect(amountDue("25.0000000", "0")).toBe("25.0000000");
    expect(amountDue("25", "24.9999999")).toBe("0.0000001");
    expect(amountDue("25", "25.0000000")).toBe("0.0000000");
    expect(amountDue("25", "30")).toBe("0.0000000");
    expect(amountOverpaid("25", "30.0000001")).toBe("5.0000001");
    expect(amountOverpaid("25", "25")).toBe("0.0000000");
    expect(amountOverpaid("25", "10")).toBe("0.0000000");
    // Sums a float would get wrong.
    expect(amountDue("0.3", "0.1")).toBe("0.2000000");
    expect(amountOverpaid("99999999999.9999998", "99999999999.9999999")).toBe("0.0000001");
  });
});
