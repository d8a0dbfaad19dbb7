import { describe, expect, it } from "vitest";
import { BusinessRuleError, ValidationError } from "./errors";
import {
  isExactRefund,
  NOTHING_TO_REFUND,
  REFUND_AMOUNT_REQUIRED,
  REFUND_EXCEEDS_RECEIVED,
  refundAmount,
  refundableStroops,
  refundEffect,
  refundIdOfMemo,
  refundMemo,
} from "./refund";

const payment = (
  amount: string,
  over: Partial<{ amountRefunded: string; applied: boolean }> = {},
) => ({
  amount,
  amountRefunded: "0",
  applied: true,
  ...over,
});
const paid = { status: "PAID" as const, total: "25", amountPaid: "30" };

describe("refund memo", () => {
  it("is RF- plus the id, within 28 bytes, and reads back", () => {
    const id = "clx8f2k9p0000abcd1234efg";
    expect(refundMemo(id)).toBe(`RF-${id}`);
    expect(refundIdOfMemo(`RF-${id}`)).toBe(id);
    expect(refundIdOfMemo("INV-0001")).toBeNull();
    expect(refundIdOfMemo("RF-short")).toBeNull();
    expect(refundIdOfMemo(null)).toBeNull();
    expect(() => refundMemo("x".repeat(26))).toThrow(/28 bytes/);
  });
});

describe("refundAmount", () => {
  it("defaults to the overpaid part of a PAID invoice", () => {
    expect(refundAmount(payment("30"), paid, [])).toBe("5.0000000");
  });

  it("caps the overpaid part by what this payment can still refund", () => {
    expect(refundAmount(payment("3"), paid, [])).toBe("3.0000000");
    expect(refundAmount(payment("30", { amountRefunded: "28" }), paid, [])).toBe("2.0000000");
    expect(refundAmount(payment("30"), paid, ["27"])).toBe("3.0000000");
  });

  it("defaults to the whole payment when unapplied, or applied to an invoice not PAID", () => {
    expect(refundAmount(payment("7", { applied: false }), paid, [])).toBe("7.0000000");
    const partial = { status: "PROCESSING" as const, total: "25", amountPaid: "10" };
    expect(refundAmount(payment("10"), partial, [])).toBe("10.0000000");
    expect(refundAmount(payment("10", { amountRefunded: "4" }), partial, [])).toBe("6.0000000");
  });

  it("needs an amount for a PAID invoice that was not overpaid", () => {
    const exact = { status: "PAID" as const, total: "25", amountPaid: "25" };
    expect(() => refundAmount(payment("25"), exact, [])).toThrow(REFUND_AMOUNT_REQUIRED);
    expect(() => refundAmount(payment("25"), exact, [])).toThrow(ValidationError);
    expect(refundAmount(payment("25"), exact, [], "25.0000000")).toBe("25.0000000");
  });

  it("never exceeds the amount received less refunds, settled or open", () => {
    expect(refundAmount(payment("30"), paid, [], "30")).toBe("30.0000000");
    const over = () => refundAmount(payment("30"), paid, [], "30.0000001");
    expect(over).toThrow(REFUND_EXCEEDS_RECEIVED);
    expect(over).toThrow(BusinessRuleError);
    expect(() =>
      refundAmount(payment("30", { amountRefunded: "5" }), paid, ["20"], "5.0000001"),
    ).toThrow(REFUND_EXCEEDS_RECEIVED);
    expect(refundAmount(payment("30", { amountRefunded: "5" }), paid, ["20"], "5")).toBe(
      "5.0000000",
    );
  });

  it("has nothing to refund once the payment is refunded in full", () => {
    expect(() => refundAmount(payment("30", { amountRefunded: "30" }), paid, [])).toThrow(
      NOTHING_TO_REFUND,
    );
    expect(refundableStroops(payment("30", { amountRefunded: "30" }), ["1"])).toBe(0n);
  });
});

describe("refundEffect", () => {
  it("a partial refund of applied money lowers amountPaid; the payment stays CONFIRMED", () => {
    expect(refundEffect(payment("30"), { amountPaid: "30" }, "5")).toEqual({
      payment: { amountRefunded: "5.0000000", status: "CONFIRMED" },
      amountPaid: "25.0000000",
    });
  });

  it("the whole payment refunded: REFUNDED", () => {
    expect(refundEffect(payment("10"), { amountPaid: "10" }, "10")).toEqual({
      payment: { amountRefunded: "10.0000000", status: "REFUNDED" },
      amountPaid: "0.0000000",
    });
    expect(
      refundEffect(payment("10", { amountRefunded: "4" }), { amountPaid: "6" }, "6").payment,
    ).toEqual({ amountRefunded: "10.0000000", status: "REFUNDED" });
  });

  it("unapplied money never touches amountPaid", () => {
    expect(refundEffect(payment("7", { applied: false }), { amountPaid: "25" }, "7")).toEqual({
      payment: { amountRefunded: "7.0000000", status: "REFUNDED" },
      amountPaid: "25.0000000",
    });
  });
});

