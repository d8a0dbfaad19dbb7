/**
 * Pushed-status benchmark (issue: speed): ledger close -> the status message received by a
 * client of GET /api/payments/:id/events, with the worker inside the app following the
 * ledger's stream; and what 5,000 idle streams cost one instance in resident memory, and how
 * long one change takes to reach all of them. Needs TEST_DATABASE_URL and a `next build`
 * (npm run bench).
 */
import fs from "node:fs";
import http from "node:http";
import type { Keypair } from "@stellar/stellar-sdk";
import postgres from "postgres";
import { client } from "../tests/helpers/api";
import { startApp } from "../tests/helpers/app";
import { signIn } from "../tests/helpers/auth";
import { createTestDatabase } from "../tests/helpers/postgres";
import { chainEnv, funded, MAINNET, startChain, TESTNET } from "../tests/helpers/stellar";
import { fundedManual, payInOneLedger, sentInvoices } from "./ledger-batches";
import { percentile, writeSection } from "./results-file";

const PAYMENTS = Number(process.env.BENCH_PUSH_PAYMENTS ?? 60);
const PER_LEDGER = 10;
const IDLE_CLIENTS = Number(process.env.BENCH_IDLE_STREAMS ?? 5000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One event-stream client over node:http (cheap enough to hold thousands). */
function follow(base: string, invoiceId: string, onMessage: (data: string) => void) {
  return new Promise<http.ClientRequest>((resolve, reject) => {
    const req = http.get(
      `${base}/api/payments/${invoiceId}/events`,
      { agent: false, headers: { accept: "text/event-stream" } },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`stream answered ${res.statusCode}`));
          res.resume();
          return;
        }
        let buffer = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          buffer += chunk;
          for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (data) onMessage(data);
          }
        });
        resolve(req);
      },
    );
    req.on("error", reject);
  });
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function pushLatency() {
  const testnet = await startChain(TESTNET, { manualClose: true });
  const mainnet = await startChain(MAINNET);
  const db = await createTestDatabase();
  const app = await startApp({
    DATABASE_URL: db.url,
    RATE_LIMIT_GLOBAL_PER_MINUTE: "1000000",
    RATE_LIMIT_INVOICES_PER_HOUR: "1000000",
    STATUS_STREAMS_PER_IP: "100000",
    MAX_CONNECTIONS_PER_IP: "100000",
    WORKER: "on",
    WATCHER_STREAM: "on",
    WATCHER_INTERVAL_MS: "5000",
    ...chainEnv(testnet, mainnet),
  });
  const sql = postgres(db.url, { max: 2, onnotice: () => {} });
  const streams: http.ClientRequest[] = [];
  try {
    const freelancer = await fundedManual(testnet);
    const api = client(app.url, (await signIn(app.url, freelancer)).token);
    const payers: Keypair[] = [];
    for (let i = 0; i < PER_LEDGER; i++) payers.push(await fundedManual(testnet));
    const invoices = await sentInvoices(api, PAYMENTS);
    const paidAt = new Map<string, number>();
    for (const inv of invoices) {
      streams.push(
        await follow(app.url, inv.id, (data) => {
          if (JSON.parse(data).status === "PAID" && !paidAt.has(inv.id)) {
            paidAt.set(inv.id, Date.now());
          }
        }),
      );
    }
    while (!(await sql`select cursor from watcher_cursors where network = 'testnet'`)[0]?.cursor) {
      await sleep(50);
    }
    const lags: number[] = [];
    const recorded: number[] = [];
    for (let batch = 0; batch < PAYMENTS / PER_LEDGER; batch++) {
      const group = invoices.slice(batch * PER_LEDGER, (batch + 1) * PER_LEDGER);
      const closedAt = await payInOneLedger(
        testnet,
        payers,
        freelancer.publicKey(),
        group,
        500 + Math.random() * 1000,
      );
      const deadline = Date.now() + 30_000;
      while (group.some((g) => !paidAt.has(g.id)) && Date.now() < deadline) await sleep(5);
      for (const g of group) {
        const at = paidAt.get(g.id);
        if (at === undefined) throw new Error(`no PAID message for ${g.id}`);
        lags.push(at - closedAt);
      }
      const rows =
        await sql`select updated_at from invoices where id in ${sql(group.map((g) => g.id))}`;
      for (const r of rows) recorded.push(new Date(r.updated_at).getTime() - closedAt);
    }
    return {
      p50: percentile(lags, 50),
      p95: percentile(lags, 95),
      max: Math.max(...lags),
      n: lags.length,
      recordedP50: percentile(recorded, 50),
      recordedP95: percentile(recorded, 95),
    };
  } finally {
    for (const s of streams) s.destroy();
    await Promise.all([sql.end(), app.stop(), testnet.ledger.stop(), mainnet.ledger.stop()]);
    await db.drop();
  }
}

