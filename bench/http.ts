/**
 * HTTP benchmark (issue: benchmarks): public status polling (also with `If-None-Match`, 304s
 * counting as answers) and the public invoice view at 64 connections against `next start`
 * (server.ts) on real PostgreSQL, side by side with a bare node:http + postgres server and a
 * minimal Next.js app answering the same query; with and without the rate-limit write; the
 * authenticated list at 64 connections (one wallet, 1,000 of the 100,000 invoices), then
 * calls one at a time and creation, with query plans; resident memory of the app, the
 * minimal app and the worker afterwards. Each ratio is printed beside its target (issue 18).
 * BENCH_QUICK=1: the status and view rows only; BENCH_WRITE=0: leave bench/results.md alone.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import postgres from "postgres";
import { invoiceBody } from "../tests/helpers/api";
import { freePort, type RunningApp, startApp } from "../tests/helpers/app";
import { signIn } from "../tests/helpers/auth";
import { createTestDatabase } from "../tests/helpers/postgres";
import { Keypair } from "../tests/helpers/stellar";
import { buildMinimal, spawnMinimal } from "./minimal";
import { percentile, writeSection } from "./results-file";
import { seedInvoices } from "./seed";

const ROOT = path.resolve(import.meta.dirname, "..");
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 64;
/** BENCH_QUICK=1: status polling rows only (minimal handler, app with and without the limit). */
const QUICK = process.env.BENCH_QUICK === "1";

class QuickDone extends Error {}

/** `failed`: answers other than 2xx and 304, and socket errors or timeouts. */
type Load = { rps: number; p50: number; p99: number; failed: number; notModified: number };

/**
 * 64 connections for DURATION seconds over `paths` in turn; `perPath` adds headers to the
 * requests of one path (an `If-None-Match`, say).
 */
async function load(
  url: string,
  paths: string[],
  headers: Record<string, string> = {},
  perPath: (path: string) => Record<string, string> = () => ({}),
): Promise<Load> {
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
          return { ...req, path: paths[i], headers: { ...req.headers, ...perPath(paths[i]) } };
        },
      },
    ],
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx - result["3xx"] + result.errors,
    notModified: result["3xx"],
  };
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** Resident memory of a process and its children (server.ts runs Next in-process). */
function treeRssMb(pid: number): number {
  let total = rssMb(pid);
  try {
    const children = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    for (const c of children) total += treeRssMb(Number(c));
  } catch {
    // no children
  }
  return total;
}

async function startBare(dbUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "bench/bare-server.ts"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: dbUrl, PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve) => child.stdout?.once("data", () => resolve()));
  return { url: `http://127.0.0.1:${port}`, child };
}

/** The minimal Next.js app (bench/minimal.ts), built and started, ready to answer. */
async function startMinimal(
  dbUrl: string,
): Promise<{ url: string; child: ChildProcess; dir: string }> {
  const dir = buildMinimal();
  const port = await freePort();
  const child = spawnMinimal(dir, dbUrl, port);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(`${url}/api/status/none`).then(
      (r) => r.status === 404,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, child, dir };
}

async function sequential(n: number, fn: () => Promise<Response>) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fn();
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`status ${res.status}`);
    times.push(performance.now() - t);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

