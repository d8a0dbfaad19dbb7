import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { createPostgresRateLimiter } from "@/lib/ratelimit/postgres";
import type { RateLimiter, RateLimitPolicy } from "@/lib/ratelimit/types";
import { createUpstashRateLimiter } from "@/lib/ratelimit/upstash";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { createTestDatabase } from "./helpers/postgres";
import { startUpstash } from "./helpers/upstash";

/**
 * Issue 14, findings 2, 3, 5 and 7 (docs/decisions.md, Limits): public limits stay per IP
 * with a token, idempotency keys belong to their caller, the client address cannot be
 * spoofed, and rejected creates do not use up the creation limit.
 */
let app: RunningApp;
let proxied: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let dbProxied: Awaited<ReturnType<typeof createTestDatabase>>;

const PRICE_LIMIT = 5;
const UNKNOWN_ID = "z".repeat(24);

beforeAll(async () => {
  [db, dbProxied] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  const env = {
    RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
    RATE_LIMIT_PRICE_PER_MINUTE: String(PRICE_LIMIT),
    PRICE_SOURCE_URL: "http://127.0.0.1:9/price",
    PRICE_FETCH_TIMEOUT_MS: "200",
  };
  [app, proxied] = await Promise.all([
    startApp({ ...env, DATABASE_URL: db.url }),
    startApp({ ...env, DATABASE_URL: dbProxied.url, TRUST_PROXY: "true" }),
  ]);
});

afterAll(async () => {
  await Promise.all([app?.stop(), proxied?.stop()]);
  await Promise.all([db?.drop(), dbProxied?.drop()]);
});

/** Fixed one-minute windows: start a run early enough in a window to finish inside it. */
async function awaitFreshWindow() {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 50));
}

async function post(base: string, path: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await res.json().catch(() => null) };
}

describe("public limits stay per IP with a token (finding 2)", () => {
  it("one IP with three wallets' tokens gets 429 on the 11th pay-intent in 5 minutes", async () => {
    const tokens = await Promise.all([1, 2, 3].map(async () => (await signIn(app.url)).token));
    const path = `/api/payments/${UNKNOWN_ID}/pay-intent`;
    for (let i = 0; i < 10; i++) {
      const res = await post(app.url, path, {}, { authorization: `Bearer ${tokens[i % 3]}` });
      expect(res.status, `pay-intent ${i + 1}`).not.toBe(429);
    }
    const over = await post(app.url, path, {}, { authorization: `Bearer ${tokens[2]}` });
    expect(over.status).toBe(429);
    expect(over.body.error).toBe("Too many requests");
    // Without a token the same address is just as spent.
    expect((await post(app.url, path, {}, {})).status).toBe(429);
  });
});

