import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type PrivatePostgres, startPrivatePostgres } from "./helpers/private-postgres";

let pg: PrivatePostgres;
let app: RunningApp;

beforeAll(async () => {
  pg = await startPrivatePostgres();
  app = await startApp({
    DATABASE_URL: pg.url,
    RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
    RATE_LIMIT_INVOICES_PER_HOUR: "100000",
  });
});

afterAll(async () => {
  await app?.stop();
  pg?.destroy();
});

describe("PostgreSQL stopped and restarted under load", () => {
  it("answers clear 503s meanwhile, recovers fully, and loses nothing", async () => {
    const { token } = await signIn(app.url);
    const api = client(app.url, token);
    const created: string[] = [];
    const statuses: number[] = [];
    const messages = new Set<string>();
    let running = true;
    // Four clients creating invoices as fast as they can.
    const load = Array.from({ length: 4 }, async () => {
      while (running) {
        const res = await api.post("/api/invoices", invoiceBody()).catch(() => null);
        if (!res) continue;
        statuses.push(res.status);
        if (res.status === 201) created.push(res.body.id);
        else messages.add(`${res.status} ${res.body?.error}`);
      }
    });
    await new Promise((r) => setTimeout(r, 1000));
    pg.stop();
    await new Promise((r) => setTimeout(r, 1500));
    const health = await fetch(`${app.url}/api/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ database: "unreachable" });
    pg.start();
    // Recovery: the pool reconnects by itself.
    const deadline = Date.now() + 20_000;
    let recovered = false;
    while (Date.now() < deadline && !recovered) {
      recovered = (await fetch(`${app.url}/api/health`)).status === 200;
      if (!recovered) await new Promise((r) => setTimeout(r, 200));
    }
    expect(recovered).toBe(true);
    await new Promise((r) => setTimeout(r, 1000));
    running = false;
    await Promise.all(load);

    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s >= 500 && s !== 503)).toEqual([]);
    expect([...messages]).toEqual(["503 Service temporarily unavailable. Please try again later."]);
    // After recovery every 201 is in the database, with its audit entry and event, and
    // no failed request left anything behind.
    const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
    try {
      const rows = new Set((await sql`select id from invoices`).map((r) => r.id));
      for (const id of created) expect(rows.has(id)).toBe(true);
      // A 503 can only follow a commit if the server died between the commit and its
      // acknowledgement; such an invoice is whole (audit and event below), never partial.
      const failed = statuses.filter((s) => s === 503).length;
      expect(rows.size - created.length).toBeLessThanOrEqual(failed);
      const [{ audits }] = await sql`select count(*)::int as audits from invoice_audit_logs`;
      const [{ events }] = await sql`select count(*)::int as events from events`;
      expect(audits).toBe(rows.size);
      expect(events).toBe(rows.size);
    } finally {
      await sql.end();
    }
    const after = await api.post("/api/invoices", invoiceBody());
    expect(after.status).toBe(201);
  });
});
