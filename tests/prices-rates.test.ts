import postgres from "postgres";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { parseConfig } from "@/lib/config";
import { UnavailableError } from "@/lib/domain/errors";
import { logger } from "@/lib/logger";
import type { PriceContext } from "@/lib/prices/cache";
import { getQuoteRate, getRate, getRates } from "@/lib/prices/rates";
import { type LocalPriceSource, startPriceSource } from "@/scripts/price-source";
import { type RunningApp, startApp, TEST_JWT_SECRET } from "./helpers/app";
import { getJson } from "./helpers/auth";
import { createTestDatabase } from "./helpers/postgres";

/**
 * Rates of XLM, USDC and EURC in USD and EUR (docs/decisions.md, Price feed): GET /api/prices
 * over HTTP against the built server, and the service the quotes use (getRate, getQuoteRate)
 * on real PostgreSQL with an injected clock. The price source is the project's local stub
 * (scripts/price-source.ts): XLM 0.125 USD / 0.1157 EUR, EURC 1.08 USD.
 */

const UNAVAILABLE = "Price feed temporarily unavailable";
const TIMEOUT_MS = 1500;

let source: LocalPriceSource;
let main: Awaited<ReturnType<typeof createTestDatabase>>;
let limitsDb: Awaited<ReturnType<typeof createTestDatabase>>;
let app: RunningApp;
let appLimited: RunningApp;
let sql: postgres.Sql;

