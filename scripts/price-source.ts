/**
 * A local price source answering like CoinGecko's simple price endpoint, so tests and
 * `npm run dev:offline` never reach the internet (docs/decisions.md, Price feed).
 *
 *   GET  /api/v3/simple/price?ids=stellar,euro-coin&vs_currencies=usd,eur
 *        -> {"stellar":{"usd":0.125,"eur":0.1157},"euro-coin":{"usd":1.08,"eur":1}}
 *        (only the coins and currencies asked, as CoinGecko answers; unknown ones are left out)
 *   GET  /local/prices   -> {prices, mode, hits}: what it answers now
 *   POST /local/prices   {"prices":{"stellar":{"usd":0.2}}, "mode":{"kind":"fail"}}
 *        moves a rate (merged into the current prices) and/or changes how it answers
 *
 * Tests drive it in process (`set`, `setMode`, `hits`); dev:offline starts it on :8003 and
 * prints the curl line that moves the rate. Run alone: `npx tsx scripts/price-source.ts`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

/** coin id -> currency -> price, as CoinGecko answers. */
export type CoinPrices = Record<string, Record<string, number>>;

/**
 * How the source answers:
 * - `prices`: the current prices, after `delayMs`;
 * - `fail`: status 500 (or `status`) after `delayMs`;
 * - `hang`: answers only after `ms` (default 6 s, past the app's 5-second fetch timeout);
 * - `garbage`: 200 with `body` as is (not JSON, or the wrong shape).
 */
export type PriceSourceMode =
  | { kind: "prices"; delayMs?: number }
  | { kind: "fail"; status?: number; delayMs?: number }
  | { kind: "hang"; ms?: number }
  | { kind: "garbage"; body: string };

/** 1 XLM = 0.125 USD = 0.1157 EUR (4 significant digits, as CoinGecko shows it); 1 EUR = 1.08 USD. */
export const DEFAULT_PRICES: CoinPrices = {
  stellar: { usd: 0.125, eur: 0.1157 },
  "euro-coin": { usd: 1.08, eur: 1 },
  "usd-coin": { usd: 1, eur: 0.925 },
};

export type LocalPriceSource = {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** What PRICE_SOURCE_URL and PRICE_SOURCE_EUR_URL should be to use this source. */
  env: { PRICE_SOURCE_URL: string; PRICE_SOURCE_EUR_URL: string };
  /** Price requests received (GET /local/prices is not one). */
  hits: () => number;
  /** The query strings of the price requests received, oldest first. */
  requests: () => string[];
  /** Merges prices into the current ones: `set({stellar: {usd: 0.2}})`. */
  set: (prices: CoinPrices) => void;
  setMode: (mode: PriceSourceMode) => void;
  /** Back to the starting prices and mode, with no request counted. */
  reset: () => void;
  stop: () => Promise<void>;
};

const PRICE_PATH = "/api/v3/simple/price";

const merge = (into: CoinPrices, prices: CoinPrices): CoinPrices => {
  const next = structuredClone(into);
  for (const [coin, byCurrency] of Object.entries(prices)) {
    next[coin] = { ...next[coin], ...byCurrency };
  }
  return next;
};

/** The answer to `?ids=..&vs_currencies=..`: only what was asked and is known. */
function answer(prices: CoinPrices, query: URLSearchParams): CoinPrices {
  const list = (name: string) =>
    (query.get(name) ?? "")
      .split(",")
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean);
  const body: CoinPrices = {};
  for (const coin of list("ids")) {
    const known = prices[coin];
    if (!known) continue;
    body[coin] = {};
    for (const currency of list("vs_currencies")) {
      if (known[currency] !== undefined) body[coin][currency] = known[currency];
    }
  }
  return body;
}

export async function startPriceSource(
  options: { port?: number; host?: string; prices?: CoinPrices } = {},
): Promise<LocalPriceSource> {
  const initial = merge(DEFAULT_PRICES, options.prices ?? {});
  let prices = initial;
  let mode: PriceSourceMode = { kind: "prices" };
  let seen: string[] = [];

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://local");
    const send = (status: number, body: string) => {
      if (res.destroyed) return;
      res.writeHead(status, { "content-type": "application/json" });
      res.end(body);
    };
    const later = (ms: number, fn: () => void) => {
      const timer = setTimeout(fn, ms);
      res.on("close", () => clearTimeout(timer));
    };
    if (url.pathname === "/local/prices") {
      if (req.method === "GET")
        return send(200, JSON.stringify({ prices, mode, hits: seen.length }));
      let raw = "";
      req.on("data", (chunk) => {
        raw += chunk;
      });
      req.on("end", () => {
        try {
          const change = JSON.parse(raw) as { prices?: CoinPrices; mode?: PriceSourceMode };
          if (change.prices) prices = merge(prices, change.prices);
          if (change.mode) mode = change.mode;
          send(200, JSON.stringify({ prices, mode }));
        } catch {
          send(400, '{"error":"expected {prices?, mode?} as JSON"}');
        }
      });
      return;
    }
    if (url.pathname !== PRICE_PATH) return send(404, '{"error":"not found"}');
    seen.push(url.search);
    // The mode and prices of the moment the request arrived.
    const m = mode;
    const body = JSON.stringify(answer(prices, url.searchParams));
    switch (m.kind) {
      case "prices":
        return later(m.delayMs ?? 0, () => send(200, body));
      case "fail":
        return later(m.delayMs ?? 0, () => send(m.status ?? 500, '{"error":"internal"}'));
      case "hang":
        return later(m.ms ?? 6000, () => send(200, body));
      case "garbage":
        return send(200, m.body);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host ?? "127.0.0.1"}:${port}`;
  return {
    url,
    env: {
      PRICE_SOURCE_URL: `${url}${PRICE_PATH}?ids=stellar&vs_currencies=usd`,
      PRICE_SOURCE_EUR_URL: `${url}${PRICE_PATH}?ids=stellar,euro-coin&vs_currencies=eur,usd`,
    },
    hits: () => seen.length,
    requests: () => [...seen],
    set: (next) => {
      prices = merge(prices, next);
    },
    setMode: (next) => {
      mode = next;
    },
    reset: () => {
      prices = initial;
      mode = { kind: "prices" };
      seen = [];
    },
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const source = await startPriceSource({ port: Number(process.env.PRICE_SOURCE_PORT ?? 8003) });
  process.stdout.write(
    `${Object.entries(source.env)
      .map(([k, v]) => `${k}=${v}`)
      .join("\n")}\n`,
  );
}
