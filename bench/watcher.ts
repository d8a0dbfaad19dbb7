/**
 * Watcher benchmark (issue: payments): detection lag from ledger close to PAID with the
 * worker streaming and with polling only, and Horizon requests per tick with 10,000 open
 * invoices across 1,000 wallets. Needs TEST_DATABASE_URL and a `next build` (npm run bench).
 */
import { Keypair } from "@stellar/stellar-sdk";
import postgres from "postgres";
import { openDatabase } from "../db/client";
import { parseConfig } from "../lib/config";
import { watcherTick } from "../lib/jobs/watcher";
import { logger } from "../lib/logger";
import { client } from "../tests/helpers/api";
import { startApp } from "../tests/helpers/app";
import { signIn } from "../tests/helpers/auth";
import { createTestDatabase } from "../tests/helpers/postgres";
import {
  Asset,
  chainEnv,
  funded,
  MAINNET,
  Memo,
  pay,
  startChain,
  TESTNET,
} from "../tests/helpers/stellar";
import { fundedManual, payInOneLedger, sentInvoices } from "./ledger-batches";
import { percentile, writeSection } from "./results-file";

const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 100);
const PER_LEDGER = 10;

async function detectionLag(mode: "stream" | "poll") {
  const testnet = await startChain(TESTNET, { manualClose: true });
  const mainnet = await startChain(MAINNET);
  const db = await createTestDatabase();
  const app = await startApp({
    DATABASE_URL: db.url,
    RATE_LIMIT_GLOBAL_PER_MINUTE: "1000000",
    RATE_LIMIT_INVOICES_PER_HOUR: "1000000",
    WORKER: "on",
    WATCHER_STREAM: mode === "stream" ? "on" : "off",
    WATCHER_INTERVAL_MS: "5000",
    ...chainEnv(testnet, mainnet),
  });
  const sql = postgres(db.url, { max: 2, onnotice: () => {} });
  try {
    const freelancer = await fundedManual(testnet);
    const api = client(app.url, (await signIn(app.url, freelancer)).token);
    const payers: Keypair[] = [];
    for (let i = 0; i < PER_LEDGER; i++) payers.push(await fundedManual(testnet));
    const invoices = await sentInvoices(api, PAYMENTS);
    await waitFor(
      async () =>
        (await sql`select cursor from watcher_cursors where network = 'testnet'`)[0]?.cursor,
    );
    const lags: number[] = [];
    for (let batch = 0; batch < PAYMENTS / PER_LEDGER; batch++) {
      const group = invoices.slice(batch * PER_LEDGER, (batch + 1) * PER_LEDGER);
      // Random phase against the 5-second polling interval.
      const closedAt = await payInOneLedger(
        testnet,
        payers,
        freelancer.publicKey(),
        group,
        Math.random() * 5000,
      );
      const ids = group.map((g) => g.id);
      await waitFor(async () => {
        const [{ n }] =
          await sql`select count(*)::int as n from invoices where id in ${sql(ids)} and status = 'PAID'`;
        return n === ids.length;
      }, 30_000);
      const rows = await sql`select updated_at from invoices where id in ${sql(ids)}`;
      for (const r of rows) lags.push(new Date(r.updated_at).getTime() - closedAt);
    }
    return {
      p50: percentile(lags, 50),
      p95: percentile(lags, 95),
      max: Math.max(...lags),
      n: lags.length,
    };
  } finally {
    await stopAll(sql.end(), app.stop(), testnet.ledger.stop(), mainnet.ledger.stop());
    await db.drop();
  }
}

async function requestsPerTick(openInvoices: number, wallets: number, paymentsSinceCursor: number) {
  const testnet = await startChain(TESTNET);
  const mainnet = await startChain(MAINNET);
  const db = await createTestDatabase();
  const handle = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
  const sql = postgres(db.url, { max: 2, onnotice: () => {} });
  const config = parseConfig({
    JWT_SECRET: "s".repeat(40),
    DATABASE_URL: db.url,
    ...chainEnv(testnet, mainnet),
  });
  const ctx = { db: handle.db, config, now: () => new Date(), logger };
  try {
    const walletKeys = Array.from({ length: wallets }, () => Keypair.random());
    const paid = walletKeys.slice(0, Math.min(wallets, 20));
    for (const kp of paid) await funded(testnet, kp);
    const now = new Date();
    const rows = Array.from({ length: openInvoices }, (_, i) => ({
      id: `bench${String(i).padStart(15, "0")}`,
      invoice_number: `INV-B${i}`,
      status: "PENDING",
      freelancer_wallet: walletKeys[i % wallets].publicKey(),
      client_name: "Bench",
      client_email: "bench@example.com",
      title: "Bench",
      subtotal: "1",
      total: "1",
      network_passphrase: TESTNET,
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 1000)
      await sql`insert into invoices ${sql(rows.slice(i, i + 1000))}`;
    await watcherTick(ctx, "testnet"); // sets the cursor
    const payer = await funded(testnet);
    for (let i = 0; i < paymentsSinceCursor; i++) {
      const n = i % paid.length; // invoice i pays wallet i % wallets, and wallet n < 20 is funded
      const tx = await pay(
        testnet,
        payer,
        walletKeys[n].publicKey(),
        Asset.native(),
        "1",
        Memo.text(`INV-B${n}`),
      );
      await testnet.server.submitTransaction(tx).catch(() => null);
    }
    const started = performance.now();
    const tick = await watcherTick(ctx, "testnet");
    return { ...tick, ms: performance.now() - started };
  } finally {
    await stopAll(sql.end(), handle.close(), testnet.ledger.stop(), mainnet.ledger.stop());
    await db.drop();
  }
}

/** Stops what a run started (together), before its database is dropped. */
const stopAll = (...stops: Promise<unknown>[]) => Promise.all(stops);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function waitFor(fn: () => Promise<unknown>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await fn()) return;
    await sleep(20);
  }
  throw new Error("timed out");
}

const stream = await detectionLag("stream");
console.log("stream", stream);
const poll = await detectionLag("poll");
console.log("poll", poll);
const big = await requestsPerTick(10_000, 1_000, 40);
console.log("10k open invoices", big);
const small = await requestsPerTick(10, 10, 40);
console.log("10 open invoices", small);

writeSection(
  "Watcher",
  `
Detection lag: ledger close to invoice PAID (the recorder's timestamp), ${stream.n} payments in
ledgers of ${PER_LEDGER}, the worker inside the app, local ledger over HTTP, real PostgreSQL.

| mode | p50 | p95 | max |
|---|---|---|---|
| streaming (SSE wake-up + cursor read) | ${stream.p50} ms | ${stream.p95} ms | ${stream.max} ms |
| polling only (every 5 s) | ${poll.p50} ms | ${poll.p95} ms | ${poll.max} ms |

Horizon requests per watcher tick (40 new payments since the cursor, all payments of the network read with \`join=transactions\`):

| open invoices | wallets | Horizon requests | records read | matched | tick time |
|---|---|---|---|---|---|
| 10,000 | 1,000 | ${big.horizonRequests} | ${big.records} | ${big.matched} | ${big.ms.toFixed(0)} ms |
| 10 | 10 | ${small.horizonRequests} | ${small.records} | ${small.matched} | ${small.ms.toFixed(0)} ms |
`,
);
process.exit(0);
