import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Keypair } from "@stellar/stellar-sdk";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { parseConfig } from "@/lib/config";
import { deliverWebhooks } from "@/lib/jobs/deliver-webhooks";
import { createInvoiceSchema } from "@/lib/schemas/invoices";
import { createWebhookSchema } from "@/lib/schemas/webhooks";
import type { AuthedContext } from "@/lib/services/context";
import { createInvoice } from "@/lib/services/invoices/create-invoice";
import { listDeliveries, retryDelivery } from "@/lib/webhooks/deliveries";
import { fanOutEvents } from "@/lib/webhooks/fan-out";
import {
  signWebhookBody,
  verifyWebhookSignature,
  verifyWebhookSignatureV2,
} from "@/lib/webhooks/sign";
import { createWebhook, rotateWebhookSecret } from "@/lib/webhooks/subscriptions";
import { offlineWebhookEnv } from "@/scripts/offline-env";
import { type Api, client, invoiceBody } from "./helpers/api";
import {
  type RunningApp,
  startApp,
  startAppExpectingFailure,
  TEST_CRON_SECRET,
} from "./helpers/app";
import { signIn } from "./helpers/auth";
import { testContext } from "./helpers/context";
import { createTestDatabase } from "./helpers/postgres";

// ---------------------------------------------------------------------------------------
// A real HTTP receiver on 127.0.0.1 that records raw bodies and can be switched to 500,
// to a redirect, to slow answers, or off entirely (connection refused).

type Received = {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  status: number;
};

type Receiver = {
  url: (path?: string) => string;
  received: Received[];
  /** Requests answered 2xx: what the receiver accepted. */
  accepted: () => Received[];
  mode: "up" | "error" | "redirect";
  delayMs: number;
  down: () => Promise<void>;
  up: () => Promise<void>;
  stop: () => Promise<void>;
};

async function startReceiver(): Promise<Receiver> {
  let port = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      if (receiver.delayMs) await new Promise((r) => setTimeout(r, receiver.delayMs));
      const status = receiver.mode === "up" ? 200 : receiver.mode === "redirect" ? 302 : 500;
      receiver.received.push({ path: req.url ?? "", headers: req.headers, raw, status });
      if (status === 302) res.setHeader("location", `http://127.0.0.1:${port}/landing`);
      res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : "no");
    });
  });
  const listen = () =>
    new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
  await listen();
  port = (server.address() as AddressInfo).port;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  const receiver: Receiver = {
    url: (path = "/hook") => `http://127.0.0.1:${port}${path}`,
    received: [],
    accepted: () => receiver.received.filter((r) => r.status >= 200 && r.status < 300),
    mode: "up",
    delayMs: 0,
    down: close,
    up: listen,
    stop: () => (server.listening ? close() : Promise.resolve()),
  };
  return receiver;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function runCron(app: RunningApp) {
  const res = await fetch(`${app.url}/api/cron/webhooks`, {
    headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
  });
  expect(res.status).toBe(200);
  return res.json();
}

/** Runs the cron route until `done()` or the deadline (retries back off from 50 ms here). */
async function drain(app: RunningApp, done: () => boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await runCron(app);
    if (done() || Date.now() > deadline) return;
    await sleep(100);
  }
}

const envelopeOf = (r: Received) =>
  JSON.parse(r.raw) as { id: string; type: string; created: number; data: any };

const testEnv = {
  RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
  RATE_LIMIT_INVOICES_PER_HOUR: "100000",
};

// ---------------------------------------------------------------------------------------

