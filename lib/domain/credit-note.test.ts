import { describe, expect, it } from "vitest";
import {
  type CreditableInvoice,
  computeCredit,
  formatCreditNoteNumber,
  type PriorCredit,
  payableTotal,
} from "./credit-note";
import { ValidationError } from "./errors";
import { computeInvoiceTotals } from "./tax";

/** An invoice as create stores it: its totals from computeInvoiceTotals. */
function invoice(
  lines: { quantity: string; rate: string; taxRate?: string; taxCategory?: "S" | "Z" }[],
  opts: { taxRate?: string; discount?: string; fiat?: boolean } = {},
): CreditableInvoice {
  const totals = computeInvoiceTotals(
    { lineItems: lines, taxRate: opts.taxRate ?? "0", discount: opts.discount },
    { scale: opts.fiat ? 2 : 7 },
  );
  const perLine = lines.some((l) => l.taxRate);
  return {
    invoiceNumber: "INV-0001",
    lineItems: totals.lineItems.map((l, i) => ({
      id: `line${i}`,
      description: `Line ${i}`,
      quantity: l.quantity,
      rate: l.rate,
      amount: l.amount,
      taxRate: lines[i].taxRate ?? null,
      taxCategory: lines[i].taxCategory ?? null,
      exemptionReason: null,
      exemptionReasonCode: null,
    })),
    taxRate: totals.taxRate,
    subtotal: totals.subtotal,
    discount: totals.discount,
    taxAmount: totals.taxAmount,
    total: totals.total,
    taxBreakdown: perLine ? totals.taxBreakdown : null,
    priceCurrency: opts.fiat ? "EUR" : null,
  };
}

const asPrior = (c: ReturnType<typeof computeCredit>): PriorCredit => c;
const sum = (values: string[]) =>
  values.reduce((s, v) => s + BigInt(v.replace(".", "")), 0n).toString();

describe("credit note numbers", () => {
  it("are CN- and at least four digits", () => {
    expect(formatCreditNoteNumber(1)).toBe("CN-0001");
    expect(formatCreditNoteNumber(12345n)).toBe("CN-12345");
  });
});

