import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { invoices } from "@/db/schema";
import { client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type PrivatePostgres, startPrivatePostgres } from "./helpers/private-postgres";

/**
 * A PostgreSQL that stops answering without closing its connections (SIGSTOP on the server and
 * its backends): every request ends within the 5 s deadline with a 503, and the service is back
 * by itself once the server runs again (docs/decisions.md, "Database outages"). The server is
 * this file's own: freezing the shared one would stall every other test file.
 */
let pg: PrivatePostgres;
let dataDir: string;

beforeAll(async () => {
  pg = await startPrivatePostgres();
  const admin = postgres(pg.url, { max: 1, onnotice: () => {} });
  try {
    dataDir = (await admin`show data_directory`)[0].data_directory;
  } finally {
    await admin.end();
  }
});

afterAll(() => pg?.destroy());

/** Stops the postmaster and every backend; the returned function resumes them all. */
function freeze(): () => void {
  const postmaster = Number(
    fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0],
  );
  let children: number[] = [];
  try {
    children = execFileSync("pgrep", ["-P", String(postmaster)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {
    // no children
  }
  const pids = [postmaster, ...children];
  for (const pid of pids) process.kill(pid, "SIGSTOP");
  return () => {
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGCONT");
      } catch {
        // gone
      }
    }
  };
}

/** How long `p` took to settle, and how: a status, "hung" past `boundMs`, or the error. */
async function timed<T>(p: Promise<T>, boundMs: number) {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<"hung">((resolve) => {
    timer = setTimeout(() => resolve("hung"), boundMs);
  });
  const outcome = await Promise.race([
    p.then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    ),
    hung,
  ]);
  clearTimeout(timer);
  return { ms: Date.now() - started, outcome };
}

