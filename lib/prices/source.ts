import type { Config } from "@/lib/config";
import { z } from "@/lib/zod";
import type { FetchedPair } from "./pairs";

/**
 * The external price sources (docs/decisions.md, Price feed): each is one URL answering
 * CoinGecko's simple price shape `{"<coin>":{"<currency>":<number>}}`, and one fetch of it
 * fills every pair it carries.
 *
 * - `xlm` (PRICE_SOURCE_URL): XLM-USD from `stellar.usd`; GET /api/prices/xlm reads only it.
 * - `eur` (PRICE_SOURCE_EUR_URL): XLM-EUR from `stellar.eur` and EUR-USD from `euro-coin.usd`
 *   (EURC, Circle's euro coin, in dollars).
 */

export type SourceId = "xlm" | "eur";

export type PriceSource = {
  id: SourceId;
  url: string;
  timeoutMs: number;
  /** Where each pair's price sits in an answer: `[coin id, currency]`. */
  fields: Partial<Record<FetchedPair, readonly [string, string]>>;
  /**
   * The advisory lock held while fetching (one fetch per source, cluster-wide). Arbitrary
   * constants below 2^31, so pg_locks shows them as classid 0 (the migration lock is 72_210_001).
   */
  lockKey: number;
};

const XLM_FIELDS = { "XLM-USD": ["stellar", "usd"] } as const;
const EUR_FIELDS = { "XLM-EUR": ["stellar", "eur"], "EUR-USD": ["euro-coin", "usd"] } as const;

export function priceSources(config: Pick<Config, "prices" | "eurPriceSourceUrl">) {
  const { sourceUrl, timeoutMs } = config.prices;
  return {
    xlm: { id: "xlm", url: sourceUrl, timeoutMs, fields: XLM_FIELDS, lockKey: 72_210_002 },
    eur: {
      id: "eur",
      url: config.eurPriceSourceUrl,
      timeoutMs,
      fields: EUR_FIELDS,
      lockKey: 72_210_003,
    },
  } satisfies Record<SourceId, PriceSource>;
}

/** The source that carries a fetched pair. */
export function sourceIdOf(pair: FetchedPair): SourceId {
  return pair === "XLM-USD" ? "xlm" : "eur";
}

/** What a rate says it came from: the source's host (never its query, which may hold a key). */
export function sourceLabel(source: PriceSource): string {
  return new URL(source.url).host;
}

/** Why a fetch failed; logged only, the caller answers stale or 503. */
export class PriceSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PriceSourceError";
  }
}

/** The bounds keep what `numeric(30,12)` can hold without rounding to zero or overflowing. */
const sourcePrice = z.number().min(1e-12).lt(1e18);

/**
 * Every price of `fields` in a source answer, as decimal strings; throws PriceSourceError
 * when one is missing or out of bounds (the whole answer is then a failure).
 */
export function parsePrices(
  body: unknown,
  fields: PriceSource["fields"],
): Partial<Record<FetchedPair, string>> {
  const prices: Partial<Record<FetchedPair, string>> = {};
  for (const [pair, [coin, currency]] of Object.entries(fields) as [
    FetchedPair,
    readonly [string, string],
  ][]) {
    const parsed = sourcePrice.safeParse(
      (body as Record<string, Record<string, unknown> | undefined> | null)?.[coin]?.[currency],
    );
    if (!parsed.success) throw new PriceSourceError("unexpected price source body");
    // String() is exact for the double received (PostgreSQL also accepts its exponent form).
    prices[pair] = String(parsed.data);
  }
  return prices;
}

/** The XLM price in USD in a source answer as a decimal string; throws PriceSourceError otherwise. */
export function parseSourceBody(body: unknown): string {
  return parsePrices(body, XLM_FIELDS)["XLM-USD"] as string;
}

/** One GET of a source with a hard timeout; redirects are refused rather than followed. */
export async function fetchSourceBody(source: {
  url: string;
  timeoutMs: number;
}): Promise<unknown> {
  const res = await fetch(source.url, {
    signal: AbortSignal.timeout(source.timeoutMs),
    redirect: "error",
    headers: { accept: "application/json" },
  });
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw new PriceSourceError(`price source answered ${res.status}`);
  }
  try {
    return await res.json();
  } catch (err) {
    // A timeout while reading the body is reported as such, not as bad JSON.
    if (err instanceof Error && err.name === "TimeoutError") throw err;
    throw new PriceSourceError("price source answered something other than JSON");
  }
}

/** Fetches a source and reads every pair it carries. */
export async function fetchPrices(
  source: Pick<PriceSource, "url" | "timeoutMs" | "fields">,
): Promise<Partial<Record<FetchedPair, string>>> {
  return parsePrices(await fetchSourceBody(source), source.fields);
}

/** XLM in USD from one URL of CoinGecko's shape (the `xlm` source's parse, on its own). */
export async function fetchXlmUsd(source: { sourceUrl: string; timeoutMs: number }) {
  return parseSourceBody(
    await fetchSourceBody({ url: source.sourceUrl, timeoutMs: source.timeoutMs }),
  );
}
