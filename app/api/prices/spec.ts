import { UnavailableError, ValidationError } from "@/lib/domain/errors";
import { INVALID_REQUEST } from "@/lib/http/body";
import { operation } from "@/lib/http/route";
import { PRICE_UNAVAILABLE } from "@/lib/prices/cache";
import { pricePolicy } from "@/lib/ratelimit/policies";
import { pricesQuerySchema, unknownPairsMessage } from "@/lib/schemas/prices";
import { pricesSerializer } from "@/lib/serializers/prices";

export const getPrices = operation({
  method: "GET",
  path: "/api/prices",
  operationId: "getPrices",
  tag: "Prices",
  summary: "Exchange rates of XLM, USDC and EURC in USD and EUR",
  description:
    "One entry per pair asked (`?pairs=XLM-USD,EURC-USD`; all six when omitted). XLM-USD, XLM-EUR and EUR-USD come from the price source, cached server-side for 60 seconds; USDC-USD and EURC-EUR are exactly 1; EURC-USD is EUR-USD and USDC-EUR its inverse. When the source fails, the last known price is served with `stale: true`; 503 when a pair asked was never priced.",
  auth: "public",
  // The same policy (and counter) as GET /api/prices/xlm: 30 per minute per IP address.
  limit: {
    policy: pricePolicy,
    per: "ip",
    note: "30 requests per minute per IP address, shared with GET /api/prices/xlm",
  },
  query: pricesQuerySchema,
  responses: [{ status: 200, description: "The rates", serializer: pricesSerializer }],
  errors: [
    new ValidationError(INVALID_REQUEST, { pairs: unknownPairsMessage(["BTC-USD"]) }),
    new UnavailableError(PRICE_UNAVAILABLE),
  ],
});
