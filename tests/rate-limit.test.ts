import { Keypair } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningApp, startApp } from "./helpers/app";
import { getJson, postJson, signIn } from "./helpers/auth";
import { createTestDatabase } from "./helpers/postgres";

// Two app processes on one database, with the default limit (100 per minute; docs/decisions.md).
let appA: RunningApp;
let appB: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  db = await createTestDatabase();
  [appA, appB] = await Promise.all([
    startApp({ DATABASE_URL: db.url }),
    startApp({ DATABASE_URL: db.url }),
  ]);
});

afterAll(async () => {
  await Promise.all([appA?.stop(), appB?.stop()]);
  await db?.drop();
});

/** Fixed one-minute windows: start a run early enough in a window to finish inside it. */
async function awaitFreshWindow() {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 40_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 50));
}

describe("global rate limit", () => {
  it("the 101st request in a minute is 429, counted across two app processes", async () => {
    await awaitFreshWindow();
    // signIn makes 2 IP-keyed calls; the wallet's own counter starts at the first Bearer call.
    const { token } = await signIn(appA.url);
    const auth = { authorization: `Bearer ${token}` };
    let last: Awaited<ReturnType<typeof getJson>> | undefined;
    for (let i = 1; i <= 100; i++) {
      const app = i % 2 ? appA : appB;
      last = await getJson(`${app.url}/api/auth/session`, auth);
      expect(last.status, `request ${i}`).toBe(200);
      expect(last.headers.get("ratelimit-remaining")).toBe(String(100 - i));
    }
    expect(last?.headers.get("ratelimit-limit")).toBe("100");
    expect(last?.headers.get("x-ratelimit-policy")).toBe("100;w=60");
    const reset = Number(last?.headers.get("ratelimit-reset"));
    expect(reset * 1000).toBeGreaterThan(Date.now());
    expect(reset * 1000).toBeLessThanOrEqual(Date.now() + 61_000);

    const over = await getJson(`${appB.url}/api/auth/session`, auth);
    expect(over.status).toBe(429);
    expect(over.body.error).toBe("Too many requests");
    expect(over.body.code).toBe("RATE_LIMIT_EXCEEDED");
    expect(over.body.retryAfter).toBeGreaterThanOrEqual(1);
    expect(over.body.retryAfter).toBeLessThanOrEqual(60);
    expect(over.headers.get("retry-after")).toBe(String(over.body.retryAfter));
    expect(over.headers.get("ratelimit-remaining")).toBe("0");

    const overA = await getJson(`${appA.url}/api/auth/session?envelope=true`, auth);
    expect(overA.status).toBe(429);
    expect(overA.body).toEqual({
      success: false,
      error: {
        code: "RATE_LIMIT_EXCEEDED",
        message: "Too many requests",
        retryAfter: expect.any(Number),
      },
    });

    // Another wallet has its own counter.
    const other = await signIn(appB.url);
    const ok = await getJson(`${appA.url}/api/auth/session`, {
      authorization: `Bearer ${other.token}`,
    });
    expect(ok.status).toBe(200);
  });
});

describe("invoice creation limit", () => {
  it("the 21st invoice in an hour is 429 with the spec's message", async () => {
    const { token } = await signIn(appA.url);
    const body = {
      clientName: "Limit Co",
      clientEmail: "limit@example.com",
      title: "t",
      lineItems: [{ description: "a", quantity: "1", rate: "1" }],
    };
    for (let i = 1; i <= 20; i++) {
      const res = await postJson(`${(i % 2 ? appA : appB).url}/api/invoices`, body, {
        authorization: `Bearer ${token}`,
      });
      expect(res.status, `invoice ${i}`).toBe(201);
    }
    const over = await postJson(`${appA.url}/api/invoices`, body, {
      authorization: `Bearer ${token}`,
    });
    expect(over.status).toBe(429);
    expect(over.body.error).toBe(
      "Invoice creation limit reached. Maximum 20 invoices per hour per wallet.",
    );
    expect(over.headers.get("ratelimit-limit")).toBe("20");
    expect(over.headers.get("x-ratelimit-policy")).toContain("20;w=3600");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("anonymous callers", () => {
  it("keys anonymous callers by address and ignores a spoofed X-Forwarded-For", async () => {
    await awaitFreshWindow();
    // This file's earlier sign-ins already used some of 127.0.0.1's budget; use it all up.
    let status = 200;
    let sent = 0;
    while (status !== 429 && sent < 150) {
      const res = await postJson(
        `${(sent % 2 ? appA : appB).url}/api/auth/nonce`,
        { walletAddress: Keypair.random().publicKey() },
        { "x-forwarded-for": `10.0.${sent % 250}.1`, "x-real-ip": "10.9.9.9" },
      );
      status = res.status;
      sent++;
    }
    expect(status).toBe(429);
    expect(sent).toBeLessThanOrEqual(101);
  });
});
