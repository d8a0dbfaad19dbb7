import { describe, expect, it } from "vitest";
import { toStroops } from "./money";
import { buildStatement, refundValues, type StatementEntry } from "./statement";

const day = (d: string) => new Date(`${d}T12:00:00Z`);
const e = (
  kind: StatementEntry["kind"],
  date: string,
  amount: string,
  currency = "XLM",
  reference = `${kind}-${date}`,
): StatementEntry => ({
  kind,
  at: day(date),
  currency,
  amount,
  reference,
  invoiceId: "inv",
  invoiceNumber: "INV-0001",
});

const entries: StatementEntry[] = [
  e("invoice", "2026-01-05", "100.0000001"),
  e("payment", "2026-01-10", "40.0000000"),
  e("invoice", "2026-02-01", "50"),
  e("payment", "2026-02-03", "60.0000001"),
  e("payment", "2026-02-04", "70"), // overpays by 20
  e("refund", "2026-02-05", "20"),
  e("credit_note", "2026-02-06", "10.5"),
  e("invoice", "2026-02-07", "12.34", "USDC"),
  e("payment", "2026-03-01", "5", "USDC"),
];

describe("buildStatement", () => {
  it("closing = opening + invoiced - paid + refunded - credited, to the stroop, per currency", () => {
    const blocks = buildStatement(
      entries,
      new Date("2026-02-01T00:00:00Z"),
      new Date("2026-03-01T00:00:00Z"),
    );
    expect(blocks.map((b) => b.currency)).toEqual(["USDC", "XLM"]);
    const xlm = blocks[1];
    expect(xlm.openingBalance).toBe("60.0000001");
    expect(xlm.invoiced).toBe("50.0000000");
    expect(xlm.paid).toBe("130.0000001");
    expect(xlm.refunded).toBe("20.0000000");
    expect(xlm.credited).toBe("10.5000000");
    expect(xlm.closingBalance).toBe("-10.5000000");
    for (const b of blocks) {
      const closing =
        toStroops(b.openingBalance) +
        toStroops(b.invoiced) -
        toStroops(b.paid) +
        toStroops(b.refunded) -
        toStroops(b.credited);
      expect(toStroops(b.closingBalance)).toBe(closing);
      expect(b.lines.at(-1)?.balance ?? b.openingBalance).toBe(b.closingBalance);
    }
    // The payment of 1 March is after the period (to is exclusive).
    expect(blocks[0]).toMatchObject({ openingBalance: "0.0000000", closingBalance: "12.3400000" });
    expect(xlm.lines.map((l) => [l.kind, l.balance])).toEqual([
      ["invoice", "110.0000001"],
      ["payment", "50.0000000"],
      ["payment", "-20.0000000"],
      ["refund", "0.0000000"],
      ["credit_note", "-10.5000000"],
    ]);
  });

  it("a later period opens where the earlier one closed", () => {
    const jan = buildStatement(
      entries,
      new Date("2026-01-01T00:00:00Z"),
      new Date("2026-02-01T00:00:00Z"),
    );
    const feb = buildStatement(
      entries,
      new Date("2026-02-01T00:00:00Z"),
      new Date("2026-03-01T00:00:00Z"),
    );
    expect(jan.map((b) => b.currency)).toEqual(["XLM"]);
    expect(feb.find((b) => b.currency === "XLM")?.openingBalance).toBe(jan[0].closingBalance);
  });

  it("a currency with no opening balance and no line is left out; lines in date order", () => {
    const blocks = buildStatement(
      [
        e("payment", "2026-01-02", "1"),
        e("invoice", "2026-01-02", "1"),
        e("invoice", "2025-12-01", "3"),
      ],
      new Date("2026-01-01T00:00:00Z"),
      new Date("2026-01-03T00:00:00Z"),
    );
    expect(blocks).toHaveLength(1);
    expect(blocks[0].lines.map((l) => l.kind)).toEqual(["invoice", "payment"]);
    expect(blocks[0].openingBalance).toBe("3.0000000");
    expect(
      buildStatement([e("invoice", "2026-05-01", "1")], day("2026-01-01"), day("2026-02-01")),
    ).toEqual([]);
  });
});

describe("refundValues", () => {
  it("counts only what the payment still had, in order", () => {
    expect(
      refundValues({ amount: "10", amountRefunded: "0", applied: true }, ["4", "7", "1"]),
    ).toEqual(["4.0000000", "6.0000000", "0.0000000"]);
  });
  it("values a fiat-priced invoice's refund at its share of priceValue", () => {
    expect(
      refundValues({ amount: "30", amountRefunded: "0", applied: true, priceValue: "10.0000000" }, [
        "10",
      ]),
    ).toEqual(["3.3333333"]);
  });
  it("a refund of a payment that was not applied takes nothing off the account", () => {
    expect(refundValues({ amount: "5", amountRefunded: "0", applied: false }, ["5"])).toEqual([
      "0.0000000",
    ]);
  });
});
