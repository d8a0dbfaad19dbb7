import { serializer } from "@/lib/http/forms";
import type { Rate } from "@/lib/prices/rates";
import { prices } from "@/lib/schemas/prices";

/**
 * GET /api/prices: the rate is an exact decimal string in Form B and a JSON number in Form A,
 * like every amount (docs/decisions.md, Price feed); `stale` is present only when true. Not
 * formatForFormA (lib/domain/money.ts): a rate has up to 12 decimals, not an amount's 7.
 */
const entry = <R>(r: Rate, rate: R) => ({
  base: r.base,
  quote: r.quote,
  rate,
  cached: r.cached,
  ...(r.stale ? { stale: true as const } : {}),
});

export const pricesSerializer = serializer(prices, {
  b: (rates: Rate[]) => ({ prices: rates.map((r) => entry(r, r.rate)) }),
  a: (rates: Rate[]) => ({ prices: rates.map((r) => entry(r, Number(r.rate))) }),
});
