import { describe, expect, it } from "vitest";
import { cheapestPath, cheapestPerAsset, type PaymentPath, sendMaxFor } from "./paths";

const XLM = { code: "XLM", issuer: null };
const EURC = { code: "EURC", issuer: "GEURC" };
const path = (
  sendAsset: typeof XLM | typeof EURC,
  sourceAmount: string,
  hops = 0,
): PaymentPath => ({
  sendAsset,
  sourceAmount,
  destAmount: "10.0000000",
  path: Array.from({ length: hops }, () => XLM),
});

describe("sendMaxFor (docs/decisions.md, Path payments)", () => {
  it("adds the slippage in basis points, rounded up to the stroop, exactly", () => {
    expect(sendMaxFor("250", 100)).toBe("252.5000000");
    expect(sendMaxFor("12.3456789", 100)).toBe("12.4691357"); // 12.469135689 up
    expect(sendMaxFor("0.0000001", 100)).toBe("0.0000002"); // 0.000000101 up
    expect(sendMaxFor("9.0000000", 0)).toBe("9.0000000");
    expect(sendMaxFor("99999999999.9999999", 1)).toBe("100009999999.9999999");
    expect(sendMaxFor("1", 5000)).toBe("1.5000000");
  });
});

describe("cheapestPath", () => {
  it("the lowest source amount for the asset, fewer hops on a tie, null when none starts with it", () => {
    const paths = [
      path(EURC, "9.5", 1),
      path(XLM, "100"),
      path(EURC, "9.0000001"),
      path(EURC, "9.5"),
    ];
    expect(cheapestPath(paths, EURC)).toEqual(path(EURC, "9.0000001"));
    expect(cheapestPath([path(EURC, "9.5", 2), path(EURC, "9.5", 1)], EURC)?.path).toHaveLength(1);
    expect(cheapestPath(paths, { code: "USDC", issuer: "GUSDC" })).toBeNull();
    expect(cheapestPerAsset(paths).map((p) => p.sourceAmount)).toEqual(["9.0000001", "100"]);
  });
});
