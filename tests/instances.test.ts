import http from "node:http";
import type { AddressInfo } from "node:net";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhookSignature } from "@/lib/webhooks/sign";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { createTestDatabase } from "./helpers/postgres";
import {
  Asset,
  type Chain,
  chainEnv,
  funded,
  MAINNET,
  Memo,
  pay,
  send,
  startChain,
  TESTNET,
  TransactionBuilder,
} from "./helpers/stellar";
import { kill, startWorkerProcess } from "./helpers/worker";

/**
 * Two app processes and two workers on one database: limits hold across them, every payment
 * is recorded once, every webhook event is delivered once, invoice numbers never collide;
 * then a worker is killed with SIGKILL in the middle of deliveries.
 */
let testnet: Chain;
let mainnet: Chain;
let apps: RunningApp[] = [];
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let env: Record<string, string>;
const received: { id: string; raw: string; signature: string }[] = [];
let receiverUrl = "";
let receiverDelayMs = 0;
let server: http.Server;
/** Event ids whose delivery request has arrived and not been answered yet. */
const inflightIds = new Set<string>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const inflightId = String(req.headers["x-service-event-id"]);
      inflightIds.add(inflightId);
      if (receiverDelayMs) await new Promise((r) => setTimeout(r, receiverDelayMs));
      inflightIds.delete(inflightId);
      received.push({
        id: String(req.headers["x-service-event-id"]),
        raw: Buffer.concat(chunks).toString("utf8"),
        signature: String(req.headers["x-service-signature"]),
      });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  testnet = await startChain(TESTNET);
  mainnet = await startChain(MAINNET);
  db = await createTestDatabase();
  env = {
    DATABASE_URL: db.url,
    ...chainEnv(testnet, mainnet),
    WEBHOOK_ALLOW_LOOPBACK: "true",
    WEBHOOK_ALLOW_LOOPBACK_IN_PRODUCTION: "i-understand",
    WEBHOOK_RETRY_BASE_MS: "100",
    WEBHOOK_INTERVAL_MS: "200",
  };
  apps = await Promise.all(
    [0, 1].map(() =>
      startApp({
        ...env,
        RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
        RATE_LIMIT_INVOICES_PER_HOUR: "30",
        RATE_LIMIT_PAY_INTENT_PER_5_MINUTES: "100000",
      }),
    ),
  );
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end();
  await Promise.all(apps.map((a) => a.stop()));
  await testnet?.ledger.stop();
  await mainnet?.ledger.stop();
  await db?.drop();
  server?.close();
});

