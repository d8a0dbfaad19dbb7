import postgres from "postgres";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { parseConfig } from "@/lib/config";
import { logger } from "@/lib/logger";
import type { PriceContext } from "@/lib/prices/cache";
import { getXlmPrice } from "@/lib/prices/xlm-price";
import { startPriceSource } from "@/scripts/price-source";
import { type RunningApp, startApp, TEST_JWT_SECRET } from "./helpers/app";
import { getJson } from "./helpers/auth";
import { createTestDatabase } from "./helpers/postgres";

const UNAVAILABLE = "Price feed temporarily unavailable";
/** Lowered from the default 5 s to keep the file fast; the default is checked below. */
const TIMEOUT_MS = 1500;

// ---------------------------------------------------------------------------------------------
// A local price source that counts requests and can be told how to misbehave.

type StubMode =
  | { kind: "price"; usd: number; delayMs?: number }
  | { kind: "fail"; delayMs?: number }
  | { kind: "hang" }
  | { kind: "garbage"; body: string };

type Stub = {
  url: string;
  hits: () => number;
  set: (mode: StubMode) => void;
  reset: () => void;
  close: () => Promise<void>;
};

/** The project's local price source (scripts/price-source.ts), XLM at 0.1234 USD. */
async function startStub(): Promise<Stub> {
  const source = await startPriceSource({ prices: { stellar: { usd: 0.1234 } } });
  return {
    url: source.env.PRICE_SOURCE_URL,
    hits: source.hits,
    set: (mode) => {
      if (mode.kind !== "price") return source.setMode(mode);
      source.set({ stellar: { usd: mode.usd } });
      source.setMode({ kind: "prices", delayMs: mode.delayMs });
    },
    reset: source.reset,
    close: source.stop,
  };
}

// ---------------------------------------------------------------------------------------------

let stub: Stub;
let main: Awaited<ReturnType<typeof createTestDatabase>>;
let limitsDb: Awaited<ReturnType<typeof createTestDatabase>>;
let appA: RunningApp;
let appB: RunningApp;
let appLimited: RunningApp;
let sql: postgres.Sql;

