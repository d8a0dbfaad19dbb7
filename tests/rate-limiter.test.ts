import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { createPostgresRateLimiter } from "@/lib/ratelimit/postgres";
import type { RateLimitPolicy } from "@/lib/ratelimit/types";
import { createTestDatabase } from "./helpers/postgres";

// The PostgreSQL limiter on its own: batched hits must count exactly as one hit at a time would.
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let handleA: DatabaseHandle;
let handleB: DatabaseHandle;
let statements = 0;

const policy = (limit: number, name = "t"): RateLimitPolicy => ({
  name,
  limit,
  windowSeconds: 60,
  message: "Too many requests",
});
const NOW = new Date("2026-11-22T10:00:30Z");

beforeAll(async () => {
  db = await createTestDatabase();
  handleA = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
  handleB = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent", migrate: false });
});

afterAll(async () => {
  await handleA?.close();
  await handleB?.close();
  await db?.drop();
});

/** handleA's driver, counting the statements it sends. */
function countingA(): Pick<DatabaseHandle, "raw"> {
  return {
    raw: (text, params) => {
      statements++;
      return handleA.raw(text, params);
    },
  };
}

async function counter(key: string) {
  const [row] = await handleA.raw<{ count: number; window_start: Date }>(
    "select count, window_start from rate_limit_counters where key = $1",
    [key],
  );
  return row;
}

describe("PostgreSQL rate limiter", () => {
  it("250 concurrent hits on one key: exactly the first 100 allowed, in fewer statements", async () => {
    statements = 0;
    const limiter = createPostgresRateLimiter(countingA());
    const results = await Promise.all(
      Array.from({ length: 250 }, () => limiter.hit(policy(100), "ip:1", NOW)),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(100);
    // Arrival order: the first 100 callers are the allowed ones, remaining counts down.
    expect(results.slice(0, 100).every((r) => r.allowed)).toBe(true);
    expect(results.slice(0, 100).map((r) => r.remaining)).toEqual(
      Array.from({ length: 100 }, (_, i) => 99 - i),
    );
    expect(results.slice(100).every((r) => !r.allowed && r.remaining === 0)).toBe(true);
    expect(results[0].resetAt.toISOString()).toBe("2026-11-22T10:01:00.000Z");
    expect((await counter("t:ip:1")).count).toBe(250);
    expect(statements).toBeLessThan(250);
    expect(statements).toBeGreaterThanOrEqual(1);
  });

  it("two instances hitting one key at once still allow exactly the limit", async () => {
    const a = createPostgresRateLimiter(handleA);
    const b = createPostgresRateLimiter(handleB);
    const hits = Array.from({ length: 300 }, (_, i) =>
      (i % 2 ? a : b).hit(policy(120), "ip:2", NOW),
    );
    const results = await Promise.all(hits);
    expect(results.filter((r) => r.allowed)).toHaveLength(120);
    // Every count from 1 to 300 was handed out once: remaining 119..0 each once among allowed.
    const remaining = results.filter((r) => r.allowed).map((r) => r.remaining);
    expect(new Set(remaining).size).toBe(120);
    expect((await counter("t:ip:2")).count).toBe(300);
  });

  it("many keys in one batch, from two instances in opposite orders: no deadlock, exact counts", async () => {
    const a = createPostgresRateLimiter(handleA);
    const b = createPostgresRateLimiter(handleB);
    const keys = Array.from({ length: 40 }, (_, i) => `ip:k${i}`);
    const rounds = [];
    for (let round = 0; round < 5; round++) {
      for (const k of keys) rounds.push(a.hit(policy(1000), k, NOW));
      for (const k of [...keys].reverse()) rounds.push(b.hit(policy(1000), k, NOW));
    }
    await Promise.all(rounds);
    for (const k of keys) expect((await counter(`t:${k}`)).count).toBe(10);
  });

  it("a new window restarts the count; a lagging clock cannot reset a newer window", async () => {
    const limiter = createPostgresRateLimiter(handleA);
    const p = policy(2);
    const first = await Promise.all([1, 2, 3].map(() => limiter.hit(p, "ip:3", NOW)));
    expect(first.map((r) => r.allowed)).toEqual([true, true, false]);
    const next = new Date(NOW.getTime() + 60_000);
    // Hits of two windows queued together: each window is counted on its own.
    const mixed = await Promise.all([
      limiter.hit(p, "ip:3", next),
      limiter.hit(p, "ip:3", next),
      limiter.hit(p, "ip:3", next),
    ]);
    expect(mixed.map((r) => r.allowed)).toEqual([true, true, false]);
    expect(mixed[0].resetAt.toISOString()).toBe("2026-11-22T10:02:00.000Z");
    const lagging = await limiter.hit(p, "ip:3", NOW);
    expect(lagging.allowed).toBe(false);
    expect((await counter("t:ip:3")).count).toBe(4);
  });

  it("policies are separate counters; a failed statement rejects its callers and the next ones work", async () => {
    let fail = true;
    const flaky: Pick<DatabaseHandle, "raw"> = {
      raw: (text, params) =>
        fail ? Promise.reject(new Error("connection lost")) : handleA.raw(text, params),
    };
    const limiter = createPostgresRateLimiter(flaky);
    const failed = await Promise.allSettled([
      limiter.hit(policy(5, "x"), "ip:4", NOW),
      limiter.hit(policy(5, "y"), "ip:4", NOW),
    ]);
    expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    fail = false;
    const ok = await Promise.all([
      limiter.hit(policy(5, "x"), "ip:4", NOW),
      limiter.hit(policy(5, "y"), "ip:4", NOW),
      limiter.hit(policy(5, "y"), "ip:4", NOW),
    ]);
    expect(ok.map((r) => r.remaining)).toEqual([4, 4, 3]);
  });
});

describe("PostgreSQL rate limiter, a statement that never returns", () => {
  it("fails its callers with a 503 after the timeout and serves the next hits", async () => {
    let calls = 0;
    const stuckOnce: Pick<DatabaseHandle, "raw"> = {
      raw: (text, params) =>
        calls++ === 0 ? new Promise<never>(() => {}) : handleA.raw(text, params),
    };
    const limiter = createPostgresRateLimiter(stuckOnce, { timeoutMs: 300 });
    const started = Date.now();
    const stuck = limiter.hit(policy(5, "stuck"), "ip:6", NOW);
    // Queued behind the stuck statement: they go once it is given up on.
    const next = Promise.all([
      limiter.hit(policy(5, "stuck"), "ip:6", NOW),
      limiter.hit(policy(5, "stuck"), "ip:6", NOW),
    ]);
    await expect(stuck).rejects.toMatchObject({
      kind: "unavailable",
      message: "Service temporarily unavailable. Please try again later.",
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect((await next).map((r) => r.remaining)).toEqual([4, 3]);
  });
});

describe("PGlite rate limiter", () => {
  it("counts the same way on the embedded database", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rl-pglite-"));
    const handle = await openDatabase({ dataDir: dir });
    try {
      const limiter = createPostgresRateLimiter(handle);
      const results = await Promise.all(
        Array.from({ length: 30 }, () => limiter.hit(policy(20), "ip:5", NOW)),
      );
      expect(results.filter((r) => r.allowed)).toHaveLength(20);
      expect(results.map((r) => r.remaining).slice(0, 3)).toEqual([19, 18, 17]);
    } finally {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
