/**
 * Scale benchmark (issue 33): the same rows on two sizes of books in one run, 100,000 and
 * 1,000,000 invoices (BENCH_SCALE=small: 10,000 and 100,000, for iterating), each loaded with
 * COPY (bench/scale-data.ts) into its own database behind the built server (dist/server.mjs,
 * rate limits off). The big freelancer holds a tenth of each (10,000 and 100,000 invoices).
 * Rows, one request at a time (p50/p99 over BENCH_SCALE_REQUESTS) and at 64 connections
 * (BENCH_SECONDS each): list pages, search, statistics, owner and public views, status; then a
 * CSV export of the big freelancer (rows/s, the server's peak resident memory growth) and a
 * watcher tick over the open (PENDING) invoices, a tenth of each size, on a local ledger.
 * Prints both sizes, the ratio (flagged above 1.5x) and the issue's targets; writes the
 * "Scale" part of bench/results.md's "Scale and cold start" (BENCH_WRITE=0: print only).
 */
import fs from "node:fs";
import autocannon from "autocannon";
import postgres from "postgres";
import { openDatabase } from "../db/client";
import { parseConfig } from "../lib/config";
import { watcherTick } from "../lib/jobs/watcher";
import { logger } from "../lib/logger";
import { type RunningApp, startApp } from "../tests/helpers/app";
import { signIn } from "../tests/helpers/auth";
import { createTestDatabase } from "../tests/helpers/postgres";
import {
  Asset,
  type Chain,
  chainEnv,
  funded,
  MAINNET,
  Memo,
  pay,
  startChain,
  TESTNET,
} from "../tests/helpers/stellar";
import { percentile, writeSubsection } from "./results-file";
import { generateBooks } from "./scale-data";

const SMALL = process.env.BENCH_SCALE === "small";
/** BENCH_SCALE_SIZES=2000,4000: any two sizes (a smoke run). */
const SIZES = process.env.BENCH_SCALE_SIZES
  ? process.env.BENCH_SCALE_SIZES.split(",").map(Number)
  : SMALL
    ? [10_000, 100_000]
    : [100_000, 1_000_000];
const DURATION = Number(process.env.BENCH_SECONDS ?? (SMALL ? 5 : 10));
/**
 * Requests per row one at a time. A p99 of 200 is the second slowest request, one pause of the
 * machine's away from another figure (runs of the same code gave a row 1.30x and 1.61x):
 * 1,000 in the full run, so the p99 is the tenth slowest.
 */
const REQUESTS = Number(process.env.BENCH_SCALE_REQUESTS ?? (SMALL ? 200 : 1000));
const CONNECTIONS = 64;
/** The deep page: the same offset at both sizes, inside the smaller big freelancer's books. */
const DEEP = Math.min(5000, SIZES[0] / 20);
const SEARCH = "acm";

type Seq = { p50: number; p99: number };
type Load = { rps: number; p99: number; failed: number };
type RowResult = { seq: Seq; load?: Load; na?: string };
type SizeResult = {
  n: number;
  books: Awaited<ReturnType<typeof generateBooks>>;
  loadSeconds: number;
  rows: Map<string, RowResult>;
  exportRun: { rows: number; rowsPerSecond: number; rssGrowthMb: number; firstByteMs: number };
  tick: { ms: number[]; open: number; records: number; matched: number };
};

const ROWS = [
  "list, first page",
  `list, deep page by offset (${DEEP.toLocaleString("en")})`,
  "list, the same page by cursor (`starting_after`)",
  "list, filtered and sorted (PAID, USDC, total desc)",
  `search (\`q=${SEARCH}\`)`,
  "statistics",
  "owner view",
  "public view",
  "status",
] as const;

