/**
 * Cold start (issue 33): the production server started as `npm run serve` starts it (node
 * dist/server.mjs over the `next build` output; migrations checked at start; WORKER=off as on a
 * serverless host, and once with the in-process worker `npm start` runs by default) against the
 * minimal Next.js app of bench/minimal-app (`next start`, a route handler and a page doing the
 * same lookup). Each start is a fresh process: from spawn to its "Ready" line, then one
 * request, timed (the first request's latency), then a second one (warm). Time to first answer
 * = spawn to the first answer's last byte. Median of BENCH_STARTS (5) starts per row, starts
 * of the rows interleaved. Writes the "Cold start" part of bench/results.md's "Scale and cold
 * start" (BENCH_WRITE=0: print only).
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { appEnvironment, freePort, SERVER_ARGS, startApp } from "../tests/helpers/app";
import { createTestDatabase } from "../tests/helpers/postgres";
import { buildMinimal, spawnMinimal } from "./minimal";
import { percentile, writeSubsection } from "./results-file";
import { generateBooks } from "./scale-data";

const ROOT = path.resolve(import.meta.dirname, "..");
const STARTS = Number(process.env.BENCH_STARTS ?? 5);

type Start = { ready: number; first: number; toAnswer: number; second: number; rssMb: number };

function waitReady(child: ChildProcess, started: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = "";
    const onData = (d: Buffer) => {
      out += d;
      if (/Ready/.test(out)) {
        child.stdout?.off("data", onData);
        resolve(performance.now() - started);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (d) => {
      out += d;
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code} before ready:\n${out}`)));
  });
}

async function timed(url: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return performance.now() - t;
}

async function oneStart(spawnIt: (port: number) => ChildProcess, pathOf: string): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child = spawnIt(port);
  try {
    const ready = await waitReady(child, started);
    const url = `http://127.0.0.1:${port}${pathOf}`;
    const first = await timed(url);
    const toAnswer = performance.now() - started;
    const second = await timed(url);
    const status = fs.readFileSync(`/proc/${child.pid}/status`, "utf8");
    const rssMb = Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
    return { ready, first, toAnswer, second, rssMb };
  } finally {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 5000).unref();
    });
  }
}

const db = await createTestDatabase();
let minimalDir: string | undefined;
try {
  // Migrated by a first start, then 10,000 invoices (the scale bench's shape).
  const app = await startApp({ DATABASE_URL: db.url });
  await app.stop();
  const sql = postgres(db.url, { max: 2, onnotice: () => {} });
  await generateBooks(sql, 10_000);
  const [{ id }] = await sql`select id from invoices where status = 'PENDING' limit 1`;
  await sql.end();
  console.log("building the minimal app…");
  minimalDir = buildMinimal();
  const dir = minimalDir;

  const spawnApp = (worker: "on" | "off") => (port: number) =>
    spawn(process.execPath, SERVER_ARGS, {
      cwd: ROOT,
      env: appEnvironment(port, { DATABASE_URL: db.url, WORKER: worker, LOG_LEVEL: "error" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
  const spawnMin = (port: number) => {
    const child = spawnMinimal(dir, db.url, port, "pipe");
    return child;
  };
  const rows = [
    {
      name: "minimal Next.js app: route handler `GET /api/status/:id`",
      spawn: spawnMin,
      path: `/api/status/${id}`,
    },
    {
      name: "app (WORKER=off): `GET /api/payments/:id/status`",
      spawn: spawnApp("off"),
      path: `/api/payments/${id}/status`,
    },
    {
      name: "app (WORKER=on, `npm start`'s default): `GET /api/payments/:id/status`",
      spawn: spawnApp("on"),
      path: `/api/payments/${id}/status`,
    },
    { name: "minimal Next.js app: page `/pay/:id`", spawn: spawnMin, path: `/pay/${id}` },
    { name: "app (WORKER=off): page `/pay/:id`", spawn: spawnApp("off"), path: `/pay/${id}` },
  ];
  const starts = rows.map(() => [] as Start[]);
  for (let s = 0; s < STARTS; s++) {
    for (const [i, row] of rows.entries()) {
      const r = await oneStart(row.spawn, row.path);
      starts[i].push(r);
      console.log(
        `${row.name}: ready ${r.ready.toFixed(0)} ms, first ${r.first.toFixed(0)} ms, to answer ${r.toAnswer.toFixed(0)} ms, second ${r.second.toFixed(1)} ms, ${r.rssMb} MB`,
      );
    }
  }
  const med = (xs: Start[], k: keyof Start) =>
    percentile(
      xs.map((x) => x[k]),
      50,
    );
  const f = (x: number) => `${x < 10 ? x.toFixed(1) : Math.round(x)} ms`;
  const toAnswer = rows.map((_, i) => med(starts[i], "toAnswer"));
  const vs = (i: number, ref: number) => `${(toAnswer[i] / toAnswer[ref]).toFixed(2)}x`;
  const target = (i: number, ref: number) =>
    `${toAnswer[i] <= 1.2 * toAnswer[ref] ? "✓" : "✗"} ≤ 1.2x minimal`;
  const lines = rows.map((row, i) => {
    const ref = row.path.startsWith("/pay/") ? 3 : 0;
    const goal = i === 1 ? target(1, 0) : "";
    return `| ${row.name} | ${f(med(starts[i], "ready"))} | ${f(med(starts[i], "first"))} | ${f(toAnswer[i])} | ${i === ref ? "1.00x" : vs(i, ref)} | ${f(med(starts[i], "second"))} | ${med(starts[i], "rssMb")} MB | ${goal} |`;
  });
  const table = `
Each start a fresh process on a database with 10,000 invoices; medians of ${STARTS} starts per row
(interleaved). Ready: spawn to the server's "Ready" line; first request: its latency right
after; to first answer: spawn to that answer's last byte (the ratio is on this); second request:
the same request again (warm); RSS: the process's resident memory after the second.

| server and request | ready | first request | to first answer | × minimal | second request | RSS | target |
|---|---|---|---|---|---|---|---|
${lines.join("\n")}
`;
  console.log(table);
  if (process.env.BENCH_WRITE !== "0") writeSubsection("Scale and cold start", "Cold start", table);
} finally {
  if (minimalDir) fs.rmSync(minimalDir, { recursive: true, force: true });
  await db.drop();
}
process.exit(0);