describe("webhooks over HTTP (loopback allowed, as npm run dev:offline runs the app)", () => {
  let app: RunningApp;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: postgres.Sql;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    app = await startApp({
      DATABASE_URL: db.url,
      // What scripts/dev-offline.ts gives the production build (issue 28).
      ...offlineWebhookEnv(),
      WEBHOOK_RETRY_BASE_MS: "50",
      ...testEnv,
    });
    sql = postgres(db.url, { max: 2, onnotice: () => {} });
  });

  afterAll(async () => {
    for (const r of receivers) await r.stop();
    await sql?.end();
    await app?.stop();
    await db?.drop();
  });

  async function receiver() {
    const r = await startReceiver();
    receivers.push(r);
    return r;
  }

  async function user() {
    const s = await signIn(app.url);
    return { api: client(app.url, s.token), wallet: s.wallet };
  }

  async function subscribe(api: Api, url: string, events: string[] = ["*"]) {
    const res = await api.post("/api/webhooks", { url, events });
    expect(res.status).toBe(201);
    return res.body as { id: string; url: string; events: string[]; secret: string };
  }

  it("registers an endpoint: 201 with the secret once; GET never shows it", async () => {
    const { api } = await user();
    const rx = await receiver();
    const res = await api.post("/api/webhooks", {
      url: rx.url(),
      events: ["invoice.paid", "invoice.expired", "invoice.paid"],
    });
    expect(res.status).toBe(201);
    // `network`: null for an endpoint the wallet made (an API key's gets its network).
    expect(Object.keys(res.body).sort()).toEqual([
      "createdAt",
      "events",
      "id",
      "network",
      "secret",
      "url",
    ]);
    expect(res.body.network).toBeNull();
    expect(res.body.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(res.body.events).toEqual(["invoice.paid", "invoice.expired"]);
    expect(res.body.url).toBe(rx.url());

    const list = await api.get("/api/webhooks");
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ id: res.body.id, url: rx.url(), status: "active" });
    expect(list.body[0].secret).toBeUndefined();
    expect(JSON.stringify(list.body)).not.toContain(res.body.secret);
    const formA = await api.get("/api/webhooks?envelope=true");
    expect(formA.body.success).toBe(true);
    expect(JSON.stringify(formA.body)).not.toContain(res.body.secret);
  });

  it("validates the body and caps endpoints per wallet", async () => {
    const { api } = await user();
    const rx = await receiver();
    expect((await api.post("/api/webhooks", { url: rx.url(), events: [] })).status).toBe(400);
    expect(
      (await api.post("/api/webhooks", { url: rx.url(), events: ["invoice.nope"] })).status,
    ).toBe(400);
    expect((await api.post("/api/webhooks", { events: ["*"] })).status).toBe(400);
    expect((await api.post("/api/webhooks", { url: rx.url() })).status).toBe(400);
    const extra = await api.post("/api/webhooks", { url: rx.url(), events: ["*"], x: 1 });
    expect(extra.status).toBe(400);
    const unauthenticated = await client(app.url).post("/api/webhooks", {
      url: rx.url(),
      events: ["*"],
    });
    expect(unauthenticated.status).toBe(401);
    for (let i = 0; i < 10; i++) await subscribe(api, rx.url(`/hook${i}`));
    const over = await api.post("/api/webhooks", { url: rx.url(), events: ["*"] });
    expect(over.status).toBe(409);
    expect(over.body.code).toBe("CONFLICT");
  });

  it("refuses private, link-local and metadata targets at registration, naming the cause", async () => {
    const { api } = await user();
    const PRIVATE = "Webhook URL resolves to a private address";
    const HTTPS = "Webhook URL must use https";
    for (const [url, error, detail] of [
      ["http://10.0.0.1/x", HTTPS, "the scheme must be https"],
      ["https://10.0.0.1/x", PRIVATE, "10.0.0.1 is a private address"],
      ["http://169.254.169.254/latest/meta-data", HTTPS, "the scheme must be https"],
      [
        "https://169.254.169.254/latest/meta-data",
        PRIVATE,
        "169.254.169.254 is a link-local address",
      ],
      ["https://[fd00:ec2::254]/x", PRIVATE, "fd00:ec2::254 is a private address"],
      ["https://192.168.1.20/x", PRIVATE, "192.168.1.20 is a private address"],
      ["ftp://127.0.0.1/x", HTTPS, "the scheme must be https"],
      [
        "http://user:pass@127.0.0.1/x",
        "Webhook URL must be a public https URL",
        "credentials in the URL are not allowed",
      ],
    ]) {
      const res = await api.post("/api/webhooks", { url, events: ["*"] });
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toBe(error);
      expect(res.body.code).toBe("VALIDATION_ERROR");
      expect(res.body.details.url, url).toBe(detail);
    }
    expect((await api.get("/api/webhooks")).body).toEqual([]);
  });

  it("Send test event: a signed ping to that endpoint only, in its delivery log; owner only, 5 a minute (issue 28)", async () => {
    const alice = await user();
    const bob = await user();
    const rx = await receiver();
    const other = await receiver();
    // An endpoint that asked for one type only still gets the test; the wallet's other
    // endpoint (all events) does not.
    const sub = await subscribe(alice.api, rx.url("/tested"), ["invoice.paid"]);
    await subscribe(alice.api, other.url(), ["*"]);

    const res = await alice.api.post(`/api/webhooks/${sub.id}/test`);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ eventType: "ping", status: "pending", attempts: 0 });
    await drain(app, () => rx.accepted().length >= 1);
    await runCron(app);

    expect(rx.received).toHaveLength(1);
    expect(other.received).toHaveLength(0);
    const got = rx.received[0];
    expect(got.path).toBe("/tested");
    const envelope = envelopeOf(got);
    expect(envelope).toMatchObject({
      id: res.body.eventId,
      type: "ping",
      data: { webhookId: sub.id },
    });
    expect(got.headers["x-service-event-id"]).toBe(res.body.eventId);
    expect(
      verifyWebhookSignature(sub.secret, got.raw, got.headers["x-service-signature"] as string),
    ).toBe(true);
    expect(
      verifyWebhookSignatureV2(
        sub.secret,
        got.raw,
        got.headers["x-service-signature-v2"] as string,
      ),
    ).toBe(true);

    // The delivery log shows it, delivered.
    const log = await alice.api.get(`/api/webhooks/${sub.id}/deliveries`);
    expect(log.body.total).toBe(1);
    expect(log.body.deliveries[0]).toMatchObject({
      id: res.body.id,
      eventType: "ping",
      status: "delivered",
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
    });
    // Nothing happened: the events list does not show it.
    const listed = await alice.api.get("/api/events");
    expect(listed.status).toBe(200);
    expect(listed.body.events.map((e: { type: string }) => e.type)).not.toContain("ping");

    // Owner only; unknown ids and anonymous callers get nothing queued.
    const forbidden = await bob.api.post(`/api/webhooks/${sub.id}/test`);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ error: "Unauthorized", code: "FORBIDDEN" });
    expect((await alice.api.post(`/api/webhooks/${"z".repeat(24)}/test`)).status).toBe(404);
    expect((await client(app.url).post(`/api/webhooks/${sub.id}/test`)).status).toBe(401);

    // 5 a minute per endpoint: the sixth is a 429 that says so, and queues nothing.
    for (let i = 0; i < 4; i++) {
      expect((await alice.api.post(`/api/webhooks/${sub.id}/test`)).status).toBe(202);
    }
    const limited = await alice.api.post(`/api/webhooks/${sub.id}/test`);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({
      error: "Test event limit reached for this webhook. At most 5 per minute.",
      code: "RATE_LIMIT_EXCEEDED",
    });
    expect((await alice.api.get(`/api/webhooks/${sub.id}/deliveries`)).body.total).toBe(5);
  });

  it("sends the signed envelope: the signature verifies over the raw body only", async () => {
    const { api, wallet } = await user();
    const rx = await receiver();
    const sub = await subscribe(api, rx.url(), ["invoice.created"]);
    const inv = (await api.post("/api/invoices", invoiceBody())).body;
    await api.post(`/api/invoices/${inv.id}/send`); // invoice.sent: not subscribed
    await drain(app, () => rx.accepted().length >= 1);
    await runCron(app);

    expect(rx.received).toHaveLength(1);
    const got = rx.received[0];
    const [event] = await sql`select id, floor(extract(epoch from created_at))::int as created
      from events where invoice_id = ${inv.id} and type = 'invoice.created'`;
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["x-service-event-id"]).toBe(event.id);
    expect(got.headers["user-agent"]).toMatch(/Webhooks/);
    const ts = Number(got.headers["x-service-timestamp"]);
    expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(60);

    const signature = got.headers["x-service-signature"] as string;
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(signature).toBe(signWebhookBody(sub.secret, got.raw));
    expect(verifyWebhookSignature(sub.secret, got.raw, signature)).toBe(true);
    expect(
      verifyWebhookSignature(sub.secret, got.raw.replace(inv.id, "x".repeat(25)), signature),
    ).toBe(false);
    expect(verifyWebhookSignature(sub.secret, `${got.raw} `, signature)).toBe(false);
    expect(verifyWebhookSignature(`whsec_${"0".repeat(64)}`, got.raw, signature)).toBe(false);

    const envelope = envelopeOf(got);
    expect(Object.keys(envelope)).toEqual(["id", "type", "created", "data"]);
    expect(envelope).toMatchObject({
      id: event.id,
      type: "invoice.created",
      created: event.created,
    });
    expect(envelope.data).toMatchObject({ id: inv.id, freelancerWallet: wallet, status: "DRAFT" });

    const log = await api.get(`/api/webhooks/${sub.id}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.body.total).toBe(1);
    expect(log.body.deliveries[0]).toMatchObject({
      eventId: event.id,
      eventType: "invoice.created",
      status: "delivered",
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
    });
  });

  it("signs the time with the body (X-Service-Signature-V2): verifies within 5 minutes only, and only the raw body", async () => {
    const { api } = await user();
    const rx = await receiver();
    const sub = await subscribe(api, rx.url(), ["invoice.created"]);
    await api.post("/api/invoices", invoiceBody());
    await drain(app, () => rx.accepted().length >= 1);
    const got = rx.received[0];
    const header = got.headers["x-service-signature-v2"] as string;
    const ts = Number(got.headers["x-service-timestamp"]);
    expect(header).toMatch(new RegExp(`^t=${ts},v1=[0-9a-f]{64}$`));
    const sentAt = new Date(ts * 1000);
    const within = new Date(sentAt.getTime() + 299_000);
    const late = new Date(sentAt.getTime() + 301_000);
    expect(verifyWebhookSignatureV2(sub.secret, got.raw, header)).toBe(true);
    expect(verifyWebhookSignatureV2(sub.secret, got.raw, header, { now: within })).toBe(true);
    expect(verifyWebhookSignatureV2(sub.secret, got.raw, header, { now: late })).toBe(false);
    expect(
      verifyWebhookSignatureV2(sub.secret, got.raw, header, { now: new Date(ts * 1000 - 301_000) }),
    ).toBe(false);
    expect(verifyWebhookSignatureV2(sub.secret, `${got.raw} `, header, { now: sentAt })).toBe(
      false,
    );
    expect(
      verifyWebhookSignatureV2(sub.secret, got.raw.replace('"DRAFT"', '"PAID"'), header, {
        now: sentAt,
      }),
    ).toBe(false);
    // A replay with a fresh t fails: t is inside the HMAC.
    const replay = header.replace(`t=${ts}`, `t=${ts + 3600}`);
    const hourLater = new Date(sentAt.getTime() + 3600_000);
    expect(verifyWebhookSignatureV2(sub.secret, got.raw, replay, { now: hourLater })).toBe(false);
    // The classic header is unchanged.
    expect(got.headers["x-service-signature"]).toBe(signWebhookBody(sub.secret, got.raw));
  });

  it("rotates an endpoint's secret: 200 with the new secret once, owner only; both sign during the overlap", async () => {
    const alice = await user();
    const bob = await user();
    const rx = await receiver();
    const sub = await subscribe(alice.api, rx.url(), ["invoice.created"]);

    const other = await bob.api.post(`/api/webhooks/${sub.id}/rotate-secret`);
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ error: "Unauthorized", code: "FORBIDDEN" });
    const unknown = await alice.api.post(`/api/webhooks/${"z".repeat(24)}/rotate-secret`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe("Webhook not found");
    expect((await alice.api.post("/api/webhooks/cfg_webhook/rotate-secret")).status).toBe(404);
    expect((await client(app.url).post(`/api/webhooks/${sub.id}/rotate-secret`)).status).toBe(401);

    const before = Date.now();
    const res = await alice.api.post(`/api/webhooks/${sub.id}/rotate-secret`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["id", "previousSecretExpiresAt", "secret"]);
    expect(res.body.id).toBe(sub.id);
    expect(res.body.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(res.body.secret).not.toBe(sub.secret);
    const expires = Date.parse(res.body.previousSecretExpiresAt);
    expect(expires - before).toBeGreaterThanOrEqual(24 * 3600_000 - 1000);
    expect(expires - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    const list = await alice.api.get("/api/webhooks");
    expect(JSON.stringify(list.body)).not.toContain(res.body.secret);

    await alice.api.post("/api/invoices", invoiceBody());
    await drain(app, () => rx.accepted().length >= 1);
    const got = rx.received[0];
    const header = got.headers["x-service-signature-v2"] as string;
    const [, newSig, oldSig] = header.split(",");
    expect(header.split(",")).toHaveLength(3);
    const ts = Number(header.split(",")[0].slice(2));
    const sentAt = new Date(ts * 1000);
    // New first, then old.
    expect(
      verifyWebhookSignatureV2(res.body.secret, got.raw, `t=${ts},${newSig}`, { now: sentAt }),
    ).toBe(true);
    expect(
      verifyWebhookSignatureV2(sub.secret, got.raw, `t=${ts},${oldSig}`, { now: sentAt }),
    ).toBe(true);
    // The classic header uses the new secret only.
    expect(
      verifyWebhookSignature(
        res.body.secret,
        got.raw,
        got.headers["x-service-signature"] as string,
      ),
    ).toBe(true);
    expect(
      verifyWebhookSignature(sub.secret, got.raw, got.headers["x-service-signature"] as string),
    ).toBe(false);
  });

  it("receiver down then up: every event arrives, in order per invoice, once after de-duplication", async () => {
    const { api, wallet } = await user();
    const rx = await receiver();
    const sub = await subscribe(api, rx.url(), [
      "invoice.created",
      "invoice.sent",
      "invoice.cancelled",
    ]);
    rx.mode = "error";
    const invoiceIds: string[] = [];
    for (let i = 0; i < 4; i++) {
      const inv = (await api.post("/api/invoices", invoiceBody())).body;
      invoiceIds.push(inv.id);
      expect((await api.post(`/api/invoices/${inv.id}/send`)).status).toBe(200);
      expect((await api.post(`/api/invoices/${inv.id}/cancel`, { reason: "test" })).status).toBe(
        200,
      );
    }
    // A sent invoice's cancel also issues a credit note (credit_note.created, not subscribed here).
    const expected = await sql`select id, seq::text as seq, invoice_id, type from events
      where wallet = ${wallet} and type <> 'credit_note.created' order by seq`;
    expect(expected).toHaveLength(12);

    // Answering 500: only the first event of each invoice is tried; the rest wait behind it.
    for (let i = 0; i < 3; i++) {
      await runCron(app);
      await sleep(150);
    }
    expect(rx.received.length).toBeGreaterThanOrEqual(4);
    expect(new Set(rx.received.map((r) => envelopeOf(r).type))).toEqual(
      new Set(["invoice.created"]),
    );
    const midLog = await api.get(`/api/webhooks/${sub.id}/deliveries?limit=100`);
    expect(midLog.body.total).toBe(12);
    const heads = midLog.body.deliveries.filter((d: any) => d.eventType === "invoice.created");
    for (const d of heads) {
      expect(d).toMatchObject({ status: "pending", lastStatusCode: 500, lastError: "HTTP 500" });
      expect(d.attempts).toBeGreaterThanOrEqual(1);
      expect(d.lastAttemptAt).not.toBeNull();
    }
    for (const d of midLog.body.deliveries.filter((x: any) => x.eventType !== "invoice.created")) {
      expect(d).toMatchObject({ status: "pending", attempts: 0, lastAttemptAt: null });
    }

    // Connection refused: stored as the fixed `Connection failed`, never the socket's words
    // (ECONNREFUSED, the address and port), which made the log a port scanner (issue 27).
    await rx.down();
    await sleep(300);
    await runCron(app);
    const [refused] = await sql`select count(*)::int as n from webhook_deliveries
      where subscription_id = ${sub.id} and last_error = 'Connection failed'`;
    expect(refused.n).toBeGreaterThan(0);
    const [leaked] = await sql`select count(*)::int as n from webhook_deliveries
      where last_error ~ '(ECONN|127\.0\.0\.1|:[0-9]{2,5})'`;
    expect(leaked.n).toBe(0);

    rx.mode = "up";
    await rx.up();
    const distinct = () => new Set(rx.accepted().map((r) => envelopeOf(r).id)).size;
    await drain(app, () => distinct() === 12);

    const accepted = rx.accepted().map(envelopeOf);
    // De-duplicated by event id, each event exactly once (here nothing was even repeated).
    expect(new Set(accepted.map((e) => e.id))).toEqual(new Set(expected.map((e) => e.id)));
    expect(accepted).toHaveLength(12);
    // In order per invoice: created, sent, cancelled, by outbox seq.
    const seqOf = new Map(expected.map((e) => [e.id, BigInt(e.seq)]));
    for (const invoiceId of invoiceIds) {
      const mine = accepted.filter((e) => e.data.id === invoiceId);
      expect(mine.map((e) => e.type)).toEqual([
        "invoice.created",
        "invoice.sent",
        "invoice.cancelled",
      ]);
      const seqs = mine.map((e) => seqOf.get(e.id)!);
      expect([...seqs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(seqs);
    }
    // Every request of the whole run, de-duplicated, is the same set: nothing unexpected.
    expect(new Set(rx.received.map((r) => envelopeOf(r).id))).toEqual(
      new Set(expected.map((e) => e.id)),
    );

    const log = await api.get(`/api/webhooks/${sub.id}/deliveries?limit=100`);
    expect(log.body.deliveries.every((d: any) => d.status === "delivered")).toBe(true);
    expect(log.body.deliveries.every((d: any) => d.lastStatusCode === 200)).toBe(true);
    const createdAttempts = log.body.deliveries
      .filter((d: any) => d.eventType === "invoice.created")
      .map((d: any) => d.attempts);
    expect(Math.min(...createdAttempts)).toBeGreaterThanOrEqual(3);
    const [subRow] = await sql`select failing_since, disabled_at from webhook_subscriptions
      where id = ${sub.id}`;
    expect(subRow).toEqual({ failing_since: null, disabled_at: null });

    // The delivery log pages newest first.
    const page = await api.get(`/api/webhooks/${sub.id}/deliveries?limit=5&offset=10`);
    expect(page.body).toMatchObject({ total: 12, limit: 5, offset: 10, hasMore: false });
    expect(page.body.deliveries).toHaveLength(2);
    expect((await api.get(`/api/webhooks/${sub.id}/deliveries?limit=1000`)).status).toBe(400);
  });

  it("manual retry sends the same event, same bytes, again", async () => {
    const { api } = await user();
    const rx = await receiver();
    const sub = await subscribe(api, rx.url(), ["invoice.created"]);
    await api.post("/api/invoices", invoiceBody());
    await drain(app, () => rx.accepted().length === 1);
    const log = await api.get(`/api/webhooks/${sub.id}/deliveries`);
    const delivery = log.body.deliveries[0];
    expect(delivery.status).toBe("delivered");

    const retry = await api.post(`/api/webhooks/${sub.id}/deliveries/${delivery.id}/retry`);
    expect(retry.status).toBe(202);
    expect(retry.body).toMatchObject({ id: delivery.id, status: "pending", deliveredAt: null });
    await drain(app, () => rx.accepted().length === 2);
    expect(rx.received).toHaveLength(2);
    expect(rx.received[1].raw).toBe(rx.received[0].raw);
    expect(rx.received[1].headers["x-service-event-id"]).toBe(delivery.eventId);
    const after = (await api.get(`/api/webhooks/${sub.id}/deliveries`)).body.deliveries[0];
    expect(after).toMatchObject({ id: delivery.id, status: "delivered", attempts: 2 });
  });

  it("does not follow redirects: a 3xx is a failed attempt", async () => {
    const { api } = await user();
    const rx = await receiver();
    rx.mode = "redirect";
    const sub = await subscribe(api, rx.url(), ["invoice.created"]);
    await api.post("/api/invoices", invoiceBody());
    await runCron(app);
    expect(rx.received.map((r) => r.path)).toEqual(["/hook"]);
    const [d] = (await api.get(`/api/webhooks/${sub.id}/deliveries`)).body.deliveries;
    expect(d).toMatchObject({ status: "pending", lastStatusCode: 302, lastError: "HTTP 302" });
    rx.mode = "up";
    await drain(app, () => rx.accepted().length === 1);
    expect(rx.received.every((r) => r.path === "/hook")).toBe(true);
  });

  it("only the owner may delete, read the log or retry; deleting stops deliveries", async () => {
    const alice = await user();
    const bob = await user();
    const rx = await receiver();
    rx.mode = "error";
    const sub = await subscribe(alice.api, rx.url(), ["invoice.created"]);
    await alice.api.post("/api/invoices", invoiceBody());
    await runCron(app);
    const [d] = (await alice.api.get(`/api/webhooks/${sub.id}/deliveries`)).body.deliveries;
    expect(d.status).toBe("pending");

    const forbidden = [
      await bob.api.delete(`/api/webhooks/${sub.id}`),
      await bob.api.get(`/api/webhooks/${sub.id}/deliveries`),
      await bob.api.post(`/api/webhooks/${sub.id}/deliveries/${d.id}/retry`),
    ];
    for (const res of forbidden) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: "Unauthorized", code: "FORBIDDEN" });
    }
    const unknown = "z".repeat(24);
    expect((await alice.api.delete(`/api/webhooks/${unknown}`)).status).toBe(404);
    expect((await alice.api.get(`/api/webhooks/${unknown}/deliveries`)).status).toBe(404);
    expect((await alice.api.post(`/api/webhooks/${unknown}/deliveries/${d.id}/retry`)).status).toBe(
      404,
    );
    expect(
      (await alice.api.post(`/api/webhooks/${sub.id}/deliveries/${unknown}/retry`)).status,
    ).toBe(404);
    expect((await alice.api.delete("/api/webhooks/cfg_webhook")).status).toBe(404);
    expect((await bob.api.get("/api/webhooks")).body).toEqual([]);

    const del = await alice.api.delete(`/api/webhooks/${sub.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    expect((await alice.api.delete(`/api/webhooks/${sub.id}`)).status).toBe(404);
    expect((await alice.api.get("/api/webhooks")).body).toEqual([]);
    const [closed] =
      await sql`select status, last_error from webhook_deliveries where id = ${d.id}`;
    expect(closed).toEqual({ status: "failed", last_error: "Webhook deleted" });

    const before = rx.received.length;
    rx.mode = "up";
    await alice.api.post("/api/invoices", invoiceBody());
    await sleep(200);
    await runCron(app);
    await runCron(app);
    expect(rx.received.length).toBe(before);
  });

  it("two cron runs at once deliver each event once", async () => {
    const { api, wallet } = await user();
    const rx = await receiver();
    rx.delayMs = 100;
    await subscribe(api, rx.url(), ["*"]);
    for (let i = 0; i < 6; i++) {
      const inv = (await api.post("/api/invoices", invoiceBody())).body;
      await api.post(`/api/invoices/${inv.id}/send`);
    }
    const expected = await sql`select id from events where wallet = ${wallet}`;
    expect(expected).toHaveLength(12);
    // One failing pass fans out and makes the first event of each invoice due again soon,
    // so the four concurrent runs below all find the same due deliveries.
    rx.mode = "error";
    await runCron(app);
    expect(rx.received).toHaveLength(6);
    await sleep(200);
    rx.mode = "up";
    await Promise.all([runCron(app), runCron(app), runCron(app), runCron(app)]);
    await drain(app, () => rx.accepted().length >= 12);
    await runCron(app);
    const ids = rx.accepted().map((r) => envelopeOf(r).id);
    expect(ids).toHaveLength(12);
    expect(new Set(ids)).toEqual(new Set(expected.map((e) => e.id)));
    expect(rx.received).toHaveLength(18);
  });
});

