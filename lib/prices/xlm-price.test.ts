import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CACHE_TTL_MS, type CacheTimes, decideCache, RETRY_AFTER_FAILURE_MS } from "./cache";
import { fetchXlmUsd, PriceSourceError, parseSourceBody } from "./source";

const T0 = new Date("2026-03-01T12:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const row = (fetchedMs: number, attemptedMs = fetchedMs): CacheTimes & { price: string } => ({
  price: "0.123400000000",
  fetchedAt: at(fetchedMs),
  attemptedAt: at(attemptedMs),
});

describe("decideCache (clock injected)", () => {
  it("fetches when nothing was ever stored", () => {
    expect(decideCache(undefined, T0)).toBe("fetch");
  });

  it("serves a price younger than 60 s and fetches from 60 s on", () => {
    expect(decideCache(row(0), at(0))).toBe("fresh");
    expect(decideCache(row(0), at(CACHE_TTL_MS - 1))).toBe("fresh");
    expect(decideCache(row(0), at(CACHE_TTL_MS))).toBe("fetch");
    expect(decideCache(row(0), at(10 * CACHE_TTL_MS))).toBe("fetch");
  });

  it("serves the last known price as stale right after a failed attempt, then retries", () => {
    const failed = row(0, CACHE_TTL_MS + 1000);
    expect(decideCache(failed, at(CACHE_TTL_MS + 1000))).toBe("stale");
    expect(decideCache(failed, at(CACHE_TTL_MS + 1000 + RETRY_AFTER_FAILURE_MS - 1))).toBe("stale");
    expect(decideCache(failed, at(CACHE_TTL_MS + 1000 + RETRY_AFTER_FAILURE_MS))).toBe("fetch");
  });

  it("does not mistake a successful attempt for a failed one", () => {
    // attempted_at == fetched_at: the last attempt succeeded, an old price is simply refreshed.
    expect(decideCache(row(0, 0), at(CACHE_TTL_MS + 1))).toBe("fetch");
  });

  it("tolerates a little clock skew but not a timestamp far in the future", () => {
    expect(decideCache(row(500), at(0))).toBe("fresh");
    expect(decideCache(row(CACHE_TTL_MS + 1), at(0))).toBe("fetch");
    expect(decideCache(row(-2 * CACHE_TTL_MS, 3 * CACHE_TTL_MS), at(0))).toBe("fetch");
  });
});

describe("parseSourceBody", () => {
  it("returns the price as a decimal string", () => {
    expect(parseSourceBody({ stellar: { usd: 0.1234 } })).toBe("0.1234");
    expect(parseSourceBody({ stellar: { usd: 12 } })).toBe("12");
    expect(parseSourceBody({ stellar: { usd: 0.000001 }, other: {} })).toBe("0.000001");
  });

  it.each([
    ["an empty object", {}],
    ["null", null],
    ["a string price", { stellar: { usd: "0.12" } }],
    ["zero", { stellar: { usd: 0 } }],
    ["a negative price", { stellar: { usd: -0.1 } }],
    ["a price the column would round to zero", { stellar: { usd: 1e-13 } }],
    ["a price too large for the column", { stellar: { usd: 1e18 } }],
    ["another coin only", { bitcoin: { usd: 60000 } }],
  ])("rejects %s", (_, body) => {
    expect(() => parseSourceBody(body)).toThrow(PriceSourceError);
  });
});

describe("fetchXlmUsd against a local source", () => {
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const send = (status: number, body: string, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(body);
      };
      if (req.url === "/ok") return send(200, '{"stellar":{"usd":0.0987}}');
      if (req.url === "/error") return send(500, '{"error":"down"}');
      if (req.url === "/html") return send(200, "<html>rate limited</html>");
      if (req.url === "/redirect") return send(302, "", { location: "/ok" });
      if (req.url === "/slow-body") {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"stellar":');
        return; // never finishes the body
      }
      // /hang: never answers
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const source = (path: string, timeoutMs = 2000) => ({ sourceUrl: `${base}${path}`, timeoutMs });

  it("reads the price", async () => {
    await expect(fetchXlmUsd(source("/ok"))).resolves.toBe("0.0987");
  });

  it("fails on an error status, a non-JSON body and a redirect", async () => {
    await expect(fetchXlmUsd(source("/error"))).rejects.toThrow("answered 500");
    await expect(fetchXlmUsd(source("/html"))).rejects.toThrow(PriceSourceError);
    await expect(fetchXlmUsd(source("/redirect"))).rejects.toThrow();
  });

  it("gives up after the timeout, whether the headers or the body are late", async () => {
    for (const path of ["/hang", "/slow-body"]) {
      const started = Date.now();
      await expect(fetchXlmUsd(source(path, 300))).rejects.toMatchObject({ name: "TimeoutError" });
      expect(Date.now() - started).toBeLessThan(2000);
    }
  });
});