beforeAll(async () => {
  source = await startPriceSource();
  [main, limitsDb] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  const priceEnv = { ...source.env, PRICE_FETCH_TIMEOUT_MS: String(TIMEOUT_MS) };
  [app, appLimited] = await Promise.all([
    startApp({
      DATABASE_URL: main.url,
      ...priceEnv,
      RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
      RATE_LIMIT_PRICE_PER_MINUTE: "100000",
    }),
    // Default limits on a database of its own, so its counters start from zero.
    startApp({ DATABASE_URL: limitsDb.url, ...priceEnv }),
  ]);
  sql = postgres(main.url, { max: 2, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end();
  await Promise.all([app?.stop(), appLimited?.stop()]);
  await Promise.all([main?.drop(), limitsDb?.drop()]);
  await source?.stop();
});

beforeEach(async () => {
  await sql`delete from price_cache`;
  source.reset();
});

const prices = (query = "", on: RunningApp = app) => getJson(`${on.url}/api/prices${query}`);

/** Makes the stored prices look `seconds` old (the server reads the wall clock). */
async function age(seconds: number) {
  await sql`update price_cache set fetched_at = now() - make_interval(secs => ${seconds}),
    attempted_at = now() - make_interval(secs => ${seconds})`;
}

describe("GET /api/prices", () => {
  it("answers the pairs asked, in order: exact decimal strings in Form B, numbers in Form A", async () => {
    const b = await prices("?pairs=XLM-USD,EURC-USD");
    expect(b.status).toBe(200);
    expect(b.body).toStrictEqual({
      prices: [
        { base: "XLM", quote: "USD", rate: "0.125", cached: false },
        { base: "EURC", quote: "USD", rate: "1.08", cached: false },
      ],
    });
    const a = await prices("?pairs=EURC-USD,XLM-USD&envelope=true");
    expect(a.status).toBe(200);
    expect(a.body).toStrictEqual({
      success: true,
      data: {
        prices: [
          { base: "EURC", quote: "USD", rate: 1.08, cached: true },
          { base: "XLM", quote: "USD", rate: 0.125, cached: true },
        ],
      },
    });
    // One request per source: XLM-USD from PRICE_SOURCE_URL, EUR-USD from PRICE_SOURCE_EUR_URL.
    expect(source.requests().sort()).toStrictEqual([
      "?ids=stellar&vs_currencies=usd",
      "?ids=stellar,euro-coin&vs_currencies=eur,usd",
    ]);
  });

  it("answers all six pairs when none are named: stablecoins at 1 and through EUR-USD", async () => {
    const res = await prices();
    expect(res.status).toBe(200);
    expect(res.body.prices).toStrictEqual([
      { base: "XLM", quote: "USD", rate: "0.125", cached: false },
      { base: "XLM", quote: "EUR", rate: "0.1157", cached: false },
      { base: "USDC", quote: "USD", rate: "1", cached: false },
      { base: "USDC", quote: "EUR", rate: "0.925925925926", cached: false },
      { base: "EURC", quote: "USD", rate: "1.08", cached: false },
      { base: "EURC", quote: "EUR", rate: "1", cached: false },
    ]);
    expect(source.hits()).toBe(2);
    const rows = await sql`select pair, price from price_cache order by pair`;
    expect(rows).toEqual([
      { pair: "EUR-USD", price: "1.080000000000" },
      { pair: "XLM-EUR", price: "0.115700000000" },
      { pair: "XLM-USD", price: "0.125000000000" },
    ]);
  });

  it("answers 400 with details for unknown pairs or assets, without asking the source", async () => {
    const res = await prices("?pairs=XLM-USD,BTC-USD");
    expect(res.status).toBe(400);
    expect(res.body).toStrictEqual({
      error: "Invalid request",
      code: "VALIDATION_ERROR",
      details: {
        pairs: 'Unknown pair "BTC-USD": use XLM-USD,XLM-EUR,USDC-USD,USDC-EUR,EURC-USD,EURC-EUR',
      },
    });
    for (const query of [
      "?pairs=xlm-usd",
      "?pairs=EUR-USD",
      "?pairs=",
      "?pairs=USD-XLM&envelope=true",
    ]) {
      const bad = await prices(query);
      expect(bad.status, query).toBe(400);
      expect(JSON.stringify(bad.body), query).toContain("Unknown pair");
    }
    const extra = await prices("?pair=XLM-USD");
    expect(extra.status).toBe(400);
    expect(extra.body.code).toBe("VALIDATION_ERROR");
    expect(source.hits()).toBe(0);
  });

  it("follows the source when it moves the rate, once the cached price is 60 s old", async () => {
    expect((await prices("?pairs=XLM-USD,USDC-EUR")).body.prices.map((p: any) => p.rate)).toEqual([
      "0.125",
      "0.925925925926",
    ]);
    source.set({ stellar: { usd: 0.2 }, "euro-coin": { usd: 1.25 } });
    // Within 60 s the cache answers, whatever the source says now.
    await age(59);
    expect((await prices("?pairs=XLM-USD,USDC-EUR")).body.prices).toStrictEqual([
      { base: "XLM", quote: "USD", rate: "0.125", cached: true },
      { base: "USDC", quote: "EUR", rate: "0.925925925926", cached: true },
    ]);
    await age(61);
    expect((await prices("?pairs=XLM-USD,USDC-EUR")).body.prices).toStrictEqual([
      { base: "XLM", quote: "USD", rate: "0.2", cached: false },
      { base: "USDC", quote: "EUR", rate: "0.8", cached: false },
    ]);
    expect(source.hits()).toBe(4);
    // GET /api/prices/xlm reads the same XLM-USD row.
    expect((await getJson(`${app.url}/api/prices/xlm`)).body).toStrictEqual({
      usd: 0.2,
      cached: true,
    });
    expect(source.hits()).toBe(4);
  });

  it("serves the last known prices as stale when the source fails; fixed rates are never stale", async () => {
    await prices();
    await age(120);
    source.setMode({ kind: "fail" });
    const res = await prices("?pairs=XLM-EUR,EURC-EUR,EURC-USD");
    expect(res.status).toBe(200);
    expect(res.body.prices).toStrictEqual([
      { base: "XLM", quote: "EUR", rate: "0.1157", cached: true, stale: true },
      { base: "EURC", quote: "EUR", rate: "1", cached: false },
      { base: "EURC", quote: "USD", rate: "1.08", cached: true, stale: true },
    ]);
  });

  it("answers 503 when a pair asked was never priced, and 1 for USDC-USD without the source", async () => {
    source.setMode({ kind: "fail" });
    const res = await prices("?pairs=USDC-USD,XLM-EUR");
    expect(res.status).toBe(503);
    expect(res.body).toStrictEqual({ error: UNAVAILABLE, code: "UNAVAILABLE" });
    expect(source.hits()).toBe(1);
    const fixed = await prices("?pairs=USDC-USD,EURC-EUR&envelope=true");
    expect(fixed.status).toBe(200);
    expect(fixed.body.data.prices).toStrictEqual([
      { base: "USDC", quote: "USD", rate: 1, cached: false },
      { base: "EURC", quote: "EUR", rate: 1, cached: false },
    ]);
    expect(source.hits()).toBe(1);
  });

  it("makes one request per source for 60 concurrent requests", async () => {
    source.setMode({ kind: "prices", delayMs: 400 });
    const all = await Promise.all(Array.from({ length: 60 }, () => prices()));
    expect(all.map((r) => r.status)).toStrictEqual(Array(60).fill(200));
    expect(new Set(all.map((r) => r.body.prices[1].rate))).toStrictEqual(new Set(["0.1157"]));
    expect(source.hits()).toBe(2);
  });

  it("answers 405 to other methods", async () => {
    const res = await fetch(`${app.url}/api/prices`, { method: "POST" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
  });

  it("shares the 30 per minute per IP of GET /api/prices/xlm", async () => {
    // Fixed one-minute windows: start early enough in a window to finish inside it.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 50));
    for (let i = 1; i <= 30; i++) {
      const res =
        i % 2
          ? await prices("?pairs=XLM-USD", appLimited)
          : await getJson(`${appLimited.url}/api/prices/xlm`);
      expect(res.status, `request ${i}`).toBe(200);
      expect(res.headers.get("ratelimit-remaining")).toBe(String(30 - i));
    }
    const over = await prices("?pairs=XLM-USD", appLimited);
    expect(over.status).toBe(429);
    expect(over.body.error).toBe("Too many price requests");
    expect(over.body.code).toBe("RATE_LIMIT_EXCEEDED");
  });
});

describe("getRate and getQuoteRate (service on real PostgreSQL, clock injected)", () => {
  let handle: DatabaseHandle;
  let clock: Date;
  const T0 = Date.parse("2026-03-01T12:00:00.000Z");
  const at = (ms: number) => new Date(T0 + ms);
  let ctx: PriceContext;
  let host: string;

  beforeAll(async () => {
    handle = await openDatabase({ databaseUrl: main.url, dataDir: "/nonexistent", migrate: false });
    ctx = {
      db: handle.db,
      config: parseConfig({
        JWT_SECRET: TEST_JWT_SECRET,
        DATABASE_URL: main.url,
        ...source.env,
        PRICE_FETCH_TIMEOUT_MS: String(TIMEOUT_MS),
      }),
      now: () => clock,
      logger,
    };
    host = new URL(source.url).host;
  });

  afterAll(async () => {
    await handle?.close();
  });

  it("answers exact rates with their source, time and cache state", async () => {
    clock = at(0);
    expect(await getRate(ctx, "XLM", "EUR")).toStrictEqual({
      base: "XLM",
      quote: "EUR",
      rate: "0.1157",
      source: host,
      at: at(0),
      cached: false,
      stale: false,
    });
    clock = at(30_000);
    expect(
      await getRates(ctx, [
        { base: "USDC", quote: "EUR" },
        { base: "USDC", quote: "USD" },
      ]),
    ).toStrictEqual([
      {
        base: "USDC",
        quote: "EUR",
        rate: "0.925925925926",
        source: host,
        at: at(0),
        cached: true,
        stale: false,
      },
      {
        base: "USDC",
        quote: "USD",
        rate: "1",
        source: "fixed",
        at: at(30_000),
        cached: false,
        stale: false,
      },
    ]);
    expect(source.hits()).toBe(1);
  });

  it("quotes from a price up to 5 minutes old, then refuses with 503 until the source answers", async () => {
    clock = at(0);
    expect(await getQuoteRate(ctx, "XLM", "USD")).toMatchObject({ rate: "0.125", stale: false });
    source.setMode({ kind: "fail" });
    // The source fails: the last known price is stale but still young enough for a quote.
    clock = at(299_999);
    expect(await getQuoteRate(ctx, "XLM", "USD")).toMatchObject({
      rate: "0.125",
      at: at(0),
      stale: true,
    });
    clock = at(300_000);
    expect(await getQuoteRate(ctx, "XLM", "USD")).toMatchObject({ rate: "0.125", stale: true });
    // A millisecond later it is too old for a quote, though still shown as the last known price.
    clock = at(300_001);
    const refused = getQuoteRate(ctx, "XLM", "USD");
    await expect(refused).rejects.toBeInstanceOf(UnavailableError);
    await expect(refused).rejects.toThrow(UNAVAILABLE);
    expect(await getRate(ctx, "XLM", "USD")).toMatchObject({ rate: "0.125", stale: true });
    // The source is back with a new rate: quotes resume at it.
    source.setMode({ kind: "prices" });
    source.set({ stellar: { usd: 0.1333 } });
    clock = at(320_000);
    expect(await getQuoteRate(ctx, "XLM", "USD")).toMatchObject({
      rate: "0.1333",
      at: at(320_000),
      cached: false,
      stale: false,
    });
  });

  it("refuses a quote through EUR-USD as it does XLM, but never one at a fixed rate", async () => {
    clock = at(0);
    await getRate(ctx, "EURC", "USD");
    source.setMode({ kind: "fail" });
    clock = at(400_000);
    await expect(getQuoteRate(ctx, "EURC", "USD")).rejects.toThrow(UNAVAILABLE);
    await expect(getQuoteRate(ctx, "USDC", "EUR")).rejects.toThrow(UNAVAILABLE);
    expect(await getQuoteRate(ctx, "USDC", "USD")).toStrictEqual({
      base: "USDC",
      quote: "USD",
      rate: "1",
      source: "fixed",
      at: at(400_000),
      cached: false,
      stale: false,
    });
    expect(await getQuoteRate(ctx, "EURC", "EUR")).toMatchObject({ rate: "1", source: "fixed" });
  });

  it("answers 503 for a quote when the source never answered", async () => {
    source.setMode({ kind: "fail" });
    clock = at(0);
    await expect(getQuoteRate(ctx, "XLM", "EUR")).rejects.toThrow(UNAVAILABLE);
    await expect(getRate(ctx, "XLM", "EUR")).rejects.toThrow(UNAVAILABLE);
  });
});

describe("configuration of the EUR source", () => {
  const env = { JWT_SECRET: TEST_JWT_SECRET, DATABASE_URL: "postgres://x/y" };

  it("defaults to CoinGecko's simple price for stellar and euro-coin in eur and usd", () => {
    expect(parseConfig(env).eurPriceSourceUrl).toBe(
      "https://api.coingecko.com/api/v3/simple/price?ids=stellar,euro-coin&vs_currencies=eur,usd",
    );
  });

  it("rejects a source that is not an http(s) URL", () => {
    expect(() => parseConfig({ ...env, PRICE_SOURCE_EUR_URL: "ftp://x" })).toThrow(
      "PRICE_SOURCE_EUR_URL",
    );
  });
});
