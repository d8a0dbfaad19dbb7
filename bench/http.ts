/**
 * HTTP benchmark (issue: benchmarks): public status polling and the public invoice view at 64
 * connections against `next start` (server.ts) on real PostgreSQL, side by side with a bare
 * node:http + postgres server answering the same query; with and without the rate-limit
 * write; authenticated creation and listing with 100,000 invoices in the table, with query
 * plans; resident memory of the app and the worker afterwards.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import postgres from "postgres";
import { invoiceBody } from "../tests/helpers/api";
import { freePort, type RunningApp, startApp } from "../tests/helpers/app";
import { signIn } from "../tests/helpers/auth";
import { createTestDatabase } from "../tests/helpers/postgres";
import { Keypair } from "../tests/helpers/stellar";
import { percentile, writeSection } from "./results-file";

const ROOT = path.resolve(import.meta.dirname, "..");
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 64;
/** BENCH_QUICK=1: status polling rows only (minimal handler, app with and without the limit). */
const QUICK = process.env.BENCH_QUICK === "1";

class QuickDone extends Error {}

type Load = { rps: number; p50: number; p99: number; non2xx: number };

async function load(
  url: string,
  paths: string[],
  headers: Record<string, string> = {},
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
          return { ...req, path: paths[i] };
        },
      },
    ],
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
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

/**
 * The minimal Next.js app of bench/minimal-app, built and started (`next start`) in a folder
 * of its own outside this project, so Next.js does not pick up this project's files (its
 * instrumentation hook, say). Built with webpack: Turbopack refuses a node_modules symlinked
 * from outside its root.
 */