const db = await createTestDatabase();
const sql = postgres(db.url, { max: 4, onnotice: () => {} });
const apps: RunningApp[] = [];
let bare: { url: string; child: ChildProcess } | undefined;
let minimal: { url: string; child: ChildProcess; dir: string } | undefined;
let worker: ChildProcess | undefined;
try {
  const common = {
    DATABASE_URL: db.url,
    RATE_LIMIT_GLOBAL_PER_MINUTE: "1000000000",
    RATE_LIMIT_INVOICES_PER_HOUR: "1000000000",
    LOG_LEVEL: "error",
  };
  const limited = await startApp(common);
  apps.push(limited);
  const kp = Keypair.random();
  const { token } = await signIn(limited.url, kp);
  console.log("seeding 100,000 invoices…");
  const ids = await seedInvoices(sql, kp.publicKey());
  const unlimited = await startApp({ ...common, RATE_LIMITS: "off" });
  apps.push(unlimited);
  bare = await startBare(db.url);
  minimal = await startMinimal(db.url);

  const statusPaths = ids.map((id) => `/api/payments/${id}/status`);
  const viewPaths = ids.map((id) => `/api/invoices/${id}`);
  const barePaths = ids.map((id) => `/status/${id}`);
  const minimalPaths = ids.map((id) => `/api/status/${id}`);
  // Warm up every server (JIT, connection pools, Next's route compilation cache).
  for (const [u, p] of [
    [limited.url, statusPaths],
    [unlimited.url, statusPaths],
    [bare.url, barePaths],
    [minimal.url, minimalPaths],
    [limited.url, viewPaths],
    [unlimited.url, viewPaths],
  ] as const) {
    await autocannon({ url: u, connections: 8, duration: 2, requests: [{ path: p[0] }] });
  }
  console.log("status polling…");
  const bareStatus = await load(bare.url, barePaths);
  const minimalStatus = await load(minimal.url, minimalPaths);
  // Resident memory right after each server's own load (the minimal app's is its only one).
  const minimalRight = treeRssMb(minimal.child.pid as number);
  const minimalIdleSince = Date.now();
  const statusOn = await load(limited.url, statusPaths);
  const statusOff = await load(unlimited.url, statusPaths);
  // Polling with the ETag of a first answer (none if the endpoint sends none: then these
  // are plain 200s and the row says so, 0 answered 304).
  const etags = new Map<string, string>();
  for (const p of statusPaths) {
    const res = await fetch(limited.url + p);
    await res.arrayBuffer();
    const etag = res.headers.get("etag");
    if (etag) etags.set(p, etag);
  }
  const ifNoneMatch = (p: string): Record<string, string> => {
    const etag = etags.get(p);
    return etag ? { "if-none-match": etag } : {};
  };
  const statusEtag = await load(limited.url, statusPaths, {}, ifNoneMatch);
  if (QUICK) {
    const viewOn = await load(limited.url, viewPaths);
    const viewOff = await load(unlimited.url, viewPaths);
    console.table({
      minimal: minimalStatus,
      on: statusOn,
      off: statusOff,
      ifNoneMatch: statusEtag,
      viewOn,
      viewOff,
      bare: bareStatus,
    });
    process.exitCode = 0;
    throw new QuickDone();
  }
  console.log("public view…");
  const viewOn = await load(limited.url, viewPaths);
  const viewOff = await load(unlimited.url, viewPaths);

  console.log("authenticated list and create…");
  const auth = { authorization: `Bearer ${token}` };
  await sequential(20, () => fetch(`${limited.url}/api/invoices?limit=50`, { headers: auth }));
  const list = await sequential(300, () =>
    fetch(`${limited.url}/api/invoices?limit=50`, { headers: auth }),
  );
  const listFiltered = await sequential(300, () =>
    fetch(`${limited.url}/api/invoices?limit=50&status=PAID&currency=USDC&sort=total:desc`, {
      headers: auth,
    }),
  );
  const listDeep = await sequential(100, () =>
    fetch(`${limited.url}/api/invoices?limit=50&offset=900`, { headers: auth }),
  );
  // The same page by cursor: the 900th invoice of the default order (newest first).
  const cursor = [...ids].sort()[899];
  const listKeyset = await sequential(100, () =>
    fetch(`${limited.url}/api/invoices?limit=50&starting_after=${cursor}`, { headers: auth }),
  );
  // Under load while the wallet holds exactly 1,000 of the 100,000 (before the creates).
  const listLoad = await load(limited.url, ["/api/invoices?limit=50"], auth);
  const create = await sequential(300, () =>
    fetch(`${limited.url}/api/invoices`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify(invoiceBody()),
    }),
  );

  const appRight = treeRssMb(limited.pid);
  const appIdleSince = Date.now();
  // The minimal app, idle as long now as the app will be when it is sampled "settled" below.
  const minimalIdle = {
    rss: treeRssMb(minimal.child.pid as number),
    ms: appIdleSince - minimalIdleSince,
  };

  const plan = async (q: postgres.PendingQuery<postgres.Row[]>) =>
    (await q).map((r) => r["QUERY PLAN"]).join("\n");
  const listPlan = await plan(
    sql`explain analyze select id, invoice_number, status, title, client_name, subtotal, total, amount_paid, currency, network_passphrase, due_date, created_at,
      (select count(*) from invoices where freelancer_wallet = ${kp.publicKey()} and deleted_at is null and kind = 'INVOICE')
      from invoices where freelancer_wallet = ${kp.publicKey()} and deleted_at is null and kind = 'INVOICE' order by created_at desc, id desc limit 50`,
  );
  const filteredPlan = await plan(
    sql`explain analyze select * from invoices where freelancer_wallet = ${kp.publicKey()} and deleted_at is null and kind = 'INVOICE' and status = 'PAID' and currency = 'USDC' order by total desc, id desc limit 50`,
  );
  const statusPlan = await plan(
    sql`explain analyze select * from invoices where id = ${ids[0]} and deleted_at is null limit 1`,
  );
  const viewPlan = await plan(
    sql`explain analyze select * from invoices left join invoice_line_items on invoice_line_items.invoice_id = invoices.id where invoices.id = ${ids[0]} and invoices.deleted_at is null order by invoice_line_items.position`,
  );

  // The worker on the same database (Horizon unreachable here: it polls, fails, backs off).
  worker = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...common,
      JWT_SECRET: "x".repeat(40),
      HORIZON_TESTNET_URL: "http://127.0.0.1:9",
      HORIZON_MAINNET_URL: "http://127.0.0.1:9",
      WATCHER_STREAM: "off",
    },
    stdio: "ignore",
  });
  await new Promise((r) => setTimeout(r, 8000));
  const sample = () => ({
    app: treeRssMb(limited.pid),
    appUnlimited: treeRssMb(unlimited.pid),
    worker: treeRssMb(worker?.pid as number),
  });
  const memory = sample();
  // Like with like: the minimal app was sampled above after minimalIdle.ms without a request;
  // the app is sampled again once it has been idle as long (V8 gives memory back only at a
  // collection some time after a load ends; each process's own heuristics decide when).
  await new Promise((r) => setTimeout(r, Math.max(0, appIdleSince + minimalIdle.ms - Date.now())));
  const settled = { ...sample(), seconds: Math.round(minimalIdle.ms / 1000) };

  const ratio = (a: number) => (a / bareStatus.rps).toFixed(2);
  const vsMinimal = (a: number) => (a / minimalStatus.rps).toFixed(2);
  /** A target of the issue beside its figure: ✓ met, ✗ not. */
  const target = (ok: boolean, text: string) => `${ok ? "✓" : "✗"} ${text}`;
  const atLeast = (l: Load, x: number) => target(l.rps >= x * minimalStatus.rps, `≥ ${x}x minimal`);
  const row = (endpoint: string, server: string, l: Load, goal = "") =>
    `| ${endpoint} | ${server} | ${l.rps} | ${l.p50} ms | ${l.p99} ms | ${ratio(l.rps)} | ${vsMinimal(l.rps)} | ${goal} | ${l.failed} |`;
  const status = "`GET /api/payments/:id/status`";
  const view = "`GET /api/invoices/:id` (public view)";
  const rssRatio = settled.app / minimalIdle.rss;
  const x = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
  const table = `
Load: autocannon, ${CONNECTIONS} connections, ${DURATION} s per row, ids rotating over 1,000 invoices; the
app is \`server.ts\` (Next.js ${JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules/next/package.json"), "utf8")).version}, production build) on PostgreSQL 15 with 100,000 invoices;
all on the same 2-core machine as the load generator. Targets are the issue's (issue 18); failed
counts answers other than 2xx and 304.

| endpoint | server | req/s | p50 | p99 | × bare | × minimal | target | failed |
|---|---|---|---|---|---|---|---|---|
${row("status", "bare node:http + postgres (ceiling)", bareStatus)}
${row("status", "minimal Next.js route handler, same query (bench/minimal-app)", minimalStatus)}
${row(status, "app, rate limit on (counted in PostgreSQL, batched upserts)", statusOn, `${atLeast(statusOn, 1.5)}; ${target(statusOn.p99 <= 100, "p99 ≤ 100 ms")}`)}
${row(status, "app, rate limit off", statusOff)}
${row(`${status} with \`If-None-Match\` (${statusEtag.notModified} answered 304)`, "app, rate limit on", statusEtag, atLeast(statusEtag, 2))}
${row(view, "app, rate limit on", viewOn, atLeast(viewOn, 1))}
${row(view, "app, rate limit off", viewOff)}
${row("`GET /api/invoices?limit=50` (Bearer), one wallet, 1,000 of 100,000 invoices", "app, rate limit on", listLoad, atLeast(listLoad, 0.5))}

