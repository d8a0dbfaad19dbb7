import { createHash } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { fanOutEvents } from "@/lib/webhooks/fan-out";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { createTestDatabase } from "./helpers/postgres";

/**
 * Restricted API keys (docs/decisions.md, API keys): a server integrates with a key instead of
 * the wallet's secret; the key works only where its scopes and network allow, never manages
 * keys or sessions, is named in the audit trail, shares its wallet's limits and stops working
 * when revoked.
 */
let apps: RunningApp[] = [];
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let owner: Api;
let wallet: string;

const INSUFFICIENT = "Insufficient scope";
const INVALID = "Invalid or expired token";

beforeAll(async () => {
  db = await createTestDatabase();
  apps = await Promise.all([
    startApp({ DATABASE_URL: db.url, RATE_LIMIT_GLOBAL_PER_MINUTE: "100000" }),
    startApp({ DATABASE_URL: db.url, RATE_LIMIT_GLOBAL_PER_MINUTE: "100000" }),
    startApp({ DATABASE_URL: db.url, RATE_LIMIT_GLOBAL_PER_MINUTE: "8" }),
  ]);
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
  const session = await signIn(apps[0].url);
  wallet = session.wallet;
  owner = client(apps[0].url, session.token);
});

afterAll(async () => {
  await sql?.end();
  await Promise.all(apps.map((a) => a.stop()));
  await db?.drop();
});

async function newKey(api: Api, body: Record<string, unknown>) {
  const res = await api.post("/api/keys", body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; secret: string; prefix: string };
}

