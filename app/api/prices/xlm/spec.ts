import { UnavailableError } from "@/lib/domain/errors";
import { operation } from "@/lib/http/route";
import { PRICE_UNAVAILABLE } from "@/lib/prices/cache";
import { pricePolicy } from "@/lib/ratelimit/policies";
import { priceSerializer } from "@/lib/serializers/system";

export const getXlmPrice = operation({
  method: "GET",
  path: "/api/prices/xlm",
  operationId: "getXlmPrice",
  tag: "Prices",
  summary: "XLM price in USD",
  description:
    "Cached server-side for 60 seconds. When the external source fails, the last known price is served with `stale: true`.",
  auth: "public",
  // 30 per minute per IP address, whether or not the caller is signed in.
  limit: { policy: pricePolicy, per: "ip", note: "30 requests per minute per IP address" },
  responses: [{ status: 200, description: "The price", serializer: priceSerializer }],
  errors: [new UnavailableError(PRICE_UNAVAILABLE)],
});
