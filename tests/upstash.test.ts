import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RateLimitPolicy } from "@/lib/ratelimit/types";
import { createUpstashRateLimiter } from "@/lib/ratelimit/upstash";
import { type RunningApp, startApp } from "./helpers/app";
import { getJson, signIn } from "./helpers/auth";
import { createTestDatabase } from "./helpers/postgres";
import { type LocalUpstash, startUpstash } from "./helpers/upstash";

// The Upstash adapter (used when UPSTASH_REDIS_REST_URL/TOKEN are set) against a real Redis
// behind a local server speaking Upstash's REST protocol.
let upstash: LocalUpstash;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let appA: RunningApp;
let appB: RunningApp;
const LIMIT = 12;

beforeAll(async () => {
  upstash = await startUpstash();
  db = await createTestDatabase();
  const env = {
    DATABASE_URL: db.url,
    UPSTASH_REDIS_REST_URL: upstash.url,
    UPSTASH_REDIS_REST_TOKEN: upstash.token,
    RATE_LIMIT_GLOBAL_PER_MINUTE: String(LIMIT),
  };
  [appA, appB] = await Promise.all([startApp(env), startApp(env)]);
});

afterAll(async () => {
  await Promise.all([appA?.stop(), appB?.stop()]);
  await upstash?.stop();
  await db?.drop();
});

/** Fixed one-minute windows: start a run early enough in a window to finish inside it. */
async function awaitFreshWindow() {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 50));
}

const policy: RateLimitPolicy = {
  name: "direct",
  limit: 100,
  windowSeconds: 60,
  message: "Too many requests",
};

describe("Upstash rate limiter", () => {
  it("150 concurrent hits from two limiters: exactly 100 allowed, each remaining count once", async () => {
    await awaitFreshWindow();
    const a = createUpstashRateLimiter({ url: upstash.url, token: upstash.token });
    const b = createUpstashRateLimiter({ url: upstash.url, token: upstash.token });
    const now = new Date();
    const results = await Promise.all(
      Array.from({ length: 150 }, (_, i) => (i % 2 ? a : b).hit(policy, "ip:1", now)),
    );
    const allowed = results.filter((r) => r.allowed);
    expect(allowed).toHaveLength(100);
    expect(new Set(allowed.map((r) => r.remaining)).size).toBe(100);
    expect(results.filter((r) => !r.allowed).every((r) => r.remaining === 0)).toBe(true);
    const windowEnd = Math.ceil(Date.now() / 60_000) * 60_000;
    expect(results[0].resetAt.getTime()).toBe(windowEnd);
    // The counter lives in Redis.
    expect(upstash.redis("keys", "rl:direct:ip:1*")).not.toBe("");
  });

  it("two app processes share the limit through Upstash; PostgreSQL keeps no counters", async () => {
    await awaitFreshWindow();
    const { token } = await signIn(appA.url);
    const auth = { authorization: `Bearer ${token}` };
    for (let i = 1; i <= LIMIT; i++) {
      const res = await getJson(`${(i % 2 ? appA : appB).url}/api/auth/session`, auth);
      expect(res.status, `request ${i}`).toBe(200);
      expect(res.headers.get("ratelimit-remaining")).toBe(String(LIMIT - i));
    }
    const over = await getJson(`${appB.url}/api/auth/session`, auth);
    expect(over.status).toBe(429);
    expect(over.body.error).toBe("Too many requests");
    expect(over.body.code).toBe("RATE_LIMIT_EXCEEDED");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const postgres = (await import("postgres")).default;
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      const [{ n }] = await sql`select count(*)::int as n from rate_limit_counters`;
      expect(n).toBe(0);
    } finally {
      await sql.end();
    }
  });

  it("Upstash unreachable: a clear 503 within seconds, not a 500 and not an unlimited pass", async () => {
    await upstash.stopFront();
    const started = Date.now();
    const res = await getJson(`${appA.url}/api/payments/unknownunknownunknown1/status`);
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(res.body.code).toBe("UNAVAILABLE");
    expect(res.body.error).toBe("Service temporarily unavailable. Please try again later.");
    expect(Date.now() - started).toBeLessThan(10_000);
    const direct = createUpstashRateLimiter({ url: upstash.url, token: upstash.token });
    await expect(direct.hit(policy, "ip:2", new Date())).rejects.toThrow(
      "Service temporarily unavailable",
    );
  });
});