describe("a refund beyond what the payment still had (issue 27, item 15)", () => {
  // A refund marked FAILED (or EXPIRED) no longer holds its amount; another refund took it,
  // and then the first reached the ledger anyway: both moved money, the payment had 10.
  it("counts only what was left; the rest is beyondReceived, amountPaid loses only that", () => {
    expect(
      refundEffect(payment("10", { amountRefunded: "10" }), { amountPaid: "25" }, "10"),
    ).toEqual({
      payment: { amountRefunded: "10.0000000", status: "REFUNDED" },
      amountPaid: "25.0000000",
      beyondReceived: "10.0000000",
    });
    expect(
      refundEffect(payment("10", { amountRefunded: "4" }), { amountPaid: "31" }, "10"),
    ).toEqual({
      payment: { amountRefunded: "10.0000000", status: "REFUNDED" },
      amountPaid: "25.0000000",
      beyondReceived: "4.0000000",
    });
  });

  it("a late refund that still fits counts whole, as any refund", () => {
    const effect = refundEffect(payment("10", { amountRefunded: "4" }), { amountPaid: "6" }, "6");
    expect(effect).toEqual({
      payment: { amountRefunded: "10.0000000", status: "REFUNDED" },
      amountPaid: "0.0000000",
    });
    expect(effect.beyondReceived).toBeUndefined();
  });

  it("on a fiat-priced invoice, only the counted part's value leaves amountPaid", () => {
    const fiat = { amount: "800", amountRefunded: "500", applied: true, priceValue: "160.00" };
    expect(refundEffect(fiat, { amountPaid: "160" }, "800")).toEqual({
      payment: { amountRefunded: "800.0000000", status: "REFUNDED" },
      amountPaid: "100.0000000",
      beyondReceived: "500.0000000",
    });
  });
});

describe("isExactRefund", () => {
  const refund = {
    wallet: "GFREELANCER",
    destination: "GPAYER",
    amount: "5.0000000",
    asset: "USDC",
    assetIssuer: "GISSUER",
    memo: "RF-abc",
  };
  const op = {
    type: "payment",
    to: "GPAYER",
    amount: "5",
    assetCode: "USDC",
    assetIssuer: "GISSUER",
  };
  const tx = { sourceAccount: "GFREELANCER", memoType: "text", memo: "RF-abc", operations: [op] };

  it("accepts the refund as built", () => {
    expect(isExactRefund(refund, tx)).toBe(true);
  });

  it.each([
    ["source", { sourceAccount: "GOTHER" }],
    ["memo", { memo: "RF-abd" }],
    ["memo type", { memoType: "id" }],
    ["destination", { operations: [{ ...op, to: "GOTHER" }] }],
    ["amount", { operations: [{ ...op, amount: "5.0000001" }] }],
    ["asset code", { operations: [{ ...op, assetCode: "EURC" }] }],
    ["issuer", { operations: [{ ...op, assetIssuer: "GFAKE" }] }],
    ["operation type", { operations: [{ ...op, type: "path_payment_strict_send" }] }],
    ["operation source", { operations: [{ ...op, from: "GOTHER" }] }],
    ["a second operation", { operations: [op, op] }],
  ])("refuses another %s", (_, change) => {
    expect(isExactRefund(refund, { ...tx, ...change })).toBe(false);
  });
});

describe("isExactRefund: to a smart wallet's contract address (C...)", () => {
  const wallet = `C${"A".repeat(55)}`;
  const refund = {
    wallet: "GFREELANCER",
    destination: wallet,
    amount: "5.0000000",
    asset: "USDC",
    assetIssuer: "GISSUER",
    memo: "RF-abc",
  };
  const op = {
    type: "contract_transfer",
    from: "GFREELANCER",
    to: wallet,
    amount: "5",
    assetCode: "USDC",
    assetIssuer: "GISSUER",
  };
  const tx = { sourceAccount: "GFREELANCER", memoType: "none", memo: null, operations: [op] };

  it("accepts the asset contract transfer as built, without a memo", () => {
    expect(isExactRefund(refund, tx)).toBe(true);
  });

  it.each([
    ["a classic payment", { operations: [{ ...op, type: "payment" }] }],
    ["a memo", { memoType: "text", memo: "RF-abc" }],
    ["source", { sourceAccount: "GOTHER" }],
    ["transfer source", { operations: [{ ...op, from: `C${"B".repeat(55)}` }] }],
    ["destination", { operations: [{ ...op, to: `C${"B".repeat(55)}` }] }],
    ["amount", { operations: [{ ...op, amount: "5.0000001" }] }],
    ["issuer", { operations: [{ ...op, assetIssuer: "GFAKE" }] }],
    ["a second operation", { operations: [op, op] }],
  ])("refuses %s", (_, change) => {
    expect(isExactRefund(refund, { ...tx, ...change })).toBe(false);
  });
});

describe("refunds of a fiat-priced invoice's payment", () => {
  // 800 XLM paid late at 0.2 USD counted for 160.00 USD on a 100.00 USD invoice.
  const payment = {
    amount: "800.0000000",
    amountRefunded: "0",
    applied: true,
    priceValue: "160.00",
  };
  const invoice = { status: "PAID" as const, total: "100.0000000", amountPaid: "160.0000000" };

  it("sends back the overpaid fiat as the asset the payment carried", () => {
    expect(refundAmount(payment, invoice, [])).toBe("300.0000000");
  });

  it("takes the refunded share of the payment's value off amountPaid, not its asset amount", () => {
    expect(refundEffect(payment, invoice, "300.0000000")).toEqual({
      payment: { amountRefunded: "300.0000000", status: "CONFIRMED" },
      amountPaid: "100.0000000",
    });
    expect(refundEffect(payment, invoice, "800").amountPaid).toBe("0.0000000");
  });
});

describe("a dust payment on a fiat-priced invoice (re-review finding)", () => {
  it("is refunded whole by default and leaves amountPaid alone, never a division by zero", () => {
    const dust = {
      amount: "0.0000003",
      amountRefunded: "0",
      applied: true,
      priceValue: "0.0000000",
    };
    const invoice = { status: "PAID" as const, total: "1.0000000", amountPaid: "1.0625000" };
    expect(refundAmount(dust, invoice, [])).toBe("0.0000003");
    expect(refundEffect(dust, invoice, "0.0000003")).toEqual({
      payment: { amountRefunded: "0.0000003", status: "REFUNDED" },
      amountPaid: "1.0625000",
    });
  });
});
