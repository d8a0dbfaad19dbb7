import { asIs, sameInBothForms } from "@/lib/http/forms";
import type { XlmPrice } from "@/lib/prices/xlm-price";
import { nonceResponse, sessionResponse, whoAmIResponse } from "@/lib/schemas/auth";
import {
  cronExpireResult,
  cronWatcherResult,
  cronWebhooksResult,
  xlmPrice,
} from "@/lib/schemas/system";

/**
 * `usd` is a JSON number (docs/decisions.md): the stored decimal string becomes one here, at
 * the edge, and nowhere earlier; `stale` is present only when true.
 */
export const priceSerializer = sameInBothForms(xlmPrice, (p: XlmPrice) => ({
  usd: Number(p.usd),
  cached: p.cached,
  ...(p.stale ? { stale: true as const } : {}),
}));

// Services that already return the body (the same in both forms).
export const nonceSerializer = asIs(nonceResponse);
export const sessionSerializer = asIs(sessionResponse);
export const whoAmISerializer = asIs(whoAmIResponse);
export const cronExpireSerializer = asIs(cronExpireResult);
export const cronWebhooksSerializer = asIs(cronWebhooksResult);
export const cronWatcherSerializer = asIs(cronWatcherResult);