beforeAll(async () => {
  stub = await startStub();
  [main, limitsDb] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  const priceEnv = { PRICE_SOURCE_URL: stub.url, PRICE_FETCH_TIMEOUT_MS: String(TIMEOUT_MS) };
  const raised = { RATE_LIMIT_GLOBAL_PER_MINUTE: "100000", RATE_LIMIT_PRICE_PER_MINUTE: "100000" };
  // A and B: two instances on one database. The limited app keeps the default limits and its
  // own database, so its counters start from zero whatever the other tests did.
  appA = await startApp({ DATABASE_URL: main.url, ...priceEnv, ...raised });
  [appB, appLimited] = await Promise.all([
    startApp({ DATABASE_URL: main.url, ...priceEnv, ...raised }),
    startApp({ DATABASE_URL: limitsDb.url, ...priceEnv }),
  ]);
  sql = postgres(main.url, { max: 2, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end();
  await Promise.all([appA?.stop(), appB?.stop(), appLimited?.stop()]);
  await Promise.all([main?.drop(), limitsDb?.drop()]);
  await stub?.close();
});

beforeEach(async () => {
  await sql`delete from price_cache`;
  stub.reset();
});

const price = (app: RunningApp, query = "") => getJson(`${app.url}/api/prices/xlm${query}`);

/** Makes the stored price look `seconds` old (the server reads the wall clock). */
async function age(seconds: number) {
  await sql`update price_cache set fetched_at = now() - make_interval(secs => ${seconds}),
    attempted_at = now() - make_interval(secs => ${seconds})`;
}

describe("GET /api/prices/xlm", () => {
  it("fetches a price when none is cached and answers cached false", async () => {
    const res = await price(appA);
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({ usd: 0.1234, cached: false });
    expect(stub.hits()).toBe(1);
    const [row] = await sql`select pair, price from price_cache`;
    expect(row).toEqual({ pair: "XLM-USD", price: "0.123400000000" });
  });

  it("serves the cached price within 60 s without asking the source again", async () => {
    expect((await price(appA)).body.cached).toBe(false);
    await age(55);
    const b = await price(appA);
    expect(b.status).toBe(200);
    expect(b.body).toStrictEqual({ usd: 0.1234, cached: true });
    const a = await price(appB, "?envelope=true");
    expect(a.body).toStrictEqual({ success: true, data: { usd: 0.1234, cached: true } });
    expect((await getJson(`${appA.url}/api/v1/prices/xlm`)).body.cached).toBe(true);
    expect(stub.hits()).toBe(1);
  });

  it("fetches again once the cached price is 60 s old", async () => {
    await price(appA);
    await age(61);
    stub.set({ kind: "price", usd: 0.2 });
    const res = await price(appA);
    expect(res.body).toStrictEqual({ usd: 0.2, cached: false });
    expect(stub.hits()).toBe(2);
  });

  it("serves the last known price as stale when the source fails after a success", async () => {
    await price(appA);
    await age(120);
    stub.set({ kind: "fail" });
    const res = await price(appA);
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({ usd: 0.1234, cached: true, stale: true });
    expect(stub.hits()).toBe(2);
    // Right after a failure the source is not asked again by any instance for a while.
    const again = await price(appB, "?envelope=true");
    expect(again.body).toStrictEqual({
      success: true,
      data: { usd: 0.1234, cached: true, stale: true },
    });
    expect(stub.hits()).toBe(2);
    // The failure did not make the old price look fresh.
    const [row] = await sql`select fetched_at < attempted_at as failed from price_cache`;
    expect(row.failed).toBe(true);
  });

  it("answers 503 with the spec's message when the source fails and nothing was ever cached", async () => {
    stub.set({ kind: "fail" });
    const b = await price(appA);
    expect(b.status).toBe(503);
    expect(b.body).toStrictEqual({ error: UNAVAILABLE, code: "UNAVAILABLE" });
    const a = await price(appA, "?envelope=true");
    expect(a.status).toBe(503);
    expect(a.body).toStrictEqual({
      success: false,
      error: { code: "UNAVAILABLE", message: UNAVAILABLE },
    });
    expect(stub.hits()).toBe(2);
    expect(await sql`select 1 from price_cache`).toHaveLength(0);
  });

  it.each([
    ["not JSON", "<html>Too Many Requests</html>"],
    ["an empty object", "{}"],
    ["a string price", '{"stellar":{"usd":"0.12"}}'],
    ["a negative price", '{"stellar":{"usd":-1}}'],
    ["another coin", '{"bitcoin":{"usd":60000}}'],
  ])("treats a source answering %s as a failure", async (_, body) => {
    stub.set({ kind: "garbage", body });
    const res = await price(appA);
    expect(res.status).toBe(503);
    expect(res.body.error).toBe(UNAVAILABLE);
    expect(stub.hits()).toBe(1);
  });

  it("gives up on a source slower than the timeout: 503 with no price, stale with one", async () => {
    stub.set({ kind: "hang" });
    let started = Date.now();
    const none = await price(appA);
    expect(none.status).toBe(503);
    expect(none.body.error).toBe(UNAVAILABLE);
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 2000);

    await sql`insert into price_cache (pair, price, fetched_at, attempted_at)
      values ('XLM-USD', '0.111', now() - interval '5 minutes', now() - interval '5 minutes')`;
    started = Date.now();
    const old = await price(appA);
    expect(old.body).toStrictEqual({ usd: 0.111, cached: true, stale: true });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 2000);
    expect(stub.hits()).toBe(2);
  });

  it("makes exactly one outbound request for 100 concurrent requests", async () => {
    stub.set({ kind: "price", usd: 0.3456, delayMs: 400 });
    const all = await Promise.all(Array.from({ length: 100 }, () => price(appA)));
    expect(all.map((r) => r.status)).toStrictEqual(Array(100).fill(200));
    expect(new Set(all.map((r) => r.body.usd))).toStrictEqual(new Set([0.3456]));
    expect(all.some((r) => r.body.cached === false)).toBe(true);
    expect(stub.hits()).toBe(1);
  });

  it("makes one outbound request in total for two instances asked at once", async () => {
    // Warm both instances' route first, so neither is still loading code when the wave comes.
    await price(appA);
    await price(appB);
    expect(stub.hits()).toBe(1);

    await sql`delete from price_cache`;
    stub.reset();
    stub.set({ kind: "price", usd: 0.4567, delayMs: 600 });
    const wave = () =>
      Promise.all(Array.from({ length: 40 }, (_, i) => price(i % 2 ? appA : appB)));
    const ok = await wave();
    expect(ok.map((r) => r.status)).toStrictEqual(Array(40).fill(200));
    expect(new Set(ok.map((r) => r.body.usd))).toStrictEqual(new Set([0.4567]));
    expect(stub.hits()).toBe(1);

    // A failing source, nothing cached: the instance that waited does not try again itself.
    await sql`delete from price_cache`;
    stub.reset();
    stub.set({ kind: "fail", delayMs: 600 });
    const failed = await wave();
    expect(failed.map((r) => r.status)).toStrictEqual(Array(40).fill(503));
    expect(stub.hits()).toBe(1);

    // A failing source with an old price: everyone gets it as stale, still one request.
    await sql`insert into price_cache (pair, price, fetched_at, attempted_at)
      values ('XLM-USD', '0.5', now() - interval '5 minutes', now() - interval '5 minutes')`;
    stub.reset();
    stub.set({ kind: "fail", delayMs: 600 });
    const stale = await wave();
    for (const r of stale) expect(r.body).toStrictEqual({ usd: 0.5, cached: true, stale: true });
    expect(stub.hits()).toBe(1);
  });

  it("answers 405 to other methods", async () => {
    const res = await fetch(`${appA.url}/api/prices/xlm`, { method: "POST" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
  });
});

describe("price rate limit", () => {
  /** Fixed one-minute windows: start early enough in a window to finish inside it. */
  async function awaitFreshWindow() {
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 50));
  }

  it("answers the 31st request in a minute from one IP with 429 Too many price requests", async () => {
    await awaitFreshWindow();
    for (let i = 1; i <= 30; i++) {
      const res = await price(appLimited);
      expect(res.status, `request ${i}`).toBe(200);
      expect(res.headers.get("ratelimit-limit")).toBe("30");
      expect(res.headers.get("ratelimit-remaining")).toBe(String(30 - i));
    }
    const over = await price(appLimited);
    expect(over.status).toBe(429);
    expect(over.body.error).toBe("Too many price requests");
    expect(over.body.code).toBe("RATE_LIMIT_EXCEEDED");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(over.headers.get("x-ratelimit-policy")).toContain("30;w=60");
    const overA = await price(appLimited, "?envelope=true");
    expect(overA.status).toBe(429);
    expect(overA.body.error.message).toBe("Too many price requests");
    // One fetch served all 30: the limit guards the service, the cache guards the source.
    expect(stub.hits()).toBe(1);
  });
});

