import { type PriceContext, resolveSource } from "./cache";
import { priceSources } from "./source";

/**
 * GET /api/prices/xlm: XLM in USD from the `xlm` source (PRICE_SOURCE_URL) through the shared
 * cache (lib/prices/cache.ts; docs/decisions.md, Price feed).
 */

/** `usd` is the exact decimal string stored in PostgreSQL; only the JSON edge makes it a number. */
export type XlmPrice = { usd: string; cached: boolean; stale: boolean };

/** Throws UnavailableError when the source fails and no price was ever stored. */
export async function getXlmPrice(ctx: PriceContext): Promise<XlmPrice> {
  const { prices, cached, stale } = await resolveSource(ctx, priceSources(ctx.config).xlm);
  return { usd: prices["XLM-USD"] as string, cached, stale };
}