async function sequential(
  paths: string[],
  headers: Record<string, string>,
  n = REQUESTS,
): Promise<Seq> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetch(paths[i % paths.length], { headers });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${paths[i % paths.length]}: status ${res.status}`);
    times.push(performance.now() - t);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function load(url: string, paths: string[], headers: Record<string, string>): Promise<Load> {
  let i = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    headers,
    requests: [
      {
        setupRequest: (req) => {
          i = (i + 1) % paths.length;
          return { ...req, path: paths[i] };
        },
      },
    ],
  });
  return {
    rps: Math.round(result.requests.average),
    p99: result.latency.p99,
    failed: result.non2xx + result.errors,
  };
}

const kb = (pid: number, field: string) =>
  Number(
    new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ??
      0,
  );

/**
 * The big freelancer's whole invoice export, read as fast as one client can: rows/s and how far
 * the server's resident memory rose above what it held when the export began (its peak,
 * VmHWM, reset first through /proc/<pid>/clear_refs; sampled every 10 ms where that is refused).
 */
async function exportRun(app: RunningApp, token: string, expected: number) {
  const runs: SizeResult["exportRun"][] = [];
  for (let r = 0; r < 2; r++) {
    const before = kb(app.pid, "VmRSS");
    let sampled = before;
    let reset = true;
    try {
      fs.writeFileSync(`/proc/${app.pid}/clear_refs`, "5");
    } catch {
      reset = false;
    }
    const sampler = setInterval(() => {
      sampled = Math.max(sampled, kb(app.pid, "VmRSS"));
    }, 10);
    const t = performance.now();
    const res = await fetch(`${app.url}/api/exports/invoices.csv`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!res.ok) throw new Error(`export: ${res.status} ${await res.text()}`);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let lines = 0;
    let firstByteMs = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!firstByteMs) firstByteMs = performance.now() - t;
      for (const b of value) if (b === 10) lines++;
    }
    const seconds = (performance.now() - t) / 1000;
    clearInterval(sampler);
    const peak = Math.max(sampled, reset ? kb(app.pid, "VmHWM") : 0);
    const rows = lines - 1;
    if (rows !== expected) throw new Error(`export: expected ${expected} rows, got ${rows}`);
    runs.push({
      rows,
      rowsPerSecond: Math.round(rows / seconds),
      rssGrowthMb: Math.round((peak - before) / 1024),
      firstByteMs: Math.round(firstByteMs),
    });
  }
  return runs.reduce((a, b) => (b.rowsPerSecond > a.rowsPerSecond ? b : a));
}

/**
 * Watcher ticks over the books' open invoices: the first one sets the cursor; then 3 times 20
 * payments (to 20 funded freelancers, memo one of their open XLM invoices) and a timed tick.
 */
async function ticks(dbUrl: string, sql: postgres.Sql, wallets: { publicKey(): string }[]) {
  const testnet: Chain = await startChain(TESTNET);
  const mainnet: Chain = await startChain(MAINNET);
  const handle = await openDatabase({ databaseUrl: dbUrl, dataDir: "/nonexistent" });
  try {
    const config = parseConfig({
      JWT_SECRET: "s".repeat(40),
      DATABASE_URL: dbUrl,
      PRICE_SOURCE_URL: "http://127.0.0.1:9/api/v3/simple/price?ids=stellar&vs_currencies=usd",
      PRICE_SOURCE_EUR_URL:
        "http://127.0.0.1:9/api/v3/simple/price?ids=stellar,euro-coin&vs_currencies=eur,usd",
      ...chainEnv(testnet, mainnet),
    });
    const ctx = { db: handle.db, config, now: () => new Date(), logger };
    const paid = wallets.slice(1, 21);
    for (const w of paid) await testnet.server.friendbot(w.publicKey()).call();
    const targets = await sql<{ wallet: string; number: string }[]>`
      select freelancer_wallet as wallet, invoice_number as number from (
        select freelancer_wallet, invoice_number,
          row_number() over (partition by freelancer_wallet order by created_at) as k
        from invoices where freelancer_wallet in ${sql(paid.map((w) => w.publicKey()))}
          and status = 'PENDING' and currency = 'XLM' and deleted_at is null) t
      where k <= 3`;
    const [{ open }] = await sql<{ open: number }[]>`
      select count(*)::int as open from invoices where status = 'PENDING' and deleted_at is null`;
    await watcherTick(ctx, "testnet");
    const payer = await funded(testnet);
    const ms: number[] = [];
    let records = 0;
    let matched = 0;
    for (let round = 0; round < 3; round++) {
      for (const w of paid) {
        const target = targets.filter((t) => t.wallet === w.publicKey())[round];
        const tx = await pay(
          testnet,
          payer,
          w.publicKey(),
          Asset.native(),
          "1",
          Memo.text(target?.number ?? "INV-NONE"),
        );
        await testnet.server.submitTransaction(tx).catch(() => null);
      }
      const t = performance.now();
      const tick = await watcherTick(ctx, "testnet");
      ms.push(performance.now() - t);
      records += tick.records;
      matched += tick.matched;
    }
    return { ms, open, records, matched };
  } finally {
    await Promise.all([handle.close(), testnet.ledger.stop(), mainnet.ledger.stop()]);
  }
}

async function runSize(n: number): Promise<SizeResult> {
  const db = await createTestDatabase();
  const app = await startApp({
    DATABASE_URL: db.url,
    RATE_LIMITS: "off",
    LOG_LEVEL: "error",
  });
  const sql = postgres(db.url, { max: 4, onnotice: () => {} });
  try {
    console.log(`== ${n.toLocaleString("en")} invoices: loading…`);
    const t = performance.now();
    const books = await generateBooks(sql, n, console.log);
    const loadSeconds = (performance.now() - t) / 1000;
    console.log(`   loaded in ${loadSeconds.toFixed(0)} s`, books.seconds);
    const big = books.wallets[0];
    const { token } = await signIn(app.url, big);
    const auth = { authorization: `Bearer ${token}` };
    const ids = (
      await sql`select id from invoices where freelancer_wallet = ${big.publicKey()}
        and status <> 'DRAFT' and deleted_at is null order by random() limit 1000`
    ).map((r) => r.id as string);
    const [{ id: cursor }] = await sql`select id from invoices
      where freelancer_wallet = ${big.publicKey()} and deleted_at is null and kind = 'INVOICE'
      order by created_at desc, id desc offset ${DEEP - 1} limit 1`;
    const u = (p: string) => app.url + p;
    const probe = await fetch(u(`/api/invoices?limit=50&q=${SEARCH}`), { headers: auth });
    await probe.arrayBuffer();
    const paths: Record<(typeof ROWS)[number], string[] | string> = {
      [ROWS[0]]: ["/api/invoices?limit=50"],
      [ROWS[1]]: [`/api/invoices?limit=50&offset=${DEEP}`],
      [ROWS[2]]: [`/api/invoices?limit=50&starting_after=${cursor}`],
      [ROWS[3]]: ["/api/invoices?limit=50&status=PAID&currency=USDC&sort=total:desc"],
      [ROWS[4]]:
        probe.status === 400
          ? "n/a: search not built"
          : probe.ok
            ? [`/api/invoices?limit=50&q=${SEARCH}`]
            : `n/a: search answered ${probe.status}`,
      [ROWS[5]]: ["/api/invoices/stats"],
      [ROWS[6]]: ids.map((id) => `/api/invoices/${id}/owner`),
      [ROWS[7]]: ids.map((id) => `/api/invoices/${id}`),
      [ROWS[8]]: ids.map((id) => `/api/payments/${id}/status`),
    };
    const rows = new Map<string, RowResult>();
    for (const row of ROWS) {
      const p = paths[row];
      if (typeof p === "string") {
        console.log(`   ${row}: ${p}`);
        rows.set(row, { seq: { p50: Number.NaN, p99: Number.NaN }, na: p });
        continue;
      }
      const headers = row === "public view" || row === "status" ? {} : auth;
      await sequential(p.map(u), headers, 20).catch(() => null); // warm-up
      const seq = await sequential(p.map(u), headers);
      const l = await load(app.url, p, headers);
      console.log(
        `   ${row}: p50 ${seq.p50.toFixed(1)} ms, p99 ${seq.p99.toFixed(1)} ms; 64 conns ${l.rps} req/s p99 ${l.p99} ms${l.failed ? `, ${l.failed} failed` : ""}`,
      );
      rows.set(row, { seq, load: l });
    }
    console.log("   export…");
    const exp = await exportRun(app, token, books.bigInvoices);
    console.log("  ", exp);
    console.log("   watcher ticks…");
    const tick = await ticks(db.url, sql, books.wallets);
    console.log("  ", tick);
    return { n, books, loadSeconds, rows, exportRun: exp, tick };
  } finally {
    await sql.end();
    await app.stop();
    await db.drop();
  }
}

const results: SizeResult[] = [];
for (const n of SIZES) results.push(await runSize(n));
const [a, b] = results;

const ms = (x: number) => (Number.isNaN(x) ? "n/a" : `${x < 10 ? x.toFixed(1) : Math.round(x)} ms`);
const ratio = (x: number, y: number) => {
  if (!Number.isFinite(x) || !Number.isFinite(y) || y === 0) return "n/a";
  const r = x / y;
  return `${r.toFixed(2)}x${r > 1.5 ? " ⚠" : ""}`;
};
const check = (ok: boolean, text: string) => `${ok ? "✓" : "✗"} ${text}`;
const k = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);
const lines: string[] = [];
for (const row of ROWS) {
  const ra = a.rows.get(row) as RowResult;
  const rb = b.rows.get(row) as RowResult;
  if (ra.na || rb.na) {
    lines.push(`| ${row} | ${ra.na ?? ""} | | ${rb.na ?? ""} | | | | |`);
    continue;
  }
  const la = ra.load as Load;
  const lb = rb.load as Load;
  let target = "";
  if (row === "statistics") target = check(rb.seq.p99 <= 50, "p99 ≤ 50 ms");
  if (row.startsWith("search")) target = check(rb.seq.p99 <= 50, "p99 ≤ 50 ms");
  const failed = la.failed + lb.failed ? ` (${la.failed + lb.failed} failed)` : "";
  lines.push(
    `| ${row} | ${ms(ra.seq.p50)} / ${ms(ra.seq.p99)} | ${la.rps} / ${la.p99} ms | ${ms(rb.seq.p50)} / ${ms(rb.seq.p99)} | ${lb.rps} / ${lb.p99} ms${failed} | ${ratio(rb.seq.p99, ra.seq.p99)} | ${ratio(lb.p99, la.p99)} | ${target} |`,
  );
}
const ea = a.exportRun;
const eb = b.exportRun;
lines.push(
  `| CSV export of the big freelancer (${k(ea.rows)} / ${k(eb.rows)} rows): rows/s, server RSS growth, first byte | ${ea.rowsPerSecond.toLocaleString("en")} rows/s, +${ea.rssGrowthMb} MB, ${ea.firstByteMs} ms | | ${eb.rowsPerSecond.toLocaleString("en")} rows/s, +${eb.rssGrowthMb} MB, ${eb.firstByteMs} ms | | ${ratio(ea.rowsPerSecond, eb.rowsPerSecond)} (time per row) | | ${check(eb.rowsPerSecond >= 15_000, "≥ 15,000 rows/s")}, ${check(eb.rssGrowthMb <= 100, "≤ 100 MB")}${SMALL ? " (short form: 10k rows, not the target's 100k)" : ""} |`,
);
const median = (xs: number[]) => percentile(xs, 50);
lines.push(
  `| watcher tick, 20 new payments (${a.tick.open.toLocaleString("en")} / ${b.tick.open.toLocaleString("en")} open invoices): median / max of 3 | ${ms(median(a.tick.ms))} / ${ms(Math.max(...a.tick.ms))} | | ${ms(median(b.tick.ms))} / ${ms(Math.max(...b.tick.ms))} | | ${ratio(median(b.tick.ms), median(a.tick.ms))} (median) | | |`,
);
const booksLine = (r: SizeResult) =>
  `${r.n.toLocaleString("en")} invoices (${r.books.lineItems.toLocaleString("en")} line items) over ${r.books.wallets.length.toLocaleString("en")} freelancers, the big one ${r.books.bigInvoices.toLocaleString("en")}; ${r.books.payments.toLocaleString("en")} payments, ${r.books.creditNotes.toLocaleString("en")} credit notes: loaded in ${r.loadSeconds.toFixed(0)} s (COPY ${r.books.seconds.copy.toFixed(0)} s, indexes ${r.books.seconds.indexes.toFixed(0)} s, VACUUM ANALYZE ${r.books.seconds.vacuum.toFixed(0)} s)`;
const table = `
${SMALL ? `**Short form (\`BENCH_SCALE=small\`): ${k(a.n)} and ${k(b.n)} invoices, not the issue's 100k and 1M; the targets are read on the larger size only as an indication.**\n\n` : ""}Books: ${booksLine(a)}; ${booksLine(b)}. Requests are the big freelancer's (Bearer token; the
views and the status over 1,000 of its invoices). One at a time: p50 / p99 over ${REQUESTS} requests;
under load: autocannon, ${CONNECTIONS} connections, ${DURATION} s, req/s / p99. Ratios are ${k(b.n)} ÷ ${k(a.n)} (p99), ⚠ above 1.5x.

| row | ${k(a.n)}: one at a time | ${k(a.n)}: ${CONNECTIONS} conns | ${k(b.n)}: one at a time | ${k(b.n)}: ${CONNECTIONS} conns | ratio, one at a time | ratio, under load | target |
|---|---|---|---|---|---|---|---|
${lines.join("\n")}
`;
console.log(table);
if (process.env.BENCH_WRITE !== "0") writeSubsection("Scale and cold start", "Scale", table);
process.exit(0);
