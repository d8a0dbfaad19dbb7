import { describe, expect, it } from "vitest";
import { ValidationError } from "@/lib/domain/errors";
import { parseWith } from "@/lib/http/body";
import { pricesQuerySchema } from "@/lib/schemas/prices";
import {
  derivationOf,
  deriveRate,
  isFreshEnough,
  MAX_QUOTE_AGE_MS,
  normalizeRate,
  PAIR_NAMES,
  parsePair,
} from "./pairs";
import { PriceSourceError, parsePrices, priceSources } from "./source";

describe("derivationOf: which rate each pair reads", () => {
  it.each([
    ["XLM-USD", { kind: "fetched", pair: "XLM-USD" }],
    ["XLM-EUR", { kind: "fetched", pair: "XLM-EUR" }],
    ["USDC-USD", { kind: "fixed" }],
    ["EURC-EUR", { kind: "fixed" }],
    ["EURC-USD", { kind: "fetched", pair: "EUR-USD" }],
    ["USDC-EUR", { kind: "inverse", pair: "EUR-USD" }],
  ])("%s", (name, derivation) => {
    expect(derivationOf(parsePair(name) as NonNullable<ReturnType<typeof parsePair>>)).toEqual(
      derivation,
    );
  });
});

describe("deriveRate: exact decimal strings", () => {
  it("a stablecoin in its own currency is exactly 1, whatever was fetched", () => {
    expect(deriveRate({ kind: "fixed" }, "1.0812")).toBe("1");
  });

  it("a fetched rate as stored, without the column's trailing zeros", () => {
    expect(deriveRate({ kind: "fetched", pair: "XLM-USD" }, "0.123400000000")).toBe("0.1234");
    expect(deriveRate({ kind: "fetched", pair: "EUR-USD" }, "1.080000000000")).toBe("1.08");
    expect(normalizeRate("0.000000000001")).toBe("0.000000000001");
    expect(normalizeRate("12.500000000000")).toBe("12.5");
  });

  it("an inverse rate to 12 decimals, rounded half up once", () => {
    const inverse = (x: string) => deriveRate({ kind: "inverse", pair: "EUR-USD" }, x);
    expect(inverse("1.08")).toBe("0.925925925926");
    expect(inverse("1.0812")).toBe("0.924898261191");
    expect(inverse("3")).toBe("0.333333333333");
    expect(inverse("1.25")).toBe("0.8");
    expect(inverse("1")).toBe("1");
    // 1 / 2e12 = 0.0000000000005: exactly half a unit of the 12th decimal rounds up.
    expect(inverse("2000000000000")).toBe("0.000000000001");
  });
});

describe("isFreshEnough: the 5-minute rule of quotes", () => {
  const now = new Date("2026-03-01T12:05:00.000Z");
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it("accepts a price up to exactly 5 minutes old and refuses one a millisecond older", () => {
    expect(MAX_QUOTE_AGE_MS).toBe(300_000);
    expect(isFreshEnough(ago(0), now, MAX_QUOTE_AGE_MS)).toBe(true);
    expect(isFreshEnough(ago(299_999), now, MAX_QUOTE_AGE_MS)).toBe(true);
    expect(isFreshEnough(ago(300_000), now, MAX_QUOTE_AGE_MS)).toBe(true);
    expect(isFreshEnough(ago(300_001), now, MAX_QUOTE_AGE_MS)).toBe(false);
    expect(isFreshEnough(ago(3_600_000), now, MAX_QUOTE_AGE_MS)).toBe(false);
  });

  it("tolerates another instance's clock a little ahead, not a timestamp far in the future", () => {
    expect(isFreshEnough(ago(-2_000), now, MAX_QUOTE_AGE_MS)).toBe(true);
    expect(isFreshEnough(ago(-300_001), now, MAX_QUOTE_AGE_MS)).toBe(false);
  });
});

describe("parsePair", () => {
  it("knows the six pairs and nothing else", () => {
    expect(PAIR_NAMES).toEqual([
      "XLM-USD",
      "XLM-EUR",
      "USDC-USD",
      "USDC-EUR",
      "EURC-USD",
      "EURC-EUR",
    ]);
    expect(parsePair("EURC-USD")).toEqual({ base: "EURC", quote: "USD" });
    for (const name of ["EUR-USD", "USD-XLM", "xlm-usd", "BTC-USD", "XLM", "XLM-USD-EUR", ""]) {
      expect(parsePair(name), name).toBeUndefined();
    }
  });
});

describe("the pairs query of GET /api/prices", () => {
  const parse = (query: Record<string, string>) => parseWith(pricesQuerySchema, query);

  it("defaults to all six pairs; keeps the order asked; drops repeats", () => {
    expect(parse({}).pairs.map((p) => `${p.base}-${p.quote}`)).toEqual([...PAIR_NAMES]);
    expect(parse({ pairs: "EURC-USD, XLM-USD,EURC-USD" }).pairs).toEqual([
      { base: "EURC", quote: "USD" },
      { base: "XLM", quote: "USD" },
    ]);
  });

  /** The ValidationError a query is refused with. */
  const refusal = (query: Record<string, string>): ValidationError => {
    try {
      parse(query);
    } catch (err) {
      if (err instanceof ValidationError) return err;
      throw err;
    }
    throw new Error(`accepted ${JSON.stringify(query)}`);
  };

  it("refuses unknown pairs and assets with details naming them", () => {
    expect(refusal({ pairs: "XLM-USD,BTC-USD,DOGE-EUR" })).toMatchObject({
      message: "Invalid request",
      details: {
        pairs:
          'Unknown pair "BTC-USD", "DOGE-EUR": use XLM-USD,XLM-EUR,USDC-USD,USDC-EUR,EURC-USD,EURC-EUR',
      },
    });
    for (const pairs of ["xlm-usd", "EUR-USD", "USD-XLM", "", "XLM-USD,"]) {
      expect(refusal({ pairs }).details?.pairs, pairs).toMatch(/^Unknown pair /);
    }
    expect(refusal({ pair: "XLM-USD" }).message).toBe("Invalid request");
  });
});

describe("parsePrices: one answer of the EUR source fills two pairs", () => {
  const { eur } = priceSources({
    prices: { sourceUrl: "http://127.0.0.1:9/x", timeoutMs: 1000 },
    eurPriceSourceUrl: "http://127.0.0.1:9/y",
  });

  it("reads XLM-EUR from stellar.eur and EUR-USD from euro-coin.usd", () => {
    const body = { stellar: { eur: 0.1157, usd: 0.125 }, "euro-coin": { usd: 1.0812, eur: 1 } };
    expect(parsePrices(body, eur.fields)).toEqual({ "XLM-EUR": "0.1157", "EUR-USD": "1.0812" });
  });

  it("fails the whole answer when one of its prices is missing or unusable", () => {
    expect(() => parsePrices({ stellar: { eur: 0.1157 } }, eur.fields)).toThrow(PriceSourceError);
    expect(() =>
      parsePrices({ stellar: { eur: 0.1157 }, "euro-coin": { usd: "1.08" } }, eur.fields),
    ).toThrow(PriceSourceError);
    expect(() =>
      parsePrices({ stellar: { eur: 0 }, "euro-coin": { usd: 1.08 } }, eur.fields),
    ).toThrow(PriceSourceError);
  });
});