Authenticated calls one at a time (latency seen by a client on the same machine), wallet with
1,000 of the 100,000 invoices:

| call | p50 | p99 |
|---|---|---|
| \`GET /api/invoices?limit=50\` | ${list.p50.toFixed(1)} ms | ${list.p99.toFixed(1)} ms |
| \`GET /api/invoices?limit=50&status=PAID&currency=USDC&sort=total:desc\` | ${listFiltered.p50.toFixed(1)} ms | ${listFiltered.p99.toFixed(1)} ms |
| \`GET /api/invoices?limit=50&offset=900\` | ${listDeep.p50.toFixed(1)} ms | ${listDeep.p99.toFixed(1)} ms |
| \`GET /api/invoices?limit=50&starting_after=<900th>\` (the same page by cursor) | ${listKeyset.p50.toFixed(1)} ms | ${listKeyset.p99.toFixed(1)} ms |
| \`POST /api/invoices\` (2 line items) | ${create.p50.toFixed(1)} ms | ${create.p99.toFixed(1)} ms |

Resident memory after the runs (MB, VmRSS of each server's process tree). The app (rate limit
on) served every row above; the one with the limit off served the status and view rows only.
A process keeps what its last load used until a later collection gives it back, so each server
is compared at the same time after its own last load: right after it, and once each has been
idle as long (the minimal app's load came first); the target is read on the second.

| when | app | minimal Next.js app | app ÷ minimal |
|---|---|---|---|
| right after each one's last load | ${appRight} | ${minimalRight} | ${x(appRight, minimalRight)} |
| each idle ${settled.seconds} s since its last request | ${settled.app} | ${minimalIdle.rss} | ${x(settled.app, minimalIdle.rss)} (${target(rssRatio <= 1.3, "≤ 1.3x minimal")}) |

Also: about 10 s after the app's last request, app ${memory.app} MB; app with the limit off
${memory.appUnlimited} MB and the worker ${memory.worker} MB then, ${settled.appUnlimited} and
${settled.worker} MB at the end.

Query plans (EXPLAIN ANALYZE, 100,000 rows):

\`\`\`
-- list, default sort, with its total (one statement)
${listPlan}

-- list, filtered and sorted by total
${filteredPlan}

-- status lookup
${statusPlan}

-- public view: the invoice and its line items in one query
${viewPlan}
\`\`\`
`;
  console.log(table);
  // BENCH_WRITE=0: print only (a trial run leaves bench/results.md alone).
  if (process.env.BENCH_WRITE !== "0") writeSection("HTTP", table);
} catch (err) {
  if (!(err instanceof QuickDone)) throw err;
} finally {
  worker?.kill("SIGTERM");
  bare?.child.kill("SIGTERM");
  minimal?.child.kill("SIGTERM");
  if (minimal) fs.rmSync(minimal.dir, { recursive: true, force: true });
  for (const a of apps) await a.stop();
  await sql.end();
  await db.drop();
}
process.exit(0);