async function waitFor(check: () => Promise<boolean>, ms: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (await check().catch(() => false)) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not recovered within ${ms} ms`);
}

describe("database client with a frozen server", () => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await openDatabase({ databaseUrl: pg.url, dataDir: "/nonexistent", poolSize: 4 });
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("fails statements, transactions and pings within the deadline, then recovers", async () => {
    // Open every pooled connection first, so some are idle and some busy when it freezes.
    await Promise.all(Array.from({ length: 8 }, () => handle.db.execute(sql`select 1`)));
    const thaw = freeze();
    let results: Awaited<ReturnType<typeof timed>>[];
    try {
      results = await Promise.all([
        ...Array.from({ length: 10 }, () => timed(handle.db.select().from(invoices), 9000)),
        ...Array.from({ length: 5 }, () =>
          timed(
            handle.db.transaction(async (tx) => {
              await tx.execute(sql`select 1`);
            }),
            9000,
          ),
        ),
        ...Array.from({ length: 5 }, () => timed(handle.raw("select 1", []), 9000)),
        timed(handle.ping(), 9000),
      ]);
    } finally {
      thaw();
    }
    for (const r of results) {
      expect(r.outcome).not.toBe("hung");
      expect(r.ms).toBeLessThan(6000);
      expect(r.outcome).toMatchObject({ ok: false });
    }
    // Back by itself: no connection of the pool stays stuck.
    await waitFor(async () => {
      await Promise.all(Array.from({ length: 8 }, () => handle.db.select().from(invoices)));
      return true;
    }, 5000);
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
    });
  }, 30_000);
});

describe("HTTP service with a frozen database", () => {
  let app: RunningApp;

  beforeAll(async () => {
    // Rate limiting off: the limiter has its own 5 s deadline (lib/ratelimit/postgres.ts);
    // this is about every statement after it.
    app = await startApp({ DATABASE_URL: pg.url, RATE_LIMITS: "off" });
  }, 60_000);
  afterAll(async () => {
    await app?.stop();
  });

  it("answers every request with a 503 within 5 s under load, then recovers", async () => {
    const { token } = await signIn(app.url);
    const api = client(app.url, token);
    const created = await api.post("/api/invoices", invoiceBody());
    expect(created.status).toBe(201);
    const id = created.body.id;
    const before = await (await fetch(`${app.url}/api/payments/${id}/status`)).json();
    // Warm up: every route compiled and pooled connections open.
    for (let i = 0; i < 3; i++) {
      await Promise.all([
        api.get("/api/invoices"),
        fetch(`${app.url}/api/payments/${id}/status`),
        fetch(`${app.url}/api/health`),
      ]);
    }

    const thaw = freeze();
    let results: Awaited<ReturnType<typeof timed<{ status: number; body: unknown }>>>[];
    try {
      const call = (path: string, auth: boolean) =>
        timed(
          fetch(app.url + path, {
            headers: auth ? { authorization: `Bearer ${token}` } : {},
            signal: AbortSignal.timeout(12_000),
          }).then(async (res) => ({ status: res.status, body: await res.json() })),
          10_000,
        );
      results = await Promise.all([
        ...Array.from({ length: 24 }, () => call(`/api/payments/${id}/status`, false)),
        ...Array.from({ length: 24 }, () => call("/api/invoices", true)),
        call("/api/health", false),
        call("/api/health", false),
      ]);
    } finally {
      thaw();
    }
    const hung = results.filter((r) => r.outcome === "hung" || !r.outcome.ok).length;
    expect(hung).toBe(0);
    for (const r of results) expect(r.ms).toBeLessThan(6000);
    // Nothing can commit while the database is frozen: a status this instance holds in memory
    // is still the truth (docs/decisions.md, Pushed status), and may answer until its entry
    // ends or the listener misses its heartbeat; everything else is a 503.
    for (const r of results.slice(0, 24)) {
      const answer = (r.outcome as { value: { status: number; body: unknown } }).value;
      if (answer.status === 200) expect(answer.body).toEqual(before);
      else expect(answer.status).toBe(503);
    }
    for (const r of results.slice(24)) {
      expect(r.outcome).toMatchObject({ ok: true, value: { status: 503 } });
    }
    const [health] = results.slice(-1);
    expect(health.ms).toBeLessThan(3000);
    expect(health.outcome).toMatchObject({ value: { body: { database: "unreachable" } } });
    const lists = results.slice(24, 48);
    for (const r of lists) {
      expect(r.outcome).toMatchObject({
        value: { body: { error: "Service temporarily unavailable. Please try again later." } },
      });
    }

    // Back by itself within a few seconds, every pooled connection usable again.
    await waitFor(async () => {
      const all = await Promise.all(Array.from({ length: 12 }, () => api.get("/api/invoices")));
      return all.every((r) => r.status === 200);
    }, 8000);
    expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
    const again = await api.post("/api/invoices", invoiceBody());
    expect(again.status).toBe(201);
  }, 60_000);

  it("stops answering a settled status from memory once the listener has missed its heartbeat", async () => {
    const { token } = await signIn(app.url);
    const created = await client(app.url, token).post("/api/invoices", invoiceBody());
    const id = created.body.id;
    const direct = postgres(pg.url, { max: 1, onnotice: () => {} });
    await direct`update invoices set status = 'PAID', paid_at = now() where id = ${id}`;
    await direct.end();
    // Settled: kept in memory for minutes while changes can be heard.
    const paid = async () => {
      const res = await fetch(`${app.url}/api/payments/${id}/status`, {
        signal: AbortSignal.timeout(12_000),
      });
      return { status: res.status, body: await res.json() };
    };
    await waitFor(async () => (await paid()).body.status === "PAID", 5000);
    const thaw = freeze();
    try {
      expect((await paid()).status).toBe(200);
      // Silent for longer than a heartbeat and its deadline: the instance can no longer know
      // nothing changed elsewhere, so it asks the database, which does not answer.
      await new Promise((r) => setTimeout(r, 12_000));
      expect((await paid()).status).toBe(503);
    } finally {
      thaw();
    }
    await waitFor(async () => (await paid()).status === 200, 15_000);
  }, 60_000);
});