describe("managing keys", () => {
  it("shows the secret once, stores only its hash, and lists the key by prefix", async () => {
    const key = await newKey(owner, { name: "Books", scopes: ["invoices:read"] });
    expect(key.secret).toMatch(/^sk_test_[A-Za-z0-9_-]{43}$/);
    expect(key.secret.startsWith(key.prefix)).toBe(true);
    expect(key.prefix).toHaveLength("sk_test_".length + 8);

    const [row] = await sql`select * from api_keys where id = ${key.id}`;
    expect(row.secret_hash).toBe(createHash("sha256").update(key.secret).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(key.secret);

    const list = await owner.get("/api/keys");
    expect(list.status).toBe(200);
    const listed = list.body.find((k: { id: string }) => k.id === key.id);
    expect(listed).toMatchObject({
      name: "Books",
      prefix: key.prefix,
      scopes: ["invoices:read"],
      network: "testnet",
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(JSON.stringify(list.body)).not.toContain(key.secret);

    const live = await newKey(owner, {
      name: "Live",
      scopes: ["invoices:read"],
      network: "mainnet",
    });
    expect(live.secret).toMatch(/^sk_live_/);
  });

  it("refuses bad input with the field that is wrong", async () => {
    const noScopes = await owner.post("/api/keys", { name: "x", scopes: [] });
    expect(noScopes.status).toBe(400);
    expect(noScopes.body.details.scopes).toBe("scopes must list at least one scope");
    const unknown = await owner.post("/api/keys", { name: "x", scopes: ["payments:steal"] });
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.details)[0]).toMatch(/^scopes/);
    const noName = await owner.post("/api/keys", { scopes: ["invoices:read"] });
    expect(noName.status).toBe(400);
    expect(noName.body.details.name).toBe("name is required");
  });
});

describe("what a key may do", () => {
  it("works on exactly the operations its scopes allow", async () => {
    const created = await owner.post("/api/invoices", invoiceBody());
    expect(created.status).toBe(201);
    const reader = client(
      apps[0].url,
      (await newKey(owner, { name: "Reader", scopes: ["invoices:read"] })).secret,
    );

    expect(
      (await reader.get("/api/invoices")).body.invoices.map((i: { id: string }) => i.id),
    ).toContain(created.body.id);
    expect((await reader.get(`/api/invoices/${created.body.id}/owner`)).status).toBe(200);
    expect((await reader.get("/api/invoices/stats")).status).toBe(200);

    for (const [method, path, body] of [
      ["post", "/api/invoices", invoiceBody()],
      ["post", `/api/invoices/${created.body.id}/cancel`, undefined],
      ["get", "/api/clients", undefined],
      ["get", "/api/webhooks", undefined],
      ["post", "/api/links", { amount: "5", currency: "XLM" }],
    ] as const) {
      const res =
        method === "get" ? await reader.get(path) : await reader.post(path, body ?? undefined);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe(INSUFFICIENT);
    }
    // Nothing was created or changed by the refused calls.
    const [{ n }] =
      await sql`select count(*)::int as n from invoices where freelancer_wallet = ${wallet}`;
    expect(n).toBe(1);
  });

  it("never manages keys or sessions, whatever its scopes", async () => {
    const all = await newKey(owner, {
      name: "Everything",
      scopes: [
        "invoices:read",
        "invoices:write",
        "clients:read",
        "clients:write",
        "links:write",
        "webhooks:write",
        "profile:write",
      ],
    });
    const key = client(apps[0].url, all.secret);
    for (const res of [
      await key.get("/api/keys"),
      await key.post("/api/keys", { name: "escalate", scopes: ["invoices:write"] }),
      await key.delete(`/api/keys/${all.id}`),
      await key.get("/api/auth/session"),
      await key.delete("/api/auth/session"),
      await key.delete("/api/auth/sessions"),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error).toBe(INSUFFICIENT);
    }
    const [{ n }] = await sql`select count(*)::int as n from api_keys where name = 'escalate'`;
    expect(n).toBe(0);
  });

  it("is named in the audit trail as key:<prefix> and records its last use", async () => {
    const writer = await newKey(owner, {
      name: "Writer",
      scopes: ["invoices:write", "invoices:read"],
    });
    const api = client(apps[0].url, writer.secret);
    const res = await api.post("/api/invoices", invoiceBody({ title: "By key" }));
    expect(res.status).toBe(201);
    expect(res.body.freelancerWallet).toBe(wallet);
    expect(res.body.networkPassphrase).toBe("Test SDF Network ; September 2015");
    const sent = await api.post(`/api/invoices/${res.body.id}/send`);
    expect(sent.status).toBe(200);
    const view = await owner.get(`/api/invoices/${res.body.id}/owner`);
    expect(view.body.auditLogs.map((a: { actorWallet: string }) => a.actorWallet)).toEqual([
      `key:${writer.prefix}`,
      `key:${writer.prefix}`,
    ]);
    const listed = (await owner.get("/api/keys")).body.find(
      (k: { id: string }) => k.id === writer.id,
    );
    expect(listed.lastUsedAt).not.toBeNull();
  });

  it("stays on its network: a live key neither sees nor creates testnet invoices", async () => {
    const testInvoice = await owner.post("/api/invoices", invoiceBody({ network: "testnet" }));
    const liveKey = await newKey(owner, {
      name: "Live",
      scopes: ["invoices:read", "invoices:write", "links:write"],
      network: "mainnet",
    });
    const live = client(apps[0].url, liveKey.secret);

    const list = await live.get("/api/invoices");
    expect(list.status).toBe(200);
    expect(list.body.invoices).toEqual([]);
    const view = await live.get(`/api/invoices/${testInvoice.body.id}/owner`);
    expect(view.status).toBe(404);
    const cancel = await live.post(`/api/invoices/${testInvoice.body.id}/cancel`);
    expect(cancel.status).toBe(404);

    const wrong = await live.post("/api/invoices", invoiceBody({ network: "testnet" }));
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({
      error: INSUFFICIENT,
      details: { network: "this key works on mainnet only" },
    });
    // Nor move one of its own drafts to the other network (review finding).
    const testKey = client(
      apps[0].url,
      (await newKey(owner, { name: "Test", scopes: ["invoices:write"] })).secret,
    );
    const draft = await testKey.post("/api/invoices", invoiceBody());
    const moved = await testKey.patch(`/api/invoices/${draft.body.id}`, { network: "mainnet" });
    expect(moved.status).toBe(403);
    expect(moved.body.details).toEqual({ network: "this key works on testnet only" });
    const [row] = await sql`select network_passphrase from invoices where id = ${draft.body.id}`;
    expect(row.network_passphrase).toBe("Test SDF Network ; September 2015");

    const made = await live.post("/api/invoices", invoiceBody());
    expect(made.status).toBe(201);
    expect(made.body.networkPassphrase).toBe("Public Global Stellar Network ; September 2015");
    expect(
      (await live.get("/api/invoices")).body.invoices.map((i: { id: string }) => i.id),
    ).toEqual([made.body.id]);
  });

  it("counts against its wallet's limit, not a limit of its own", async () => {
    const app = apps[2];
    const session = await signIn(app.url);
    const asWallet = client(app.url, session.token);
    const key = await newKey(asWallet, { name: "Limits", scopes: ["invoices:read"] });
    const asKey = client(app.url, key.secret);
    // 8 per minute per wallet: the key creation used 1; 3 by the wallet, 4 by the key.
    for (let i = 0; i < 3; i++) expect((await asWallet.get("/api/invoices")).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await asKey.get("/api/invoices")).status).toBe(200);
    // A call its scopes refuse counts too (review finding: 403s were free).
    expect((await asKey.get("/api/clients")).status).toBe(403);
    const over = await asKey.get("/api/invoices");
    expect(over.status).toBe(429);
    expect((await asKey.get("/api/clients")).status).toBe(429);
    expect((await asWallet.get("/api/invoices")).status).toBe(429);
  });

  it("is a stranger on public operations: the payer's view works as without a credential", async () => {
    const made = await owner.post("/api/invoices", invoiceBody());
    const key = await newKey(owner, { name: "Public", scopes: ["invoices:read"] });
    const res = await client(apps[0].url, key.secret).get(`/api/invoices/${made.body.id}`);
    expect(res.status).toBe(200);
    expect(res.body.clientEmail).toBeUndefined();
  });
});

