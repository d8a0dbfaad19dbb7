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
    "payments",
    "refunds",
    "api_keys",
    "recurring_schedules",
    "email_messages",
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

/** A payment recorded on `invoiceId` and a refund built for it (no ledger needed to refuse). */
async function paymentWithRefund(invoiceId: string, wallet: string, n: number) {
  const paymentId = `pay${n}`.padEnd(24, "a");
  const refundId = `ref${n}`.padEnd(24, "a");
  const payer = "GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7";
  const now = new Date();
  await sql`insert into payments (id, invoice_id, transaction_hash, ledger_number, from_wallet,
      to_wallet, amount, asset, confirmed_at)
    values (${paymentId}, ${invoiceId}, ${String(n).padStart(64, "a")}, 10, ${payer}, ${wallet},
      12, 'XLM', ${now})`;
  await sql`insert into refunds (id, payment_id, invoice_id, wallet, amount, asset, destination,
      memo, transaction_xdr, created_at, expires_at)
    values (${refundId}, ${paymentId}, ${invoiceId}, ${wallet}, 2, 'XLM', ${payer},
      ${`RF-${refundId}`}, 'AAAA', ${now}, ${new Date(now.getTime() + 300_000)})`;
  return { paymentId, refundId };
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
    const ownerWallet = (await owner.get("/api/auth/session")).body.walletAddress;
    const { paymentId, refundId } = await paymentWithRefund(invoice.id, ownerWallet, 1);
    const link = (await owner.post("/api/links", { amount: "5", asset: "XLM" })).body;
    expect(link.id).toBeTruthy();
    const schedule = (
      await owner.post("/api/recurring", {
        template: invoiceBody({ title: "Retainer" }),
        interval: "month",
        startDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
        count: 3,
      })
    ).body;
    expect(schedule.id).toBeTruthy();
    const key = (await owner.post("/api/keys", { name: "Books", scopes: ["invoices:read"] })).body;
    expect(key.id).toBeTruthy();
    // The intruder's own invoice and endpoint, to name the owner's children under them.
    const own = (await intruder.post("/api/invoices", invoiceBody())).body;
    const ownHook = (
      await intruder.post("/api/webhooks", { url: "http://127.0.0.1:9/x", events: ["*"] })
    ).body;

    const before = await checksum();
    const calls: [string, () => Promise<{ status: number; body: any }>][] = [
      ["owner view", () => intruder.get(`/api/invoices/${invoice.id}/owner`)],
      ["update", () => intruder.patch(`/api/invoices/${invoice.id}`, { title: "mine now" })],
      ["send", () => intruder.post(`/api/invoices/${invoice.id}/send`)],
      ["cancel", () => intruder.post(`/api/invoices/${invoice.id}/cancel`, { reason: "x" })],
      ["delete", () => intruder.delete(`/api/invoices/${invoice.id}`)],
      ["duplicate", () => intruder.post(`/api/invoices/${invoice.id}/duplicate`)],
      ["pdf", () => intruder.get(`/api/invoices/${invoice.id}/pdf`)],
      ["invoice emails", () => intruder.get(`/api/invoices/${invoice.id}/emails`)],
      [
        "send invoice email",
        () => intruder.post(`/api/invoices/${invoice.id}/email`, { to: "me@example.com" }),
      ],
      [
        "refund of another wallet's payment",
        () => intruder.post(`/api/invoices/${invoice.id}/payments/${paymentId}/refund`, {}),
      ],
      [
        "refund of another wallet's payment under one's own invoice",
        () => intruder.post(`/api/invoices/${own.id}/payments/${paymentId}/refund`, {}),
      ],
      [
        "submit another wallet's refund",
        () =>
          intruder.post("/api/refunds/submit", { refundId, signedTransactionXdr: "AAAAAgAAAAA=" }),
      ],
      [
        "client favorite",
        () => intruder.patch(`/api/clients/${client_.id}/favorite`, { isFavorite: true }),
      ],
      ["client delete", () => intruder.delete(`/api/clients/${client_.id}`)],
      ["link payments", () => intruder.get(`/api/links/${link.id}/payments`)],
      ["recurring view", () => intruder.get(`/api/recurring/${schedule.id}`)],
      ["recurring update", () => intruder.patch(`/api/recurring/${schedule.id}`, { count: 9 })],
      ["recurring pause", () => intruder.post(`/api/recurring/${schedule.id}/pause`)],
      ["recurring resume", () => intruder.post(`/api/recurring/${schedule.id}/resume`)],
      ["recurring delete", () => intruder.delete(`/api/recurring/${schedule.id}`)],
      ["key revoke", () => intruder.delete(`/api/keys/${key.id}`)],
      ["webhook delete", () => intruder.delete(`/api/webhooks/${hook.id}`)],
      ["webhook rotate secret", () => intruder.post(`/api/webhooks/${hook.id}/rotate-secret`)],
      ["webhook test event", () => intruder.post(`/api/webhooks/${hook.id}/test`)],
      ["webhook deliveries", () => intruder.get(`/api/webhooks/${hook.id}/deliveries`)],
      [
        "webhook redeliver",
        () => intruder.post(`/api/webhooks/${hook.id}/deliveries/dlv00000000000000000001/retry`),
      ],
      [
        "redeliver another wallet's delivery under one's own endpoint",
        () => intruder.post(`/api/webhooks/${ownHook.id}/deliveries/dlv00000000000000000001/retry`),
      ],
    ];
    for (const [name, call] of calls) {
      const res = await call();
      expect(res.status, name).toBe(403);
      expect(res.body?.error, name).toBe("Unauthorized");
    }
    // Lists never show another wallet's data.
    expect((await intruder.get("/api/invoices")).body.total).toBe(1);
    expect(await intruder.get("/api/clients").then((r) => r.body)).toEqual([]);
    expect((await intruder.get("/api/links")).body.links).toEqual([]);
    expect(await intruder.get("/api/recurring").then((r) => r.body)).toEqual([]);
    expect(JSON.stringify((await intruder.get("/api/keys")).body)).not.toContain(key.id);
    const hooks = (await intruder.get("/api/webhooks")).body;
    expect(JSON.stringify(hooks)).not.toContain(hook.id);
    expect(await checksum()).toBe(before);

    // An id that does not exist at all stays 404, at every depth.
    const missing = "zzzzzzzzzzzzzzzzzzzzzzzz";
    for (const [name, res] of [
      ["payment", await intruder.post(`/api/invoices/${own.id}/payments/${missing}/refund`, {})],
      [
        "refund",
        await intruder.post("/api/refunds/submit", {
          refundId: missing,
          signedTransactionXdr: "AAAAAgAAAAA=",
        }),
      ],
      ["link", await intruder.get(`/api/links/${missing}/payments`)],
      ["key", await intruder.delete(`/api/keys/${missing}`)],
      ["delivery", await intruder.post(`/api/webhooks/${ownHook.id}/deliveries/${missing}/retry`)],
    ] as const) {
      expect(res.status, name).toBe(404);
    }
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