describe("price cache with an injected clock (service on real PostgreSQL)", () => {
  let handle: DatabaseHandle;
  let clock = new Date("2026-03-01T12:00:00.000Z");
  const at = (ms: number) => new Date(Date.parse("2026-03-01T12:00:00.000Z") + ms);
  let ctx: PriceContext;

  beforeAll(async () => {
    handle = await openDatabase({ databaseUrl: main.url, dataDir: "/nonexistent", migrate: false });
    ctx = {
      db: handle.db,
      config: parseConfig({
        JWT_SECRET: TEST_JWT_SECRET,
        DATABASE_URL: main.url,
        PRICE_SOURCE_URL: stub.url,
        PRICE_FETCH_TIMEOUT_MS: String(TIMEOUT_MS),
      }),
      now: () => clock,
      logger,
    };
  });

  afterAll(async () => {
    await handle?.close();
  });

  it("is fresh up to 59.999 s and fetched again at 60 s", async () => {
    clock = at(0);
    expect(await getXlmPrice(ctx)).toStrictEqual({
      usd: "0.123400000000",
      cached: false,
      stale: false,
    });
    clock = at(59_999);
    expect(await getXlmPrice(ctx)).toMatchObject({ cached: true, stale: false });
    expect(stub.hits()).toBe(1);
    clock = at(60_000);
    expect(await getXlmPrice(ctx)).toMatchObject({ cached: false, stale: false });
    expect(stub.hits()).toBe(2);
  });

  it("after a failure serves stale for 10 s without asking, then asks again", async () => {
    clock = at(0);
    await getXlmPrice(ctx);
    stub.set({ kind: "fail" });
    clock = at(61_000);
    expect(await getXlmPrice(ctx)).toStrictEqual({
      usd: "0.123400000000",
      cached: true,
      stale: true,
    });
    expect(stub.hits()).toBe(2);
    clock = at(70_999);
    expect(await getXlmPrice(ctx)).toMatchObject({ cached: true, stale: true });
    expect(stub.hits()).toBe(2);
    clock = at(71_000);
    stub.set({ kind: "price", usd: 0.25 });
    expect(await getXlmPrice(ctx)).toStrictEqual({
      usd: "0.250000000000",
      cached: false,
      stale: false,
    });
    expect(stub.hits()).toBe(3);
  });

  it("coalesces concurrent callers in one process onto one resolution", async () => {
    stub.set({ kind: "price", usd: 0.7, delayMs: 200 });
    clock = at(0);
    const results = await Promise.all(Array.from({ length: 20 }, () => getXlmPrice(ctx)));
    // Callers that only waited on another's lock would read cached true; sharing the one
    // in-flight resolution, all of them receive its answer.
    expect(results).toStrictEqual(
      Array(20).fill({ usd: "0.700000000000", cached: false, stale: false }),
    );
    expect(stub.hits()).toBe(1);
  });
});

describe("configuration", () => {
  it("defaults to CoinGecko with the spec's 5-second timeout", () => {
    const config = parseConfig({ JWT_SECRET: TEST_JWT_SECRET, DATABASE_URL: "postgres://x/y" });
    expect(config.prices).toStrictEqual({
      sourceUrl: "https://api.coingecko.com/api/v3/simple/price?ids=stellar&vs_currencies=usd",
      timeoutMs: 5000,
    });
    expect(config.rateLimits.pricePerMinute).toBe(30);
  });

  it("rejects a price source that is not an http(s) URL", () => {
    const env = { JWT_SECRET: TEST_JWT_SECRET, DATABASE_URL: "postgres://x/y" };
    expect(() => parseConfig({ ...env, PRICE_SOURCE_URL: "ftp://x" })).toThrow("PRICE_SOURCE_URL");
    expect(() => parseConfig({ ...env, PRICE_FETCH_TIMEOUT_MS: "0" })).toThrow(
      "PRICE_FETCH_TIMEOUT_MS",
    );
  });
});
