import Big from "big.js";

/**
 * The pairs the service prices and how each rate is obtained (docs/decisions.md, Price feed).
 * Pure: no I/O, no clock of its own.
 *
 * Three rates are fetched from the price source (XLM-USD, XLM-EUR, EUR-USD); USDC is the
 * dollar and EURC the euro at exactly 1; the stablecoins' cross rates come from EUR-USD.
 * Rates are exact decimal strings with at most RATE_DECIMALS decimals, never floats.
 */

/** What a payer settles in. */
export const RATE_ASSETS = ["XLM", "USDC", "EURC"] as const;
export type RateAsset = (typeof RATE_ASSETS)[number];
/** What an invoice is priced in. */
export const FIATS = ["USD", "EUR"] as const;
export type Fiat = (typeof FIATS)[number];
export type Pair = { base: RateAsset; quote: Fiat };
export type PairName = `${RateAsset}-${Fiat}`;

/** Every pair GET /api/prices knows, and its answer when `pairs` is omitted. */
export const PAIR_NAMES: readonly PairName[] = RATE_ASSETS.flatMap((base) =>
  FIATS.map((quote) => `${base}-${quote}` as const),
);

/** The rates the price source is asked for (rows of price_cache). */
export const FETCHED_PAIRS = ["XLM-USD", "XLM-EUR", "EUR-USD"] as const;
export type FetchedPair = (typeof FETCHED_PAIRS)[number];

/**
 * Decimals a rate keeps: the scale of price_cache.price (numeric(30,12)). A fetched rate is
 * stored rounded to it by PostgreSQL; an inverse rate is computed to it, half up. For the
 * rates priced here (about 0.05 to 2) that is 11 to 13 significant digits, more than the
 * source gives (CoinGecko sends 4 to 8).
 */
export const RATE_DECIMALS = 12;

/** A quote never uses a price older than this (docs/decisions.md, Price feed). */
export const MAX_QUOTE_AGE_MS = 5 * 60_000;

/**
 * How a pair's rate is obtained:
 * - `fixed`: exactly 1 (USDC-USD, EURC-EUR), never fetched;
 * - `fetched`: the fetched rate itself (EURC-USD reads EUR-USD: EURC is the euro);
 * - `inverse`: 1 / the fetched rate (USDC-EUR = 1 / EUR-USD).
 */
export type Derivation =
  | { kind: "fixed" }
  | { kind: "fetched"; pair: FetchedPair }
  | { kind: "inverse"; pair: FetchedPair };

const FIAT_OF: Record<"USDC" | "EURC", Fiat> = { USDC: "USD", EURC: "EUR" };

export function derivationOf({ base, quote }: Pair): Derivation {
  if (base === "XLM") return { kind: "fetched", pair: quote === "USD" ? "XLM-USD" : "XLM-EUR" };
  const own = FIAT_OF[base];
  if (own === quote) return { kind: "fixed" };
  return own === "EUR"
    ? { kind: "fetched", pair: "EUR-USD" }
    : { kind: "inverse", pair: "EUR-USD" };
}

// A private constructor: division is rounded once, at RATE_DECIMALS, half up; `strict`
// refuses a JavaScript number (lib/domain/money.ts does the same).
const Rate = Big();
Rate.DP = RATE_DECIMALS;
Rate.RM = Rate.roundHalfUp;
Rate.strict = true;

/** A decimal string in plain notation with no trailing zeros ("0.1234", "1"). */
export function normalizeRate(rate: string): string {
  return new Rate(rate).toFixed();
}

/** The pair's rate from the fetched one its derivation names (ignored for `fixed`). */
export function deriveRate(derivation: Derivation, fetched: string): string {
  switch (derivation.kind) {
    case "fixed":
      return "1";
    case "fetched":
      return normalizeRate(fetched);
    case "inverse":
      return new Rate("1").div(new Rate(fetched)).toFixed();
  }
}

/**
 * Whether a price observed at `at` may still price a quote at `now`: at most `maxAgeMs` old
 * (exactly `maxAgeMs` is still fine). A timestamp slightly ahead (another instance's clock) is
 * accepted; one more than `maxAgeMs` in the future is not.
 */
export function isFreshEnough(at: Date, now: Date, maxAgeMs: number): boolean {
  const age = now.getTime() - at.getTime();
  return age <= maxAgeMs && age >= -maxAgeMs;
}

/** `XLM-USD` -> the pair; undefined for anything else (case matters). */
export function parsePair(name: string): Pair | undefined {
  if (!(PAIR_NAMES as readonly string[]).includes(name)) return undefined;
  const [base, quote] = name.split("-") as [RateAsset, Fiat];
  return { base, quote };
}

export const pairName = ({ base, quote }: Pair): PairName => `${base}-${quote}`;
