import { describe, expect, it } from "vitest";
import { failedOperationSends, LEDGER_MESSAGES, ledgerError } from "./errors";

describe("ledger messages", () => {
  it("op_underfunded names the asset sent; XLM keeps the spec's words (issue 28, item 3)", () => {
    expect(ledgerError("op_underfunded").message).toBe(
      "Insufficient balance. Make sure the wallet has enough XLM for amount, reserve, and fees.",
    );
    expect(ledgerError("op_underfunded", "XLM").message).toBe(LEDGER_MESSAGES.op_underfunded);
    expect(ledgerError("op_underfunded", "USDC").message).toBe(
      "Insufficient balance. Make sure the wallet has enough USDC for the amount, and XLM for reserve and fees.",
    );
    expect(ledgerError("op_underfunded", "USDC").code).toBe("op_underfunded");
    // Other codes are not about the asset sent.
    expect(ledgerError("op_no_trust", "USDC").message).toBe(LEDGER_MESSAGES.op_no_trust);
  });

  it("the asset of the operation that failed", () => {
    expect(failedOperationSends(["op_success", "op_underfunded"], ["XLM", "USDC"])).toBe("USDC");
    expect(failedOperationSends(["op_underfunded"], ["EURC"])).toBe("EURC");
    expect(failedOperationSends([], ["USDC"])).toBe("USDC");
    expect(failedOperationSends([], ["XLM", "USDC"])).toBeNull();
  });
});