describe("client address (finding 5)", () => {
  it("without TRUST_PROXY, spoofed forwarding headers do not change the limit key", async () => {
    await awaitFreshWindow();
    const statuses: number[] = [];
    for (let i = 0; i <= PRICE_LIMIT; i++) {
      const res = await fetch(`${app.url}/api/prices/xlm`, {
        headers: {
          "x-client-ip": `198.51.100.${i}`,
          "x-client-ip-proof": "guess",
          "x-forwarded-for": `203.0.113.${i}`,
          "x-real-ip": `192.0.2.${i}`,
        },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, PRICE_LIMIT)).not.toContain(429);
    expect(statuses[PRICE_LIMIT]).toBe(429);
  });

  it("with TRUST_PROXY, the right-most X-Forwarded-For entry is the key; X-Real-IP is ignored", async () => {
    await awaitFreshWindow();
    const price = (xff: string, realIp: string) =>
      fetch(`${proxied.url}/api/prices/xlm`, {
        headers: { "x-forwarded-for": xff, "x-real-ip": realIp },
      }).then((r) => r.status);
    const statuses: number[] = [];
    for (let i = 0; i <= PRICE_LIMIT; i++) {
      statuses.push(await price(`10.0.0.${i}, 203.0.113.50`, `192.0.2.${i}`));
    }
    expect(statuses.slice(0, PRICE_LIMIT)).not.toContain(429);
    expect(statuses[PRICE_LIMIT]).toBe(429);
    expect(await price("203.0.113.51", "203.0.113.50")).not.toBe(429);
  });
});

describe("idempotency keys (finding 3)", () => {
  const submit = (xff: string, key: string, body: unknown) =>
    post(proxied.url, "/api/payments/submit", body, {
      "x-forwarded-for": xff,
      "idempotency-key": key,
    });

  it("are scoped by caller: another IP neither gets the stored response nor is blocked", async () => {
    const key = `shared-${Date.now()}`;
    const body = { invoiceId: UNKNOWN_ID, signedXdr: "AAAA" };
    const first = await submit("203.0.113.60", key, body);
    expect(first.status).toBeGreaterThanOrEqual(400);
    expect(first.status).toBeLessThan(500);
    const again = await submit("203.0.113.60", key, body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);

    const otherSame = await submit("203.0.113.61", key, body);
    expect(otherSame.headers.get("idempotent-replayed")).toBeNull();
    const otherDifferent = await submit("203.0.113.62", key, {
      invoiceId: UNKNOWN_ID,
      signedXdr: "BBBB",
    });
    expect(otherDifferent.headers.get("idempotent-replayed")).toBeNull();
    expect(otherDifferent.body?.error).not.toBe(
      "Idempotency-Key was already used with a different request",
    );
    // A signed-in caller has its own scope too.
    const { token } = await signIn(proxied.url);
    const withToken = await post(proxied.url, "/api/payments/submit", body, {
      "x-forwarded-for": "203.0.113.60",
      "idempotency-key": key,
      authorization: `Bearer ${token}`,
    });
    expect(withToken.headers.get("idempotent-replayed")).toBeNull();
  });

  it("fingerprint after validation: 49k nested brackets are a 400 with or without the key", async () => {
    const deep = `${"[".repeat(49_000)}${"]".repeat(49_000)}`;
    const without = await post(app.url, "/api/payments/submit", deep, {});
    expect(without.status).toBe(400);
    const withKey = await post(app.url, "/api/payments/submit", deep, {
      "idempotency-key": `deep-${Date.now()}`,
    });
    expect(withKey.status).toBe(400);
    expect(withKey.body).toEqual(without.body);
  });
});

describe("creation limits count only creations that succeed (finding 7)", () => {
  let api: Api;
  beforeAll(async () => {
    api = client(app.url, (await signIn(app.url)).token);
  });

  it("20 rejected invoices then a good one is 201; the 21st successful create is 429", async () => {
    for (let i = 0; i < 20; i++) {
      const bad = await api.post("/api/invoices", invoiceBody({ lineItems: [] }));
      expect(bad.status, `rejected create ${i + 1}`).toBe(400);
    }
    const good = await api.post("/api/invoices", invoiceBody());
    expect(good.status).toBe(201);
    expect(good.headers.get("ratelimit-remaining")).toBe("19");
    for (let i = 2; i <= 20; i++) {
      expect((await api.post("/api/invoices", invoiceBody())).status, `create ${i}`).toBe(201);
    }
    const over = await api.post("/api/invoices", invoiceBody());
    expect(over.status).toBe(429);
    expect(over.body.error).toBe(
      "Invoice creation limit reached. Maximum 20 invoices per hour per wallet.",
    );
    expect((await api.get("/api/invoices")).body.total).toBe(20);
  });

  it("holds under concurrency: of 10 rejected and 25 good creates at once, exactly 20 succeed", async () => {
    const fresh = client(app.url, (await signIn(app.url)).token);
    const calls = [
      ...Array.from({ length: 10 }, () => fresh.post("/api/invoices", invoiceBody({ title: "" }))),
      ...Array.from({ length: 25 }, () => fresh.post("/api/invoices", invoiceBody())),
    ];
    const statuses = (await Promise.all(calls)).map((r) => r.status);
    // A rejected create holds its hit until it is answered, so a good one may see 429 then.
    const created = statuses.filter((s) => s === 201).length;
    expect(created).toBeLessThanOrEqual(20);
    expect(statuses.filter((s) => s !== 201 && s !== 400 && s !== 429)).toEqual([]);
    expect((await fresh.get("/api/invoices")).body.total).toBe(created);
    // The rejected ones handed their hits back: good creates go on until exactly 20 exist.
    let more = created;
    for (;;) {
      const res = await fresh.post("/api/invoices", invoiceBody());
      if (res.status !== 201) {
        expect(res.status).toBe(429);
        break;
      }
      more++;
    }
    expect(more).toBe(20);
    expect((await fresh.get("/api/invoices")).body.total).toBe(20);
  });

  it("a rejected link create does not use up the link limit", async () => {
    const link = { amount: "12.5", asset: "XLM", title: "Coffee" };
    const first = await api.post("/api/links", link);
    expect(first.status).toBe(201);
    const remaining = Number(first.headers.get("ratelimit-remaining"));
    for (let i = 0; i < 5; i++) {
      expect((await api.post("/api/links", { ...link, amount: "-1" })).status).toBe(400);
    }
    const next = await api.post("/api/links", link);
    expect(next.status).toBe(201);
    expect(Number(next.headers.get("ratelimit-remaining"))).toBe(remaining - 1);
  });
});

describe("release: a handed-back hit frees its place in the window, once", () => {
  const policy: RateLimitPolicy = {
    name: "release-test",
    limit: 2,
    windowSeconds: 3600,
    message: "Too many requests",
    successesOnly: true,
  };
  async function check(limiter: RateLimiter) {
    const now = new Date();
    const first = await limiter.hit(policy, "w:a", now);
    expect((await limiter.hit(policy, "w:a", now)).remaining).toBe(0);
    await limiter.release(first, "w:a");
    const again = await limiter.hit(policy, "w:a", now);
    expect(again).toMatchObject({ allowed: true, remaining: 0 });
    expect((await limiter.hit(policy, "w:a", now)).allowed).toBe(false);
    // A counter never goes below zero: releasing more than was taken frees nothing extra.
    await limiter.release(first, "w:b");
    expect((await limiter.hit(policy, "w:b", now)).remaining).toBe(1);
  }

  it("PostgreSQL", async () => {
    const handle = await openDatabase({
      databaseUrl: db.url,
      dataDir: "/nonexistent",
      migrate: false,
    });
    try {
      await check(createPostgresRateLimiter(handle));
    } finally {
      await handle.close();
    }
  });

  it("Upstash", async () => {
    const upstash = await startUpstash();
    try {
      await check(createUpstashRateLimiter({ url: upstash.url, token: upstash.token }));
    } finally {
      await upstash.stop();
    }
  });
});