// ---------------------------------------------------------------------------------------

describe("loopback webhooks in production (issue 27)", () => {
  it("the production server refuses to start with them unless acknowledged a second time", async () => {
    // NODE_ENV=production, and unset as `npm run serve` may run: the built server is production.
    for (const NODE_ENV of ["production", undefined]) {
      const { code, output } = await startAppExpectingFailure({
        NODE_ENV,
        JWT_SECRET: "j".repeat(40),
        WEBHOOK_ALLOW_LOOPBACK: "true",
      });
      expect(code, String(NODE_ENV)).toBe(1);
      expect(output).toContain("WEBHOOK_ALLOW_LOOPBACK: ");
      expect(output).toContain("WEBHOOK_ALLOW_LOOPBACK_IN_PRODUCTION=i-understand");
    }
    // Anything but the exact acknowledgement is refused too.
    const { code, output } = await startAppExpectingFailure({
      JWT_SECRET: "j".repeat(40),
      WEBHOOK_ALLOW_LOOPBACK: "true",
      WEBHOOK_ALLOW_LOOPBACK_IN_PRODUCTION: "yes",
    });
    expect(code).toBe(1);
    expect(output).toContain("WEBHOOK_ALLOW_LOOPBACK_IN_PRODUCTION: must be exactly i-understand");
  });
});