async function idleStreams() {
  const testnet = await startChain(TESTNET);
  const mainnet = await startChain(MAINNET);
  const db = await createTestDatabase();
  const app = await startApp({
    DATABASE_URL: db.url,
    RATE_LIMITS: "off",
    STATUS_STREAMS_PER_IP: "100000",
    MAX_CONNECTIONS_PER_IP: "100000",
    STATUS_STREAMS_MAX: "100000",
    WORKER: "off",
    ...chainEnv(testnet, mainnet),
  });
  const sql = postgres(db.url, { max: 2, onnotice: () => {} });
  const streams: http.ClientRequest[] = [];
  try {
    const freelancer = await funded(testnet);
    const api = client(app.url, (await signIn(app.url, freelancer)).token);
    const invoices = (await sentInvoices(api, 100)).map((inv) => inv.id);
    // Warm: the route compiled and loaded, a few streams opened and closed.
    for (let i = 0; i < 20; i++) (await follow(app.url, invoices[i], () => {})).destroy();
    await sleep(2000);
    const before = rssMb(app.pid);
    const received = new Map<string, number>();
    let messages = 0;
    for (let i = 0; i < IDLE_CLIENTS; i += 100) {
      await Promise.all(
        Array.from({ length: Math.min(100, IDLE_CLIENTS - i) }, (_, j) => {
          const id = invoices[(i + j) % invoices.length];
          const key = `${i + j}`;
          return follow(app.url, id, (data) => {
            messages++;
            if (JSON.parse(data).status === "CANCELLED") received.set(key, Date.now());
          }).then((s) => streams.push(s));
        }),
      );
    }
    while (messages < IDLE_CLIENTS) await sleep(50);
    await sleep(5000);
    const after = rssMb(app.pid);
    // One change to every followed invoice: how long until all 5,000 streams have it.
    const changedAt = Date.now();
    await sql`update invoices set status = 'CANCELLED', updated_at = now() where id in ${sql(invoices)}`;
    const deadline = Date.now() + 60_000;
    while (received.size < IDLE_CLIENTS && Date.now() < deadline) await sleep(10);
    const fanOut = Math.max(...received.values()) - changedAt;
    return {
      before,
      after,
      added: after - before,
      clients: IDLE_CLIENTS,
      fanOut,
      got: received.size,
    };
  } finally {
    for (const s of streams) s.destroy();
    await Promise.all([sql.end(), app.stop(), testnet.ledger.stop(), mainnet.ledger.stop()]);
    await db.drop();
  }
}

const latency = await pushLatency();
console.log("push latency", latency);
const idle = await idleStreams();
console.log("idle streams", idle);

const ok = (pass: boolean) => (pass ? "met" : "**missed**");
writeSection(
  "Pushed status",
  `
Ledger close to the PAID message received by a client of \`GET /api/payments/:id/events\`:
${latency.n} payments in ledgers of ${PER_LEDGER}, the worker inside the app following the local
ledger's ledger stream, real PostgreSQL (NOTIFY from the recording transaction, one LISTEN
connection in the app).

| p50 | p95 | max | target p95 | of which: close to recorded (p50 / p95) |
|---|---|---|---|---|
| ${latency.p50} ms | ${latency.p95} ms | ${latency.max} ms | <= 300 ms (${ok(latency.p95 <= 300)}) | ${latency.recordedP50} / ${latency.recordedP95} ms |

${idle.clients.toLocaleString("en-US")} idle streams on one instance (100 invoices, 50 streams each; one client process on the
same machine):

| app RSS before | with the streams open | added | target | one change to all 100 invoices reaches all ${idle.clients.toLocaleString("en-US")} streams in |
|---|---|---|---|---|
| ${idle.before.toFixed(0)} MB | ${idle.after.toFixed(0)} MB | ${idle.added.toFixed(0)} MB | <= 100 MB (${ok(idle.added <= 100)}) | ${idle.fanOut} ms (${idle.got} received) |
`,
);
process.exit(0);
