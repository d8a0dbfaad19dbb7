import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { createTestDatabase } from "./helpers/postgres";

/**
 * IDOR on every owner endpoint (the other wallet gets 403 and nothing changes), and the
 * security headers of pages. Token forgery, nonce and header replay, SSRF, oversized bodies
 * and spoofed client addresses are covered in auth, webhooks, bad-input and rate-limit tests.
 */
let app: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let owner: Api;
let intruder: Api;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startApp({
    DATABASE_URL: db.url,
    RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
    WEBHOOK_ALLOW_LOOPBACK: "true",
    WEBHOOK_ALLOW_LOOPBACK_IN_PRODUCTION: "i-understand",
  });
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
  owner = client(app.url, (await signIn(app.url)).token);
  intruder = client(app.url, (await signIn(app.url)).token);
});

afterAll(async () => {
  await sql?.end();
  await app?.stop();
  await db?.drop();
});

async function checksum() {
  const tables = [
    "invoices",
    "invoice_line_items",
    "invoice_audit_logs",
    "events",
    "clients",
    "webhook_subscriptions",
    "webhook_deliveries",
  ];
  const out: string[] = [];
  for (const t of tables) {
    const [r] = await sql.unsafe(
      `select count(*) || ':' || coalesce(md5(string_agg(x::text, ',' order by x::text)), '') as v from ${t} x`,
    );
    out.push(`${t}=${r.v}`);
  }
  return out.join(" ");
}

describe("IDOR", () => {
  it("every owner-only endpoint refuses another wallet with 403 Unauthorized and changes nothing", async () => {
    const invoice = (await owner.post("/api/invoices", invoiceBody())).body;
    const client_ = (await owner.post("/api/clients", { name: "Mine", email: "mine@example.com" }))
      .body;
    const hook = (
      await owner.post("/api/webhooks", {
        url: "http://127.0.0.1:9/hook",
        events: ["invoice.paid"],
      })
    ).body;
    expect(hook.id).toBeTruthy();
    await owner.post(`/api/invoices/${invoice.id}/send`);
    await sql`insert into webhook_deliveries (id, subscription_id, event_id, event_seq, invoice_id, status, attempts, next_attempt_at, created_at)
      select 'dlv00000000000000000001', ${hook.id}, id, seq, invoice_id, 'failed', 3, now(), now() from events limit 1`;
    const before = await checksum();
    const calls: [string, () => Promise<{ status: number; body: any }>][] = [
      ["owner view", () => intruder.get(`/api/invoices/${invoice.id}/owner`)],
      ["update", () => intruder.patch(`/api/invoices/${invoice.id}`, { title: "mine now" })],
      ["send", () => intruder.post(`/api/invoices/${invoice.id}/send`)],
      ["cancel", () => intruder.post(`/api/invoices/${invoice.id}/cancel`, { reason: "x" })],
      ["delete", () => intruder.delete(`/api/invoices/${invoice.id}`)],
      ["pdf", () => intruder.get(`/api/invoices/${invoice.id}/pdf`)],
      [
        "client favorite",
        () => intruder.patch(`/api/clients/${client_.id}/favorite`, { isFavorite: true }),
      ],
      ["client delete", () => intruder.delete(`/api/clients/${client_.id}`)],
      ["webhook delete", () => intruder.delete(`/api/webhooks/${hook.id}`)],
      ["webhook deliveries", () => intruder.get(`/api/webhooks/${hook.id}/deliveries`)],
      [
        "webhook redeliver",
        () => intruder.post(`/api/webhooks/${hook.id}/deliveries/dlv00000000000000000001/retry`),
      ],
    ];
    for (const [name, call] of calls) {
      const res = await call();
      expect(res.status, name).toBe(403);
      expect(res.body?.error, name).toBe("Unauthorized");
    }
    // Lists never show another wallet's data.
    expect((await intruder.get("/api/invoices")).body.total).toBe(0);
    expect(await intruder.get("/api/clients").then((r) => r.body)).toEqual([]);
    const hooks = (await intruder.get("/api/webhooks")).body;
    expect(JSON.stringify(hooks)).not.toContain(hook.id);
    expect(await checksum()).toBe(before);
  });
});

describe("security headers", () => {
  it("pages forbid framing, limit referrers and scripts; the API is never cached", async () => {
    for (const path of ["/", "/dashboard", "/pay/unknownunknownunknown1", "/docs"]) {
      const res = await fetch(app.url + path);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("default-src 'self'");
      expect(csp, path).toContain("object-src 'none'");
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
      expect(res.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("x-powered-by"), path).toBeNull();
    }
    for (const path of ["/api/health", "/api/invoices/unknownunknownunknown1", "/api/nothing"]) {
      const api = await fetch(app.url + path);
      expect(api.headers.get("cache-control"), path).toContain("no-store");
      expect(api.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(api.headers.get("content-type"), path).toContain("application/json");
    }
    // The /api prefix is excluded from the page headers, not anything that merely starts so.
    const docs = await fetch(`${app.url}/docs`);
    expect(docs.headers.get("x-frame-options")).toBe("DENY");
  });
});

describe("paths that do not decode (second review)", () => {
  it("answer a JSON 400, never Next.js's plain-text 500", async () => {
    for (const path of [
      "/api/keys/%FF",
      "/api/invoices/%C0%AF",
      "/api/payments/%E0%A4%A/status",
      "/pay/%FF",
    ]) {
      const res = await fetch(app.url + path);
      expect(res.status, path).toBe(400);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(await res.json()).toEqual({
        error: "Invalid request",
        details: { path: "not a valid URL path" },
      });
    }
  });
});