describe("webhooks over HTTP (loopback refused, configured endpoint)", () => {
  let app: RunningApp;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: postgres.Sql;
  let target: Receiver;
  let operator: Receiver;
  const OPERATOR_SECRET = "operator-secret-0123456789";

  beforeAll(async () => {
    target = await startReceiver();
    operator = await startReceiver();
    db = await createTestDatabase();
    app = await startApp({
      DATABASE_URL: db.url,
      WEBHOOK_URL: operator.url("/operator"),
      WEBHOOK_SECRET: OPERATOR_SECRET,
      ...testEnv,
    });
    sql = postgres(db.url, { max: 2, onnotice: () => {} });
  });

  afterAll(async () => {
    await target?.stop();
    await operator?.stop();
    await sql?.end();
    await app?.stop();
    await db?.drop();
  });

  it("refuses loopback URLs and names resolving to loopback at registration, naming the cause", async () => {
    const api = client(app.url, (await signIn(app.url)).token);
    const PRIVATE = "Webhook URL resolves to a private address";
    const HTTPS = "Webhook URL must use https";
    for (const [url, error, detail] of [
      ["https://localhost/x", PRIVATE, "localhost resolves to a loopback address"],
      [`http://localhost:${new URL(target.url()).port}/hook`, HTTPS, "the scheme must be https"],
      [target.url(), HTTPS, "the scheme must be https"],
      ["https://127.0.0.1/x", PRIVATE, "127.0.0.1 is a loopback address"],
      ["https://[::1]/x", PRIVATE, "::1 is a loopback address"],
      ["http://10.0.0.1/x", HTTPS, "the scheme must be https"],
      ["http://169.254.169.254/latest/meta-data", HTTPS, "the scheme must be https"],
      // .invalid never resolves (RFC 6761), online or off: the cause is named, not hidden.
      [
        "https://hooks.invalid/x",
        "Webhook URL host has no DNS answer",
        "no DNS answer for hooks.invalid",
      ],
    ]) {
      const res = await api.post("/api/webhooks", { url, events: ["*"] });
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toBe(error);
      expect(res.body.details.url, url).toBe(detail);
    }
    // The kind of address, never the address a name resolves to.
    const named = await api.post("/api/webhooks", { url: "https://localhost/x", events: ["*"] });
    expect(JSON.stringify(named.body)).not.toContain("127.0.0.1");
  });

  it("refuses at delivery a stored URL whose host now resolves to loopback; the operator endpoint still gets the event", async () => {
    const s = await signIn(app.url);
    const api = client(app.url, s.token);
    // As if the URL had passed at registration and its DNS had changed since.
    const id = randomBytes(12).toString("hex");
    await sql`insert into webhook_subscriptions (id, wallet, url, events, secret, created_at)
      values (${id}, ${s.wallet}, ${`https://localhost:${new URL(target.url()).port}/hook`},
              ${sql.json(["*"])}, ${`whsec_${"1".repeat(64)}`}, now())`;
    const inv = (await api.post("/api/invoices", invoiceBody())).body;
    await drain(app, () => operator.accepted().length >= 1);
    await runCron(app);

    expect(target.received).toHaveLength(0);
    const log = await api.get(`/api/webhooks/${id}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.body.deliveries[0]).toMatchObject({ status: "pending", lastStatusCode: null });
    // A fixed message: no address, no resolution detail (lib/domain/webhook-errors.ts).
    expect(log.body.deliveries[0].lastError).toBe("URL not allowed");

    // WEBHOOK_URL is the operator's choice: not SSRF-restricted, signed with WEBHOOK_SECRET,
    // and it receives every wallet's events.
    const got = operator.accepted().find((r) => envelopeOf(r).data.id === inv.id);
    expect(got).toBeDefined();
    expect(got!.path).toBe("/operator");
    expect(
      verifyWebhookSignature(
        OPERATOR_SECRET,
        got!.raw,
        got!.headers["x-service-signature"] as string,
      ),
    ).toBe(true);
    const [cfg] = await sql`select wallet, events, deleted_at from webhook_subscriptions
      where id = 'cfg_webhook'`;
    expect(cfg).toEqual({ wallet: "*", events: ["*"], deleted_at: null });
    // Nobody owns it through the API.
    expect((await api.get("/api/webhooks/cfg_webhook/deliveries")).status).toBe(404);
  });
});

