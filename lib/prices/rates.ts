import { eq } from "drizzle-orm";
import { priceCache } from "@/db/schema";
import { UnavailableError } from "@/lib/domain/errors";
import { PRICE_UNAVAILABLE, type PriceContext, resolveSource, type SourcePrices } from "./cache";
import {
  derivationOf,
  deriveRate,
  type Fiat,
  isFreshEnough,
  MAX_QUOTE_AGE_MS,
  type Pair,
  type RateAsset,
} from "./pairs";
import { priceSources, type SourceId, sourceIdOf, sourceLabel } from "./source";

/**
 * Exchange rates for quotes, payment valuation and GET /api/prices (docs/decisions.md,
 * Price feed). A fetched rate comes through the shared 60-second cache (lib/prices/cache.ts);
 * USDC-USD and EURC-EUR are exactly 1 and never fetched.
 */

/**
 * One asset's price in one fiat currency.
 * - `rate`: exact decimal string, at most 12 decimals (RATE_DECIMALS), no trailing zeros;
 * - `source`: the price source's host (e.g. `api.coingecko.com`), or `fixed` for 1;
 * - `at`: when the price was fetched from the source (now for a fixed rate);
 * - `cached`: served from the cache rather than fetched by this call (false for a fixed rate);
 * - `stale`: the source failed and this is the last known price.
 */
export type Rate = Pair & {
  rate: string;
  source: string;
  at: Date;
  cached: boolean;
  stale: boolean;
};

export type RateOptions = {
  /**
   * Refuse (UnavailableError `Price feed temporarily unavailable`, 503) a price fetched more
   * than this many milliseconds ago, stale or not. Without it any known price is answered.
   */
  maxAgeMs?: number;
};

/**
 * The rates of `pairs`, in order. Each source the pairs need is resolved once (concurrently
 * when they need both). Throws UnavailableError when a needed source has never answered, or
 * when a price is older than `maxAgeMs`.
 */
export async function getRates(
  ctx: PriceContext,
  pairs: readonly Pair[],
  options: RateOptions = {},
): Promise<Rate[]> {
  const sources = priceSources(ctx.config);
  const derivations = pairs.map(derivationOf);
  const needed = new Set(
    derivations.flatMap((d) => (d.kind === "fixed" ? [] : [sourceIdOf(d.pair)])),
  );
  const resolved = new Map<SourceId, SourcePrices>(
    await Promise.all(
      [...needed].map(async (id) => [id, await resolveSource(ctx, sources[id])] as const),
    ),
  );
  const now = ctx.now();
  return pairs.map((pair, i): Rate => {
    const derivation = derivations[i];
    if (derivation.kind === "fixed") {
      return { ...pair, rate: "1", source: "fixed", at: now, cached: false, stale: false };
    }
    const id = sourceIdOf(derivation.pair);
    const got = resolved.get(id) as SourcePrices;
    if (options.maxAgeMs !== undefined && !isFreshEnough(got.fetchedAt, now, options.maxAgeMs)) {
      ctx.logger.warn("Price too old to use", {
        pair: `${pair.base}-${pair.quote}`,
        fetchedAt: got.fetchedAt.toISOString(),
        maxAgeMs: options.maxAgeMs,
      });
      throw new UnavailableError(PRICE_UNAVAILABLE);
    }
    return {
      ...pair,
      rate: deriveRate(derivation, got.prices[derivation.pair] as string),
      source: sourceLabel(sources[id]),
      at: got.fetchedAt,
      cached: got.cached,
      stale: got.stale,
    };
  });
}

/** One pair's rate (see getRates). */
export async function getRate(
  ctx: PriceContext,
  base: RateAsset,
  quote: Fiat,
  options: RateOptions = {},
): Promise<Rate> {
  const [rate] = await getRates(ctx, [{ base, quote }], options);
  return rate;
}

/**
 * The rate a quote may lock: never from a price fetched more than 5 minutes ago
 * (MAX_QUOTE_AGE_MS); otherwise UnavailableError `Price feed temporarily unavailable` (503).
 */
export function getQuoteRate(ctx: PriceContext, base: RateAsset, quote: Fiat): Promise<Rate> {
  return getRate(ctx, base, quote, { maxAgeMs: MAX_QUOTE_AGE_MS });
}

/**
 * The newest known rate of a pair from the shared cache alone, without asking the source:
 * for code that runs inside a database transaction (recording a payment), where a fetch would
 * hold locks for seconds. Callers warm the cache first with `getRates` outside the
 * transaction (lib/services/payments/valuation.ts). Undefined when the pair was never fetched.
 */
export async function knownRate(
  ctx: Pick<PriceContext, "db" | "config" | "now">,
  pair: Pair,
  /** A price fetched longer ago than this counts as unknown. */
  maxAgeMs?: number,
): Promise<Pick<Rate, "rate" | "source" | "at"> | undefined> {
  const derivation = derivationOf(pair);
  if (derivation.kind === "fixed") return { rate: "1", source: "fixed", at: ctx.now() };
  const [row] = await ctx.db
    .select({ price: priceCache.price, fetchedAt: priceCache.fetchedAt })
    .from(priceCache)
    .where(eq(priceCache.pair, derivation.pair))
    .limit(1);
  if (!row) return undefined;
  if (maxAgeMs !== undefined && !isFreshEnough(row.fetchedAt, ctx.now(), maxAgeMs))
    return undefined;
  const source = priceSources(ctx.config)[sourceIdOf(derivation.pair)];
  return {
    rate: deriveRate(derivation, row.price),
    source: sourceLabel(source),
    at: row.fetchedAt,
  };
}