async function waitUntil(fn: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await fn()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe("two apps and two workers on one database", () => {
  it("limits hold, numbers never collide, each payment is recorded once, each event delivered once", async () => {
    const freelancer = await funded(testnet);
    const [a, b] = await Promise.all(
      apps.map(async (app) => client(app.url, (await signIn(app.url, freelancer)).token)),
    );
    const secret = (await a.post("/api/webhooks", { url: receiverUrl, events: ["*"] })).body
      .secret as string;
    expect(secret).toMatch(/^whsec_/);

    // 40 creations split over both apps against a limit of 30 per hour per wallet.
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? a : b).post(
          "/api/invoices",
          invoiceBody({ lineItems: [{ description: "x", quantity: "1", rate: "3" }] }),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(30);
    expect(results.filter((r) => r.status === 429)).toHaveLength(10);
    const invoices = results
      .filter((r) => r.status === 201)
      .map((r) => r.body as { id: string; invoiceNumber: string });
    expect(new Set(invoices.map((i) => i.invoiceNumber)).size).toBe(30);

    const workers = [startWorkerProcess(env), startWorkerProcess(env)];
    try {
      const payer = await funded(testnet);
      const apis: Api[] = [a, b];
      for (const [i, inv] of invoices.entries()) {
        await apis[i % 2].post(`/api/invoices/${inv.id}/send`);
      }
      // Half paid through submit on alternating apps, half found by the workers.
      for (const [i, inv] of invoices.entries()) {
        if (i % 2 === 0) {
          const intent = await apis[i % 4 === 0 ? 0 : 1].post(
            `/api/payments/${inv.id}/pay-intent`,
            {
              networkPassphrase: TESTNET,
              senderPublicKey: payer.publicKey(),
            },
          );
          expect(intent.status, JSON.stringify(intent.body)).toBe(200);
          const tx = TransactionBuilder.fromXDR(intent.body.transactionXdr, TESTNET);
          tx.sign(payer);
          const res = await apis[i % 4 === 0 ? 1 : 0].post("/api/payments/submit", {
            invoiceId: inv.id,
            signedTransactionXdr: tx.toXDR(),
          });
          expect(res.status).toBe(200);
        } else {
          await send(
            testnet,
            await pay(
              testnet,
              payer,
              freelancer.publicKey(),
              Asset.native(),
              "3",
              Memo.text(inv.invoiceNumber),
            ),
          );
        }
      }
      const ids = invoices.map((i) => i.id);
      const paid = await waitUntil(async () => {
        const [{ n }] =
          await sql`select count(*)::int as n from invoices where id in ${sql(ids)} and status = 'PAID'`;
        return n === ids.length;
      }, 40_000);
      expect(paid).toBe(true);
      const rows = await sql`select i.id,
          (select count(*) from payments p where p.invoice_id = i.id)::int as payments,
          (select count(*) from events e where e.invoice_id = i.id and e.type = 'invoice.paid')::int as paid_events
        from invoices i where i.id in ${sql(ids)}`;
      expect(rows.every((r) => r.payments === 1 && r.paid_events === 1)).toBe(true);

      // Every event of this wallet reaches the receiver exactly once, correctly signed.
      const [{ total }] =
        await sql`select count(*)::int as total from events where wallet = ${freelancer.publicKey()}`;
      const delivered = await waitUntil(
        async () => new Set(received.map((r) => r.id)).size >= total,
        40_000,
      );
      expect(delivered).toBe(true);
      await new Promise((r) => setTimeout(r, 1000));
      expect(received).toHaveLength(total);
      for (const r of received)
        expect(verifyWebhookSignature(secret, r.raw, r.signature)).toBe(true);
      // In order per invoice.
      const seqs =
        await sql`select id, invoice_id, seq::text as seq from events where wallet = ${freelancer.publicKey()}`;
      const byId = new Map(seqs.map((e) => [e.id, e]));
      const lastSeq = new Map<string, bigint>();
      for (const r of received) {
        const e = byId.get(r.id);
        if (!e?.invoice_id) continue;
        const prev = lastSeq.get(e.invoice_id) ?? -1n;
        expect(BigInt(e.seq)).toBeGreaterThan(prev);
        lastSeq.set(e.invoice_id, BigInt(e.seq));
      }
    } finally {
      await Promise.all(workers.map((w) => kill(w, "SIGTERM")));
    }
  });

  it("a worker killed with SIGKILL in the middle of deliveries loses no event", async () => {
    const freelancer = await funded(testnet);
    const api = client(apps[0].url, (await signIn(apps[0].url, freelancer)).token);
    await api.post("/api/webhooks", { url: receiverUrl, events: ["*"] });
    received.length = 0;
    receiverDelayMs = 300; // deliveries are in flight long enough to be interrupted
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await api.post("/api/invoices", invoiceBody());
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids.push(res.body.id);
    }
    // A short lease: deliveries a killed worker left in flight are retried within seconds.
    const workerEnv = { ...env, WEBHOOK_LEASE_MS: "6000" };
    let worker = startWorkerProcess(workerEnv);
    let kills = 0;
    const deadline = Date.now() + 6000;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 700 + Math.random() * 500));
      await kill(worker);
      kills++;
      worker = startWorkerProcess(workerEnv);
    }
    receiverDelayMs = 0;
    try {
      const [{ total }] =
        await sql`select count(*)::int as total from events where wallet = ${freelancer.publicKey()}`;
      expect(total).toBe(10);
      const all = await waitUntil(
        async () => new Set(received.map((r) => r.id)).size === total,
        60_000,
      );
      expect(all).toBe(true);
      const allRecorded = await waitUntil(async () => {
        const [{ delivered }] =
          await sql`select count(*)::int as delivered from webhook_deliveries d
          join events e on e.id = d.event_id where e.wallet = ${freelancer.publicKey()} and d.status = 'delivered'`;
        return delivered === total;
      }, 30_000);
      expect(allRecorded).toBe(true);
      // At least once: an attempt a kill interrupted after the receiver got it is repeated
      // (same event id, dropped by the receiver). Every copy is a counted attempt: nothing is
      // ever sent twice by one attempt, and only the last attempt is recorded as delivered.
      expect(kills).toBeGreaterThan(0);
      const attempts = await sql`select d.event_id, d.attempts from webhook_deliveries d
        join events e on e.id = d.event_id where e.wallet = ${freelancer.publicKey()}`;
      for (const a of attempts) {
        const copies = received.filter((r) => r.id === a.event_id).length;
        expect(copies, a.event_id).toBeGreaterThanOrEqual(1);
        expect(copies, a.event_id).toBeLessThanOrEqual(a.attempts);
      }
    } finally {
      await kill(worker, "SIGTERM");
    }
  });

  it("a worker killed with SIGKILL while a delivery is in flight: redelivered after its lease", async () => {
    const freelancer = await funded(testnet);
    const api = client(apps[0].url, (await signIn(apps[0].url, freelancer)).token);
    await api.post("/api/webhooks", { url: receiverUrl, events: ["invoice.created"] });
    received.length = 0;
    receiverDelayMs = 4000; // the receiver holds the request: the delivery is in flight
    const workerEnv = { ...env, WEBHOOK_LEASE_MS: "6000" };
    let worker = startWorkerProcess(workerEnv);
    try {
      const inv = (await api.post("/api/invoices", invoiceBody())).body;
      const [event] =
        await sql`select id from events where invoice_id = ${inv.id} and type = 'invoice.created'`;
      const arrived = await waitUntil(async () => inflightIds.has(event.id), 15_000);
      expect(arrived).toBe(true);
      await kill(worker);
      receiverDelayMs = 0;
      worker = startWorkerProcess(workerEnv);
      const delivered = await waitUntil(async () => {
        const [d] = await sql`select status from webhook_deliveries where event_id = ${event.id}`;
        return d?.status === "delivered";
      }, 30_000);
      expect(delivered).toBe(true);
      const [d] = await sql`select attempts from webhook_deliveries where event_id = ${event.id}`;
      expect(d.attempts).toBe(2);
      // The interrupted attempt reached the receiver; the retry repeats the same event id,
      // which the receiver drops (at least once, never lost).
      const copies = received.filter((r) => r.id === event.id).length;
      expect(copies).toBeGreaterThanOrEqual(1);
      expect(copies).toBeLessThanOrEqual(2);
    } finally {
      receiverDelayMs = 0;
      await kill(worker, "SIGTERM");
    }
  });
});