describe("computeCredit", () => {
  // 19 %, 7 % and 0 % lines with a discount lowering the base (docs/decisions.md, Tax per line).
  const mixed = invoice(
    [
      { quantity: "3", rate: "100", taxRate: "19" },
      { quantity: "2", rate: "33.3333333", taxRate: "7" },
      { quantity: "1", rate: "50", taxRate: "0", taxCategory: "Z" },
    ],
    { discount: "10" },
  );

  it("a full credit is the invoice itself, to the stroop", () => {
    const c = computeCredit(mixed, [], {});
    expect(c.kind).toBe("FULL");
    expect(c.total).toBe(mixed.total);
    expect(c.taxAmount).toBe(mixed.taxAmount);
    expect(c.discount).toBe(mixed.discount);
    expect(c.taxBreakdown).toEqual(mixed.taxBreakdown);
    expect(c.lines.map((l) => l.quantity)).toEqual(["3.00", "2.00", "1.00"]);
  });

  it("credits chosen lines with the invoice's rules: the line's rate and a share of the discount", () => {
    const c = computeCredit(mixed, [], { lines: [{ lineIndex: 0, quantity: "1" }] });
    expect(c.kind).toBe("LINES");
    expect(c.subtotal).toBe("100.0000000");
    // discount share 10 x 100 / 416.6666666 = 2.4000000 (half up), tax 19 % of 97.6 = 18.544
    expect(c.discount).toBe("2.4000000");
    expect(c.taxBreakdown).toEqual([
      expect.objectContaining({
        category: "S",
        rate: "19.00",
        taxableAmount: "97.6000000",
        taxAmount: "18.5440000",
      }),
    ]);
    expect(c.total).toBe("116.1440000");
    expect(c.lines[0]).toMatchObject({
      lineItemId: "line0",
      quantity: "1.00",
      amount: "100.0000000",
      taxRate: "19",
    });
  });

  it("partial credits then the rest add up to the invoice exactly", () => {
    const first = computeCredit(mixed, [], { lines: [{ lineItemId: "line1", quantity: "1" }] });
    const second = computeCredit(mixed, [asPrior(first)], { amount: "20" });
    const rest = computeCredit(mixed, [asPrior(first), asPrior(second)], {});
    expect(sum([first.total, second.total, rest.total])).toBe(sum([mixed.total]));
    expect(sum([first.taxAmount, second.taxAmount, rest.taxAmount])).toBe(sum([mixed.taxAmount]));
    for (const row of mixed.taxBreakdown ?? []) {
      const credited = [first, second, rest].flatMap((c) =>
        c.taxBreakdown.filter((r) => r.category === row.category && r.rate === row.rate),
      );
      expect(sum(credited.map((r) => r.taxableAmount))).toBe(sum([row.taxableAmount]));
      expect(sum(credited.map((r) => r.taxAmount))).toBe(sum([row.taxAmount]));
    }
    // Nothing left: a further credit is refused, naming the field.
    expect(() => computeCredit(mixed, [first, second, rest].map(asPrior), { amount: "1" })).toThrow(
      ValidationError,
    );
  });

  it("an amount is the credit note's total, shared among the rates, each carrying its rate", () => {
    const c = computeCredit(mixed, [], { amount: "100" });
    expect(c.kind).toBe("AMOUNT");
    expect(c.total).toBe("100.0000000");
    expect(sum(c.taxBreakdown.map((r) => r.taxableAmount))).toBe(sum([c.subtotal]));
    expect(BigInt(sum([c.subtotal])) + BigInt(sum([c.taxAmount]))).toBe(BigInt(sum([c.total])));
    expect(c.taxBreakdown.map((r) => r.rate)).toEqual(["19.00", "7.00", "0.00"]);
    expect(c.lines.every((l) => l.taxCategory !== null && l.taxRate !== null)).toBe(true);
  });

  it("refuses more than is left, naming the field", () => {
    const over = (
      req: Parameters<typeof computeCredit>[2],
      field: string,
      prior: PriorCredit[] = [],
    ) => {
      try {
        computeCredit(mixed, prior, req);
        throw new Error("no error");
      } catch (e) {
        expect(e).toBeInstanceOf(ValidationError);
        expect(Object.keys((e as ValidationError).details ?? {})).toContain(field);
      }
    };
    over({ lines: [{ lineIndex: 0, quantity: "4" }] }, "lines.0.quantity");
    over({ lines: [{ lineIndex: 7 }] }, "lines.0.lineIndex");
    over({ amount: "100000" }, "amount");
    const two = computeCredit(mixed, [], { lines: [{ lineIndex: 0, quantity: "2" }] });
    over({ lines: [{ lineIndex: 0, quantity: "1.01" }] }, "lines.0.quantity", [two]);
    over({ lines: [{ lineIndex: 0 }], amount: "1" }, "amount");
  });

  it("the spec's formula (one rate, discount after tax) is kept for an invoice without line taxes", () => {
    const plain = invoice([{ quantity: "2", rate: "100" }], { taxRate: "10", discount: "20" });
    expect(plain.total).toBe("200.0000000");
    const c = computeCredit(plain, [], { lines: [{ lineIndex: 0, quantity: "1" }] });
    // net 100, tax 10, discount share 10 after tax
    expect([c.subtotal, c.taxAmount, c.discount, c.total]).toEqual([
      "100.0000000",
      "10.0000000",
      "10.0000000",
      "100.0000000",
    ]);
    const rest = computeCredit(plain, [c], {});
    expect(rest.total).toBe("100.0000000");
  });

  it("a fiat-priced invoice is credited in cents", () => {
    const fiat = invoice([{ quantity: "3", rate: "33.33" }], { taxRate: "19", fiat: true });
    const c = computeCredit(fiat, [], { amount: "10" });
    expect(c.taxBreakdown[0].taxableAmount).toBe("8.4000000");
    expect(c.taxBreakdown[0].taxAmount).toBe("1.6000000");
    expect(() => computeCredit(fiat, [], { amount: "1.005" })).toThrow(ValidationError);
  });
});

describe("payableTotal", () => {
  it("is the total less what was credited, never below 0", () => {
    expect(payableTotal({ total: "100", amountCredited: "30.5" })).toBe("69.5000000");
    expect(payableTotal({ total: "100", amountCredited: "100" })).toBe("0.0000000");
    expect(payableTotal({ total: "100" })).toBe("100.0000000");
  });
});