async function startMinimal(
  dbUrl: string,
): Promise<{ url: string; child: ChildProcess; dir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "minimal-next-"));
  fs.cpSync(path.join(ROOT, "bench", "minimal-app"), dir, { recursive: true });
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  const next = path.join(ROOT, "node_modules/next/dist/bin/next");
  execFileSync(process.execPath, [next, "build", "--webpack"], {
    cwd: dir,
    stdio: "ignore",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  const port = await freePort();
  const child = spawn(process.execPath, [next, "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: dbUrl,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: "ignore",
  });
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

async function seed(sql: postgres.Sql, wallet: string) {
  // 100,000 invoices: 1,000 of the benchmark wallet, the rest spread over 99 others.
  const others = Array.from({ length: 99 }, () => Keypair.random().publicKey());
  const now = Date.now();
  const batch = 2000;
  for (let start = 0; start < 100_000; start += batch) {
    const rows = [];
    for (let i = start; i < start + batch; i++) {
      const mine = i % 100 === 0;
      const created = new Date(now - i * 1000);
      rows.push({
        id: `s${String(i).padStart(23, "0")}`,
        invoice_number: `INV-S${i}`,
        status: ["DRAFT", "PENDING", "PAID", "EXPIRED"][i % 4],
        freelancer_wallet: mine ? wallet : others[i % 99],
        client_name: `Client ${i % 500}`,
        client_email: `client${i % 500}@example.com`,
        title: "Seeded",
        subtotal: "100.0000000",
        total: "110.0000000",
        tax_rate: "10.00",
        tax_amount: "10.0000000",
        currency: ["XLM", "USDC", "EURC"][i % 3],
        network_passphrase: "Test SDF Network ; September 2015",
        due_date: i % 5 ? new Date(now + (i % 60) * 86_400_000) : null,
        created_at: created,
        updated_at: created,
      });
    }
    await sql`insert into invoices ${sql(rows)}`;
  }
  const mine = await sql`select id from invoices where freelancer_wallet = ${wallet}`;
  const items = mine.flatMap((r) => [
    {
      id: `${r.id}a`,
      invoice_id: r.id,
      position: 0,
      description: "Design",
      quantity: "1.00",
      rate: "60.0000000",
      amount: "60.0000000",
    },
    {
      id: `${r.id}b`,
      invoice_id: r.id,
      position: 1,
      description: "Build",
      quantity: "2.00",
      rate: "20.0000000",
      amount: "40.0000000",
    },
  ]);
  for (let i = 0; i < items.length; i += 1000)
    await sql`insert into invoice_line_items ${sql(items.slice(i, i + 1000))}`;
  await sql`analyze`;
  return mine.map((r) => r.id as string);
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
  const ids = await seed(sql, kp.publicKey());
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
    [limited.url, viewPaths],
    [unlimited.url, viewPaths],
  ] as const) {
    await autocannon({ url: u, connections: 8, duration: 2, requests: [{ path: p[0] }] });
  }
  console.log("status polling…");
  const bareStatus = await load(bare.url, barePaths);
  const minimalStatus = await load(minimal.url, minimalPaths);
  const statusOn = await load(limited.url, statusPaths);
  const statusOff = await load(unlimited.url, statusPaths);
  if (QUICK) {
    const viewOn = await load(limited.url, viewPaths);
    const viewOff = await load(unlimited.url, viewPaths);
    console.table({
      minimal: minimalStatus,
      on: statusOn,
      off: statusOff,
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
  const create = await sequential(300, () =>
    fetch(`${limited.url}/api/invoices`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify(invoiceBody()),
    }),
  );
  const listLoad = await load(limited.url, ["/api/invoices?limit=50"], auth);

  const plan = async (q: postgres.PendingQuery<postgres.Row[]>) =>
    (await q).map((r) => r["QUERY PLAN"]).join("\n");
  const listPlan = await plan(
    sql`explain analyze select * from invoices where freelancer_wallet = ${kp.publicKey()} and deleted_at is null and kind = 'INVOICE' order by created_at desc, id desc limit 50`,
  );
  const countPlan = await plan(
    sql`explain analyze select count(*) from invoices where freelancer_wallet = ${kp.publicKey()} and deleted_at is null and kind = 'INVOICE'`,
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
  const memory = {
    app: treeRssMb(limited.pid),
    appUnlimited: treeRssMb(unlimited.pid),
    worker: treeRssMb(worker.pid as number),
  };

  const ratio = (a: number) => (a / bareStatus.rps).toFixed(2);
  const vsMinimal = (a: number) => (a / minimalStatus.rps).toFixed(2);
  const table = `
Load: autocannon, ${CONNECTIONS} connections, ${DURATION} s per row, ids rotating over 1,000 invoices; the
app is \`server.ts\` (Next.js ${JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules/next/package.json"), "utf8")).version}, production build) on PostgreSQL 15 with 100,000 invoices;
all on the same 2-core machine as the load generator.

| endpoint | server | req/s | p50 | p99 | × bare | × minimal | non-2xx |
|---|---|---|---|---|---|---|---|
| status | bare node:http + postgres (ceiling) | ${bareStatus.rps} | ${bareStatus.p50} ms | ${bareStatus.p99} ms | 1.00 | ${vsMinimal(bareStatus.rps)} | ${bareStatus.non2xx} |
| status | minimal Next.js route handler, same query (bench/minimal-app) | ${minimalStatus.rps} | ${minimalStatus.p50} ms | ${minimalStatus.p99} ms | ${ratio(minimalStatus.rps)} | 1.00 | ${minimalStatus.non2xx} |
| \`GET /api/payments/:id/status\` | app, rate limit on (counted in PostgreSQL, batched upserts) | ${statusOn.rps} | ${statusOn.p50} ms | ${statusOn.p99} ms | ${ratio(statusOn.rps)} | ${vsMinimal(statusOn.rps)} | ${statusOn.non2xx} |
| \`GET /api/payments/:id/status\` | app, rate limit off | ${statusOff.rps} | ${statusOff.p50} ms | ${statusOff.p99} ms | ${ratio(statusOff.rps)} | ${vsMinimal(statusOff.rps)} | ${statusOff.non2xx} |
| \`GET /api/invoices/:id\` (public view) | app, rate limit on | ${viewOn.rps} | ${viewOn.p50} ms | ${viewOn.p99} ms | ${ratio(viewOn.rps)} | ${vsMinimal(viewOn.rps)} | ${viewOn.non2xx} |
| \`GET /api/invoices/:id\` (public view) | app, rate limit off | ${viewOff.rps} | ${viewOff.p50} ms | ${viewOff.p99} ms | ${ratio(viewOff.rps)} | ${vsMinimal(viewOff.rps)} | ${viewOff.non2xx} |
| \`GET /api/invoices?limit=50\` (Bearer) | app, rate limit on | ${listLoad.rps} | ${listLoad.p50} ms | ${listLoad.p99} ms | ${ratio(listLoad.rps)} | ${vsMinimal(listLoad.rps)} | ${listLoad.non2xx} |

Authenticated calls one at a time (latency seen by a client on the same machine), wallet with
1,000 of the 100,000 invoices:

| call | p50 | p99 |
|---|---|---|
| \`GET /api/invoices?limit=50\` | ${list.p50.toFixed(1)} ms | ${list.p99.toFixed(1)} ms |
| \`GET /api/invoices?limit=50&status=PAID&currency=USDC&sort=total:desc\` | ${listFiltered.p50.toFixed(1)} ms | ${listFiltered.p99.toFixed(1)} ms |
| \`GET /api/invoices?limit=50&offset=900\` | ${listDeep.p50.toFixed(1)} ms | ${listDeep.p99.toFixed(1)} ms |
| \`POST /api/invoices\` (2 line items) | ${create.p50.toFixed(1)} ms | ${create.p99.toFixed(1)} ms |

Resident memory after the runs: app (rate limit on) ${memory.app} MB, app (rate limit off)
${memory.appUnlimited} MB, worker ${memory.worker} MB.

Query plans (EXPLAIN ANALYZE, 100,000 rows):

\`\`\`
-- list, default sort
${listPlan}

-- list total
${countPlan}

-- list, filtered and sorted by total
${filteredPlan}

-- status lookup
${statusPlan}

-- public view: the invoice and its line items in one query
${viewPlan}
\`\`\`
`;
  console.log(table);
  writeSection("HTTP", table);
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
