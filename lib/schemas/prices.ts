import { FIATS, PAIR_NAMES, type Pair, parsePair, RATE_ASSETS } from "@/lib/prices/pairs";
import { z } from "@/lib/zod";
import { decimal, number, wire } from "./wire";

/** GET /api/prices (docs/decisions.md, Price feed). */

const PAIRS_LIST = PAIR_NAMES.join(",");

/** The `details.pairs` message of a 400. */
export const unknownPairsMessage = (names: readonly string[]) =>
  `Unknown pair ${names.map((n) => JSON.stringify(n)).join(", ")}: use ${PAIRS_LIST}`;

const toPairs = (names: readonly string[]): Pair[] =>
  [...new Set(names)].map((name) => parsePair(name) as Pair);

/** `?pairs=XLM-USD,EURC-USD`: known pairs, comma-separated; all of them when omitted. */
export const pricesQuerySchema = z
  .object({
    pairs: z
      .string()
      .optional()
      .meta({
        description: `Comma-separated pairs \`BASE-QUOTE\` (base XLM, USDC or EURC; quote USD or EUR). Default: all of them (${PAIRS_LIST}).`,
        example: "XLM-USD,EURC-USD",
      })
      .transform((value, ctx) => {
        if (value === undefined) return toPairs(PAIR_NAMES);
        const names = value.split(",").map((s) => s.trim());
        const unknown = names.filter((name) => !parsePair(name));
        if (unknown.length > 0) {
          ctx.issues.push({
            code: "custom",
            input: value,
            message: unknownPairsMessage(unknown),
          });
          return z.NEVER;
        }
        return toPairs(names);
      }),
  })
  .strict();

const priceB = z
  .object({
    base: z.enum(RATE_ASSETS).meta({ description: "The asset priced" }),
    quote: z.enum(FIATS).meta({ description: "The currency it is priced in" }),
    rate: decimal.meta({
      description:
        "Units of `quote` per unit of `base`: an exact decimal string, at most 12 decimals (USDC-USD and EURC-EUR are exactly 1)",
      example: "0.1234",
    }),
    cached: z.boolean().meta({
      description:
        "Served from the server cache (younger than 60 s); false for a rate of exactly 1",
    }),
    stale: z
      .literal(true)
      .optional()
      .meta({ description: "Present only when true: the last known price, the source failed" }),
  })
  .meta({ id: "Price" });

const priceA = priceB
  .extend({
    rate: number.meta({ description: "The rate as a JSON number (Form A)", example: 0.1234 }),
  })
  .meta({ id: "PriceFormA" });

export const prices = wire(
  "Prices",
  z.object({ prices: z.array(priceB).meta({ description: "One entry per pair asked, in order" }) }),
  { a: z.object({ prices: z.array(priceA) }) },
);