// ---------------------------------------------------------------------------------------

describe("deliverWebhooks in-process (pinned clock)", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let handleA: DatabaseHandle;
  let handleB: DatabaseHandle;
  let sql: postgres.Sql;
  let rx: Receiver;
  let clock = new Date("2026-03-01T10:00:00.000Z");
  const HOUR = 3600_000;
  const DAY = 24 * HOUR;

  function ctx(
    wallet: string,
    env: Record<string, string> = {},
    handle: DatabaseHandle = handleA,
  ): AuthedContext {
    return {
      ...testContext(handle, db.url, () => clock, { WEBHOOK_ALLOW_LOOPBACK: "true", ...env }),
      wallet,
    };
  }

  beforeAll(async () => {
    rx = await startReceiver();
    db = await createTestDatabase();
    handleA = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
    handleB = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent", migrate: false });
    sql = postgres(db.url, { max: 2, onnotice: () => {} });
  });

  afterAll(async () => {
    await rx?.stop();
    await sql?.end();
    await handleA?.close();
    await handleB?.close();
    await db?.drop();
  });

  const newInvoice = (c: AuthedContext) =>
    createInvoice(c, createInvoiceSchema.parse(invoiceBody()));
  const subscribeIn = (c: AuthedContext, events = ["*"]) =>
    createWebhook(c, createWebhookSchema.parse({ url: rx.url(), events }));

  it("WEBHOOK_SECRET is required with WEBHOOK_URL", () => {
    expect(() => parseConfig({ WEBHOOK_URL: "https://hooks.example.com/x" })).toThrow(
      /WEBHOOK_SECRET/,
    );
    expect(() =>
      parseConfig({ WEBHOOK_URL: "ftp://x", WEBHOOK_SECRET: "0123456789abcdef" }),
    ).toThrow(/WEBHOOK_URL/);
    const c = parseConfig({ JWT_SECRET: "s".repeat(40) }).webhooks;
    expect(c).toMatchObject({
      endpoint: undefined,
      allowLoopback: false,
      timeoutMs: 5000,
      retryBaseMs: 30_000,
      maxAgeMs: 3 * DAY,
      disableAfterMs: 5 * DAY,
    });
  });

  it("backs off exponentially, marks a delivery older than the max age failed, and disables an endpoint failing for days", async () => {
    const c = ctx(Keypair.random().publicKey());
    rx.mode = "error";
    rx.received.length = 0;
    const sub = await subscribeIn(c, ["invoice.created"]);
    const start = clock;
    await newInvoice(c);

    const run = () => deliverWebhooks(c, { random: () => 0.5 });
    expect(await run()).toMatchObject({ attempted: 1, retrying: 1, delivered: 0 });
    let [d] = await sql`select * from webhook_deliveries where subscription_id = ${sub.id}`;
    expect(d.attempts).toBe(1);
    expect(d.last_status_code).toBe(500);
    expect(d.next_attempt_at.getTime() - start.getTime()).toBe(60_000); // 30 s x 2^1
    // Not due yet: nothing is sent.
    clock = new Date(start.getTime() + 59_000);
    expect((await run()).attempted).toBe(0);
    clock = new Date(start.getTime() + 60_000);
    expect((await run()).attempted).toBe(1);
    [d] = await sql`select * from webhook_deliveries where subscription_id = ${sub.id}`;
    expect(d.next_attempt_at.getTime() - clock.getTime()).toBe(120_000); // 30 s x 2^2

    // Three days after it was queued the next failure is final.
    clock = new Date(start.getTime() + 3 * DAY);
    expect(await run()).toMatchObject({ attempted: 1, failed: 1 });
    [d] = await sql`select * from webhook_deliveries where subscription_id = ${sub.id}`;
    expect(d).toMatchObject({ status: "failed", attempts: 3, last_error: "HTTP 500" });
    expect((await run()).attempted).toBe(0);
    const [streak] =
      await sql`select failing_since from webhook_subscriptions where id = ${sub.id}`;
    expect(streak.failing_since.getTime()).toBe(start.getTime());
    expect(rx.received).toHaveLength(3);

    // Failing continuously for five days: disabled, and new events no longer go to it.
    clock = new Date(start.getTime() + 5 * DAY);
    await newInvoice(c);
    expect(await run()).toMatchObject({ attempted: 1, failed: 1 });
    const [disabled] =
      await sql`select disabled_at from webhook_subscriptions where id = ${sub.id}`;
    expect(disabled.disabled_at.getTime()).toBe(clock.getTime());
    await newInvoice(c);
    expect((await run()).attempted).toBe(0);
    const [{ n }] =
      await sql`select count(*)::int as n from webhook_deliveries where subscription_id = ${sub.id}`;
    expect(n).toBe(2);

    const page = await listDeliveries(c, sub.id, {});
    expect(page.deliveries.map((x) => x.status)).toEqual(["failed", "failed"]);
    expect(page.deliveries[0].lastError).toMatch(/disabled after failing for 5 days/);

    // A manual retry re-queues it with a fresh window and enables the endpoint again.
    rx.mode = "up";
    const retried = await retryDelivery(c, sub.id, page.deliveries[1].id);
    expect(retried).toMatchObject({ status: "pending", createdAt: clock });
    expect(await run()).toMatchObject({ attempted: 1, delivered: 1 });
    const [enabled] = await sql`select disabled_at, failing_since from webhook_subscriptions
      where id = ${sub.id}`;
    expect(enabled).toEqual({ disabled_at: null, failing_since: null });
  });

  it("cuts a receiver slower than WEBHOOK_TIMEOUT_MS", async () => {
    const c = ctx(Keypair.random().publicKey(), { WEBHOOK_TIMEOUT_MS: "300" });
    rx.mode = "up";
    rx.delayMs = 1500;
    const sub = await subscribeIn(c, ["invoice.created"]);
    await newInvoice(c);
    const t0 = Date.now();
    expect(await deliverWebhooks(c)).toMatchObject({ attempted: 1, retrying: 1 });
    expect(Date.now() - t0).toBeLessThan(1400);
    rx.delayMs = 0;
    const [d] = await sql`select * from webhook_deliveries where subscription_id = ${sub.id}`;
    expect(d).toMatchObject({ status: "pending", last_status_code: null });
    // The fixed message: no duration, address or socket detail (lib/domain/webhook-errors.ts).
    expect(d.last_error).toBe("Timed out");
  });

  it("two processes delivering at once send each event once, in order per invoice", async () => {
    clock = new Date(clock.getTime() + DAY);
    const wallet = Keypair.random().publicKey();
    const c = ctx(wallet);
    rx.mode = "up";
    rx.delayMs = 20;
    rx.received.length = 0;
    await subscribeIn(c, ["*"]);
    const { sendInvoice, cancelInvoice } = await import("@/lib/services/invoices/change-status");
    for (let i = 0; i < 8; i++) {
      const inv = await newInvoice(c);
      await sendInvoice(c, inv.id);
      await cancelInvoice(c, inv.id, undefined);
    }
    // Fan out first, so both claimers compete for the same due deliveries from the start.
    // Each sent invoice's cancel issues a credit note too: four events per invoice.
    expect((await fanOutEvents(handleA.db, clock)).events).toBe(32);
    const opts = { batchSize: 5, concurrency: 3 };
    for (let i = 0; i < 20 && rx.accepted().length < 32; i++) {
      await Promise.all([
        deliverWebhooks(c, opts),
        deliverWebhooks(ctx(wallet, {}, handleB), opts),
      ]);
    }
    rx.delayMs = 0;
    const expected = await sql`select id, invoice_id, seq::text as seq from events
      where wallet = ${wallet} order by seq`;
    // (A late answer from the timeout test may land here too: keep this wallet's events.)
    const ours = new Set(expected.map((e) => e.id));
    const got = rx.received.map(envelopeOf).filter((e) => ours.has(e.id));
    expect(got).toHaveLength(32);
    expect(new Set(got.map((e) => e.id))).toEqual(new Set(expected.map((e) => e.id)));
    for (const invoiceId of new Set(expected.map((e) => e.invoice_id))) {
      const mine = got.filter((e) => e.data.id === invoiceId || e.data.invoiceId === invoiceId);
      expect(mine.map((e) => e.type)).toEqual([
        "invoice.created",
        "invoice.sent",
        "invoice.cancelled",
        "credit_note.created",
      ]);
    }
  });
  it("after a rotation deliveries verify with either secret for 24 hours, then with the new one only", async () => {
    clock = new Date(clock.getTime() + DAY);
    const wallet = Keypair.random().publicKey();
    const c = ctx(wallet);
    rx.mode = "up";
    rx.delayMs = 0;
    rx.received.length = 0;
    const sub = await subscribeIn(c, ["invoice.created"]);
    const rotatedAt = clock;
    const rotated = await rotateWebhookSecret(c, sub.id);
    expect(rotated.previousSecretExpiresAt.getTime()).toBe(rotatedAt.getTime() + DAY);
    expect(rotated.secret).not.toBe(sub.secret);
    const [stored] = await sql`select secret, previous_secret, previous_secret_expires_at
      from webhook_subscriptions where id = ${sub.id}`;
    expect(stored).toEqual({
      secret: rotated.secret,
      previous_secret: sub.secret,
      previous_secret_expires_at: rotated.previousSecretExpiresAt,
    });

    async function deliverAt(at: Date) {
      clock = at;
      rx.received.length = 0;
      await newInvoice(c);
      await deliverWebhooks(c);
      // (Other tests' late deliveries may land here too: keep this wallet's.)
      const mine = rx.received.filter((r) => envelopeOf(r).data.freelancerWallet === wallet);
      expect(mine).toHaveLength(1);
      const got = mine[0];
      const v2 = got.headers["x-service-signature-v2"] as string;
      expect(v2.startsWith(`t=${Math.floor(at.getTime() / 1000)},`)).toBe(true);
      return {
        v2,
        verifies: (secret: string) =>
          verifyWebhookSignatureV2(secret, got.raw, v2, { now: at }) &&
          verifyWebhookSignatureV2([secret], got.raw, v2, { now: new Date(at.getTime() + 60_000) }),
        classic: (secret: string) =>
          verifyWebhookSignature(secret, got.raw, got.headers["x-service-signature"] as string),
      };
    }

    // Inside the overlap: two v1 entries, either secret verifies; classic only the new one.
    const during = await deliverAt(new Date(rotatedAt.getTime() + DAY - 1000));
    expect(during.v2.split(",")).toHaveLength(3);
    expect(during.verifies(rotated.secret)).toBe(true);
    expect(during.verifies(sub.secret)).toBe(true);
    expect(during.classic(rotated.secret)).toBe(true);
    expect(during.classic(sub.secret)).toBe(false);

    // 24 hours on: the old secret no longer signs anything.
    const after = await deliverAt(new Date(rotatedAt.getTime() + DAY));
    expect(after.v2.split(",")).toHaveLength(2);
    expect(after.verifies(rotated.secret)).toBe(true);
    expect(after.verifies(sub.secret)).toBe(false);
    expect(after.classic(sub.secret)).toBe(false);

    // Rotating again keeps only the secret it replaces.
    const again = await rotateWebhookSecret(c, sub.id);
    const third = await deliverAt(new Date(clock.getTime() + HOUR));
    expect(third.verifies(again.secret)).toBe(true);
    expect(third.verifies(rotated.secret)).toBe(true);
    expect(third.verifies(sub.secret)).toBe(false);

    // Another wallet cannot rotate it.
    await expect(rotateWebhookSecret(ctx(Keypair.random().publicKey()), sub.id)).rejects.toThrow(
      "Unauthorized",
    );
  });
});