describe("revoking", () => {
  it("refuses a revoked key on the instance that revoked it at once and on another within 5 s", async () => {
    const key = await newKey(owner, { name: "Short-lived", scopes: ["invoices:read"] });
    const here = client(apps[0].url, key.secret);
    const there = client(apps[1].url, key.secret);
    expect((await here.get("/api/invoices")).status).toBe(200);
    expect((await there.get("/api/invoices")).status).toBe(200);

    const revoked = await owner.delete(`/api/keys/${key.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).not.toBeNull();
    const after = await here.get("/api/invoices");
    expect(after.status).toBe(401);
    expect(after.body.error).toBe(INVALID);

    const start = Date.now();
    for (;;) {
      const res = await there.get("/api/invoices");
      if (res.status === 401) break;
      expect(res.status).toBe(200);
      expect(Date.now() - start).toBeLessThan(6000);
      await new Promise((r) => setTimeout(r, 200));
    }
    // Revoking again answers the same; another wallet cannot revoke it (403, docs/decisions.md).
    expect((await owner.delete(`/api/keys/${key.id}`)).body.revokedAt).toBe(revoked.body.revokedAt);
    const stranger = client(apps[0].url, (await signIn(apps[0].url)).token);
    const refused = await stranger.delete(`/api/keys/${key.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe("Unauthorized");
  });

  it("answers a malformed key id with 404, not 500 (review finding)", async () => {
    for (const id of ["%00", "x", "a".repeat(300)]) {
      const res = await owner.delete(`/api/keys/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body.error).toBe("API key not found");
    }
  });

  it("answers an unknown or malformed key as an invalid token", async () => {
    for (const secret of [`sk_test_${"A".repeat(43)}`, "sk_live_short", "sk_"]) {
      const res = await client(apps[0].url, secret).get("/api/invoices");
      expect(res.status).toBe(401);
      expect(res.body.error).toBe(INVALID);
    }
  });
});

describe("webhooks through a key (review finding)", () => {
  it("a key's endpoint gets only its network's events; the wallet's endpoints are not the key's", async () => {
    const session = await signIn(apps[0].url);
    const me = client(apps[0].url, session.token);
    const testKey = client(
      apps[0].url,
      (await newKey(me, { name: "Hooks", scopes: ["webhooks:write"] })).secret,
    );
    const hook = { url: "https://93.184.216.34/hook", events: ["invoice.created"] };
    const mine = await me.post("/api/webhooks", hook);
    expect(mine.body.network).toBeNull();
    const keys = await testKey.post("/api/webhooks", hook);
    expect(keys.status).toBe(201);
    expect(keys.body.network).toBe("testnet");

    // The key sees and manages only its own network's endpoints.
    expect((await testKey.get("/api/webhooks")).body.map((w: { id: string }) => w.id)).toEqual([
      keys.body.id,
    ]);
    for (const res of [
      await testKey.delete(`/api/webhooks/${mine.body.id}`),
      await testKey.post(`/api/webhooks/${mine.body.id}/rotate-secret`),
      await testKey.get(`/api/webhooks/${mine.body.id}/deliveries`),
    ]) {
      expect(res.status).toBe(404);
    }

    // One invoice on each network: the key's endpoint gets only the testnet one's event.
    const onTest = await me.post("/api/invoices", invoiceBody({ network: "testnet" }));
    const onMain = await me.post("/api/invoices", invoiceBody({ network: "mainnet" }));
    const handle = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
    try {
      while ((await fanOutEvents(handle.db, new Date())).more) {}
    } finally {
      await handle.close();
    }
    const delivered = async (subscription: string) =>
      (
        await sql`select invoice_id from webhook_deliveries where subscription_id = ${subscription}`
      ).map((r) => r.invoice_id);
    expect(await delivered(keys.body.id)).toEqual([onTest.body.id]);
    expect((await delivered(mine.body.id)).sort()).toEqual([onTest.body.id, onMain.body.id].sort());
  });
});
