/**
 * Mainnet-scale watcher benchmark (issue 18 item 4): the local ledger closes a ledger every
 * 5 s carrying ~1,000 operations from thousands of accounts (bench/mainnet-traffic.ts), with
 * 10,000 open invoices on 1,000 wallets in PostgreSQL and one matching payment in every
 * ledger, while the worker (scripts/worker.ts, its own process) watches it through a counting
 * proxy (tests/helpers/counting-proxy.ts). Three runs: streaming, polling only, and Horizon answering
 * 500 ms late. Needs TEST_DATABASE_URL (npm run bench starts PostgreSQL).
 *
 * MAINNET_MINUTES (default 10) shortens each run; MAINNET_MODES (default stream,poll,slow,rpc)
 * picks the runs. `rpc` runs the worker with LEDGER_SOURCE_MAINNET=rpc against the same
 * ledger's Stellar RPC (`/rpc`), every call counted by method (`rpcKinds`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Keypair, Networks, StrKey } from "@stellar/stellar-sdk";
import postgres from "postgres";
import { openDatabase } from "../db/client";
import type { SubmitResult } from "../ledger/core";
import { type LocalLedger, startLedger } from "../ledger/server";
import { formatInvoiceNumber } from "../lib/domain/invoice-number";
import { firstUnreadLedger } from "../lib/ledger-sources/rpc";
import { startPriceSource } from "../scripts/price-source";
import { type CountingProxy, rpcKinds, startProxy } from "../tests/helpers/counting-proxy";
import { createTestDatabase } from "../tests/helpers/postgres";
import {
  createAccounts,
  type LedgerBatch,
  prepareTraffic,
  replaySetup,
  type SetupSteps,
} from "./mainnet-traffic";
import { percentile, writeSection } from "./results-file";

type Mode = "stream" | "poll" | "slow" | "rpc";
const MODE_LABEL: Record<Mode, string> = {
  stream: "streaming",
  poll: "polling only (WATCHER_STREAM=off)",
  slow: "streaming, Horizon +500 ms per request",
  rpc: "Stellar RPC (LEDGER_SOURCE=rpc: getEvents, getLatestLedger on the ledgers' beat)",
};

const MINUTES = Number(process.env.MAINNET_MINUTES ?? 10);
const MODES = (process.env.MAINNET_MODES ?? "stream,poll,slow,rpc").split(",") as Mode[];
const CLOSE_MS = 5000;
const SHAPE = { txPerLedger: 100, opsPerTx: 10, sources: 3000 };
const WALLETS = 1000;
const INVOICES = 10_000;
const ROOT = path.join(import.meta.dirname, "..");
const CLK_TCK = 100;

type RunResult = Awaited<ReturnType<typeof run>>;

// One pair of issuers for every run, so the traffic signed for the first run is valid on the
// fresh ledgers of the next ones (bench/mainnet-traffic.ts, replaySetup).
const ISSUERS = { USDC: Keypair.random().secret(), EURC: Keypair.random().secret() };
const LEDGERS = Math.max(2, Math.round((MINUTES * 60_000) / CLOSE_MS));
// Freelancer wallets: any 32 bytes make an account id; they only receive.
const WALLET_IDS = Array.from({ length: WALLETS }, () =>
  StrKey.encodeEd25519PublicKey(randomBytes(32)),
);
const invoice = (i: number) => ({
  index: i,
  wallet: WALLET_IDS[i % WALLETS],
  // Each wallet numbers its own invoices: INV-0001 .. INV-0010 on every wallet.
  number: formatInvoiceNumber(Math.floor(i / WALLETS) + 1),
  amount: `${(i % 97) + 1}.25`,
});
let prepared: { steps: SetupSteps; batches: LedgerBatch[]; seconds: number } | undefined;

/** The set-up ledgers and every ledger's signed transactions, made on the first run. */
function prepare(mainnet: LocalLedger) {
  if (prepared) {
    replaySetup(mainnet, prepared.steps);
    return prepared;
  }
  const started = performance.now();
  const steps: SetupSteps = [];
  createAccounts(mainnet, steps, WALLET_IDS, "10");
  // 7919 is prime to 10,000: ledger k pays a different invoice each time, all over the table.
  const batches = prepareTraffic(mainnet, steps, SHAPE, LEDGERS, (k) =>
    invoice((k * 7919) % INVOICES),
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${LEDGERS} ledgers of ${batches[0].envelopes.length} transactions pre-signed in ${seconds.toFixed(1)} s`,
  );
  prepared = { steps, batches, seconds };
  return prepared;
}

async function run(mode: Mode) {
  const ledgers = LEDGERS;
  const mainnet = await startLedger({
    networkPassphrase: Networks.PUBLIC,
    closeIntervalMs: 0,
    friendbot: false,
    issuers: ISSUERS,
  });
  // The testnet side of the worker is idle, as on a mainnet deployment.
  const testnet = await startLedger({
    networkPassphrase: Networks.TESTNET,
    closeIntervalMs: CLOSE_MS,
  });
  const delay = mode === "slow" ? 500 : 0;
  const rpc = mode === "rpc";
  const proxies: { mainnet: CountingProxy; testnet: CountingProxy } = {
    mainnet: await startProxy(mainnet.url, delay, rpc ? rpcKinds : undefined),
    testnet: await startProxy(testnet.url, delay),
  };
  const source = rpc ? "rpc" : "horizon";
  const prices = await startPriceSource();
  const db = await createTestDatabase();
  const sql = postgres(db.url, { max: 2, onnotice: () => {} });
  let worker: ChildProcess | undefined;
  try {
    const { batches, seconds: prepS } = prepare(mainnet);
    const ops = batches[0].envelopes.length * SHAPE.opsPerTx;

    const handle = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
    await handle.close(); // migrated
    const now = new Date();
    const rows = Array.from({ length: INVOICES }, (_, i) => {
      const inv = invoice(i);
      return {
        id: `mainnet${String(i).padStart(13, "0")}`,
        invoice_number: inv.number,
        status: "PENDING",
        freelancer_wallet: inv.wallet,
        client_name: "Bench",
        client_email: "bench@example.com",
        title: "Bench",
        subtotal: inv.amount,
        total: inv.amount,
        network_passphrase: Networks.PUBLIC,
        created_at: now,
        updated_at: now,
      };
    });
    for (let i = 0; i < rows.length; i += 1000)
      await sql`insert into invoices ${sql(rows.slice(i, i + 1000))}`;
    // The watcher starts at the current ledger (the set-up ledgers hold no invoice payments).
    const tipLedger = mainnet.core.latest().sequence;
    const tip = rpc ? String(tipLedger) : (BigInt(tipLedger) << 32n).toString();
    await sql`insert into watcher_cursors ${sql({ network: "mainnet", source, cursor: tip, updated_at: now })}`;

    worker = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
      cwd: ROOT,
      stdio: ["ignore", "inherit", "inherit"],
      env: {
        ...process.env,
        NODE_ENV: "production",
        LOG_LEVEL: "warn",
        DATABASE_URL: db.url,
        JWT_SECRET: "s".repeat(40),
        ...prices.env,
        HORIZON_MAINNET_URL: proxies.mainnet.url,
        ...(rpc
          ? { LEDGER_SOURCE_MAINNET: "rpc", RPC_MAINNET_URL: `${proxies.mainnet.url}/rpc` }
          : {}),
        HORIZON_TESTNET_URL: proxies.testnet.url,
        USDC_ISSUER_MAINNET: mainnet.issuers.USDC.issuer,
        EURC_ISSUER_MAINNET: mainnet.issuers.EURC.issuer,
        USDC_ISSUER_TESTNET: testnet.issuers.USDC.issuer,
        EURC_ISSUER_TESTNET: testnet.issuers.EURC.issuer,
        WATCHER_STREAM: mode === "poll" ? "off" : "on",
        WATCHER_INTERVAL_MS: String(CLOSE_MS),
      },
    });
    const pid = worker.pid;
    if (!pid) throw new Error("worker did not start");
    // Started: it has read the mainnet cursor once (and opened its streams).
    const deadline = Date.now() + 60_000;
    while (proxies.mainnet.total() === 0 && Date.now() < deadline) await sleep(100);
    await sleep(3000);

    for (const p of Object.values(proxies)) p.reset();
    const cpu0 = cpuTicks(pid);
    const rss0 = rssMb(pid);
    const t0 = Date.now();
    const warmUpMs = Math.min(60_000, (ledgers * CLOSE_MS) / 5);
    let rssWarm = rss0;
    let rssMax = rss0;
    const rssByMinute: number[] = [];
    const backlog: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      for (let s = 1; sampling; s++) {
        await sleep(t0 + s * 1000 - Date.now());
        const [row] =
          await sql`select cursor from watcher_cursors where network = 'mainnet' and source = ${source}`;
        const seen = !row?.cursor
          ? 0
          : rpc
            ? firstUnreadLedger(row.cursor) - 1
            : Number(BigInt(row.cursor) >> 32n);
        backlog.push(mainnet.core.latest().sequence - seen);
        const rss = rssMb(pid);
        rssMax = Math.max(rssMax, rss);
        if (s * 1000 <= warmUpMs) rssWarm = rss;
        if (s % 60 === 0) rssByMinute.push(rss);
      }
    })();

    const closes: { closedAt: number; applyMs: number; invoiceIndex: number }[] = [];
    const submissions: Promise<SubmitResult>[] = [];
    for (let k = 0; k < ledgers; k++) {
      // Transactions arrive mid-interval; the ledger closes on the 5 s beat.
      await sleep(t0 + k * CLOSE_MS + CLOSE_MS / 2 - Date.now());
      for (const env of batches[k].envelopes) submissions.push(mainnet.core.submit(env));
      await sleep(t0 + (k + 1) * CLOSE_MS - Date.now());
      // Lag counts from the moment Horizon serves the ledger: applying 100 signed
      // transactions takes the local ledger a few hundred ms that the network's validators
      // spend before the close, not after.
      const applyStarted = Date.now();
      mainnet.core.closeLedger();
      const closedAt = Date.now();
      closes.push({
        closedAt,
        applyMs: closedAt - applyStarted,
        invoiceIndex: batches[k].match.invoiceIndex,
      });
    }
    const wallMs = Date.now() - t0;
    const requests = { mainnet: proxies.mainnet.counts(), testnet: proxies.testnet.counts() };
    const cpu1 = cpuTicks(pid);
    const rss1 = rssMb(pid);
    sampling = false;
    await sampler;

    const settled = await Promise.all(submissions);
    const failedTx = settled.filter((r) => r.kind !== "applied" || !r.record.successful).length;
    const ids = closes.map((c) => `mainnet${String(c.invoiceIndex).padStart(13, "0")}`);
    const paidWait = Date.now() + 30_000;
    let paid: { id: string; updated_at: Date }[] = [];
    while (Date.now() < paidWait) {
      paid =
        await sql`select id, updated_at from invoices where id in ${sql(ids)} and status = 'PAID'`;
      if (paid.length === ids.length) break;
      await sleep(200);
    }
    const paidAt = new Map(paid.map((r) => [r.id, new Date(r.updated_at).getTime()]));
    const lags = closes.flatMap((c, i) => {
      const at = paidAt.get(ids[i]);
      return at === undefined ? [] : [at - c.closedAt];
    });
    const [{ n: recorded }] = await sql`select count(*)::int as n from payments`;
    const perHour = (counts: Record<string, number>) =>
      Math.round((sum(counts) * 3_600_000) / wallMs);
    const result = {
      mode,
      ledgers,
      opsPerLedger: ops,
      prepS,
      failedTx,
      matched: lags.length,
      recorded,
      lagsMs: lags,
      p50: percentile(lags, 50),
      p95: percentile(lags, 95),
      max: Math.max(...lags),
      backlogMax: Math.max(...backlog),
      backlogOver1: backlog.filter((b) => b > 1).length,
      samples: backlog.length,
      requestsPerHour: perHour(requests.mainnet),
      testnetPerHour: perHour(requests.testnet),
      kinds: Object.fromEntries(
        Object.entries(requests.mainnet)
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => [k, Math.round((v * 3_600_000) / wallMs)]),
      ),
      cpuPct: (((cpu1 - cpu0) / CLK_TCK) * 100_000) / wallMs,
      rss0,
      rssWarm,
      rss1,
      rssMax,
      growthPct: ((rss1 - rssWarm) / rssWarm) * 100,
      rssByMinute,
      // From the end of minute 2, once the heap has grown back to its working size after the
      // collection that follows start-up (the per-minute series shows it).
      growth2Pct:
        rssByMinute.length > 2 ? ((rss1 - rssByMinute[1]) / rssByMinute[1]) * 100 : Number.NaN,
      load: os.loadavg()[0],
      applyP95: percentile(
        closes.map((c) => c.applyMs),
        95,
      ),
    };
    console.log(result);
    return result;
  } finally {
    if (worker && worker.exitCode === null) {
      const exited = new Promise((r) => worker?.once("exit", r));
      worker.kill("SIGTERM");
      await Promise.race([exited, sleep(10_000)]);
      if (worker.exitCode === null) worker.kill("SIGKILL");
    }
    await Promise.all([
      sql.end(),
      ...Object.values(proxies).map((p) => p.stop()),
      mainnet.stop(),
      testnet.stop(),
      prices.stop(),
    ]);
    await db.drop();
  }
}

function cpuTicks(pid: number): number {
  // Fields after the command name: state is field 3, utime 14 and stime 15.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

const results: RunResult[] = [];
for (const mode of MODES) results.push(await run(mode));

const ms = (n: number) => `${Math.round(n)} ms`;
const ok = (pass: boolean) => (pass ? "" : " ✗");
const pct = (p: number) => `${p >= 0 ? "+" : ""}${p.toFixed(1)} %`;
const rows = results.map((r) => {
  // The lag targets are for a Horizon answering at its usual speed.
  const lagTarget = { stream: 1000, poll: 6000, slow: Number.POSITIVE_INFINITY, rpc: 1000 }[r.mode];
  return `| ${MODE_LABEL[r.mode]} | ${ms(r.p50)} | ${ms(r.p95)}${ok(r.p95 <= lagTarget)} | ${ms(r.max)} | ${r.matched}/${r.ledgers} (${r.recorded} recorded) | ${r.backlogMax}${ok(r.backlogMax <= 1)} | ${r.requestsPerHour.toLocaleString("en")}${ok(r.requestsPerHour <= 3600)} | ${r.cpuPct.toFixed(1)} % | ${r.rssWarm.toFixed(0)} → ${r.rss1.toFixed(0)} MB (${pct(r.growthPct)}); from minute 2: ${pct(r.growth2Pct)}${ok(r.growth2Pct <= 10)} |`;
});
const kinds = results.map(
  (r) =>
    `| ${MODE_LABEL[r.mode]} | ${Object.entries(r.kinds)
      .map(([k, v]) => `${k}: ${v.toLocaleString("en")}`)
      .join(", ")} | ${r.testnetPerHour.toLocaleString("en")} |`,
);
const first = results[0];
// A shorter run than the 10-minute one writes its own section, labelled as such, and leaves
// the full run's figures in place.
const short = MINUTES < 10;
// A full run of some of the modes (MAINNET_MODES) writes its own section too: the full run
// of every mode stays beside it.
const ALL_MODES: Mode[] = ["stream", "poll", "slow", "rpc"];
const some = ALL_MODES.some((m) => !MODES.includes(m));
const title = short
  ? `Mainnet-scale watcher: short run (${MINUTES} min)`
  : some
    ? `Mainnet-scale watcher: ${MODES.join(" and ")}`
    : "Mainnet-scale watcher";
writeSection(
  title,
  `
${
  short
    ? `**A short run (MAINNET_MINUTES=${MINUTES}), not the 10-minute one: fewer samples, and the RSS growth target is read from minute 2, which a run this short may not reach.**

`
    : ""
}${MINUTES} minutes per run: the local ledger closes a ledger every 5 s with ${first.opsPerLedger.toLocaleString("en")} operations in ${SHAPE.txPerLedger} transactions
(payments in XLM and USDC 45 %, path payments 10 %, create_account 5 %, change_trust 15 %,
manage_data 15 %, set_options 10 %; sources rotating among ${SHAPE.sources.toLocaleString("en")} accounts; 10 % of transactions carry
invoice-like text memos that pay no freelancer, 20 % id memos), plus one payment of an open
invoice's amount with its number as memo to its wallet; 10,000 open invoices on 1,000 wallets in
PostgreSQL. The worker is \`scripts/worker.ts\` in its own process (WATCHER_INTERVAL_MS=5000);
every request it makes to the mainnet Horizon (or, in the RPC run, to its Stellar RPC) is counted by a proxy in front of the ledger.
Detection lag: the ledger's close (once applied and served; the local ledger's apply p95
${ms(first.applyP95)} is not counted) to the invoice's \`updated_at\` (PAID, the recorder's clock). Backlog: ledgers between the ledger's
latest and the watcher's cursor, sampled every second. CPU: the worker process's user + system
time over the run (% of one core, /proc). RSS: after ${Math.min(60, first.ledgers)} s of warm-up → at the end, and the growth
from the end of minute 2, once the heap has grown back to its working size after the collection
that follows start-up (the target is read there; the series per minute is below the table).

| run | detection p50 | p95 | max | invoices paid | backlog max | Horizon or RPC requests / hour | worker CPU | worker RSS |
|---|---|---|---|---|---|---|---|---|
| target | | ≤ 1 s streaming, ≤ 6 s polling | | all, once | ≤ 1 | ≤ 3,600 | | growth ≤ 10 % |
${rows.join("\n")}

Worker RSS at the end of each minute (MB):
${results.map((r) => `${MODE_LABEL[r.mode]}: ${r.rssByMinute.map((v) => v.toFixed(0)).join(", ")}`).join("; ")}.

Mainnet requests per hour by kind (Horizon's by path, RPC's by method; and the idle testnet
Horizon's total, a separate server with its own limit):

| run | mainnet requests / hour | testnet / hour |
|---|---|---|
${kinds.join("\n")}

The watcher reads every payment of the network (\`/payments\`, 200 a page): one pass a ledger
costs ceil((payments in the ledger + 1) / 200) requests, 4 at this mix (~600 payments a
ledger, 2,880 an hour), and the ledger stream about 4 an hour. Public Horizon's 3,600 an hour
hold up to ~800 payments a ledger with one pass a ledger; past that, the watcher needs a
Horizon of its own (no request limit).
The RPC source reads every \`transfer\` and \`mint\` event of the three asset contracts
(\`getEvents\`, up to 2,000 a page: one request a ledger at this volume), reads a matching
transaction whole (\`getTransaction\`, one per invoice paid), and wakes on new ledgers by
polling \`getLatestLedger\` on the ledgers' beat (docs/decisions.md, Background jobs). Its
count includes the start, polled every 500 ms until a ledger shows (about 10 polls, counted
whole in a short run), and about two polls a ledger after.
Background transactions the ledger did not apply: ${results.map((r) => r.failedTx).join(", ")}.
Load average (1 min) at the end of each run: ${results.map((r) => r.load.toFixed(1)).join(", ")} on ${os.cpus().length} cores.
`,
);
process.exit(0);
