import { methods, publicEndpoint, reply } from "@/lib/http/endpoint";
import type { Serializer } from "@/lib/http/forms";
import { getXlmPrice, type XlmPrice } from "@/lib/prices/xlm-price";
import { pricePolicy } from "@/lib/ratelimit/policies";

// Spec 2.8: `usd` is a JSON number, so the stored decimal string becomes one here, at the
// edge, and nowhere earlier; `stale` is present only when true.
const price = (p: XlmPrice) => ({
  usd: Number(p.usd),
  cached: p.cached,
  ...(p.stale ? { stale: true as const } : {}),
});
const priceSerializer: Serializer<XlmPrice> = { a: price, b: price };

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: publicEndpoint(async ({ ctx, limit, ip }) => {
    // Spec 8: 30 per minute per IP address, whether or not the caller is signed in.
    await limit(pricePolicy(ctx.config), `ip:${ip}`);
    return reply(await getXlmPrice(ctx), priceSerializer);
  }),
});
