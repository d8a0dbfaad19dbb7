/**
 * A CPU profile of one cold start (issue 33, docs/decisions.md "Cold start"): the built server
 * started as the cold-start bench starts it (WORKER=off), under `node --cpu-prof`, on a
 * migrated database with 1,000 invoices; its first `GET /api/payments/:id/status`, then
 * SIGTERM. Prints the spawn → ready → answer times and the profile's self time by package or
 * project file, in the order they first ran. Run: `npx tsx bench/cold-start-profile.ts`
 * (PostgreSQL as `npm run bench` starts it; PROFILE_RUNS=3 starts; PROFILE_DIR keeps the
 * .cpuprofile files).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { appEnvironment, freePort, SERVER_ARGS, startApp } from "../tests/helpers/app";
import { createTestDatabase } from "../tests/helpers/postgres";
import { generateBooks } from "./scale-data";

const ROOT = path.resolve(import.meta.dirname, "..");
const RUNS = Number(process.env.PROFILE_RUNS ?? 3);
const PROFILE_DIR = process.env.PROFILE_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "cpuprof-"));
const PATH_OF = process.env.PROFILE_PATH ?? "/api/payments/:id/status";

type Node = {
  id: number;
  callFrame: { url: string; functionName: string };
  children?: number[];
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number };

function bucketOf(url: string): string {
  if (!url) return "(native / gc / idle)";
  const u = url.replace(/^file:\/\//, "");
  const nm = u.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = u.slice(nm + "node_modules/".length).split("/");
    const pkg = rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
    if (pkg === "next") return `next/${rest.slice(1, 3).join("/")}`;
    return pkg;
  }
  if (u.includes("/.next/server/chunks/")) return ".next chunks";
  if (u.includes("/.next/")) return `.next/${path.basename(u)}`;
  if (u.startsWith("node:")) return u;
  return path.relative(ROOT, u);
}

function summarise(file: string) {
  const p = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const first = new Map<string, number>();
  let t = 0;
  for (const [i, id] of p.samples.entries()) {
    t += p.timeDeltas[i];
    const n = byId.get(id);
    if (!n) continue;
    const b = n.callFrame.functionName === "(idle)" ? "(idle)" : bucketOf(n.callFrame.url);
    self.set(b, (self.get(b) ?? 0) + p.timeDeltas[i]);
    if (!first.has(b)) first.set(b, t);
  }
  const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30);
  for (const [b, us] of rows)
    console.log(
      `  ${(us / 1000).toFixed(0).padStart(5)} ms  (first at ${((first.get(b) ?? 0) / 1000).toFixed(0)} ms)  ${b}`,
    );
  console.log(`  total ${(t / 1000).toFixed(0)} ms`);
}

const db = await createTestDatabase();
try {
  const app = await startApp({ DATABASE_URL: db.url });
  await app.stop();
  const sql = postgres(db.url, { max: 2, onnotice: () => {} });
  await generateBooks(sql, 1_000);
  const [{ id }] = await sql`select id from invoices where status = 'PENDING' limit 1`;
  await sql.end();
  for (let r = 0; r < RUNS; r++) {
    const port = await freePort();
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [
        ...(process.env.PROFILE_NODE_ARGS?.split(" ") ?? [
          "--cpu-prof",
          `--cpu-prof-dir=${PROFILE_DIR}`,
          "--cpu-prof-interval=200",
        ]),
        ...SERVER_ARGS,
      ],
      {
        cwd: ROOT,
        env: {
          ...appEnvironment(port, { DATABASE_URL: db.url, WORKER: "off", LOG_LEVEL: "error" }),
          TRACE_OUT: `${PROFILE_DIR}/trace-${r}.txt`,
        },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    await new Promise<void>((resolve, reject) => {
      let out = "";
      child.stdout?.on("data", (d) => {
        out += d;
        if (/Ready/.test(out)) resolve();
      });
      child.once("exit", (c) => reject(new Error(`exited ${c}: ${out}`)));
    });
    const ready = performance.now() - started;
    const res = await fetch(`http://127.0.0.1:${port}${PATH_OF.replace(":id", id)}`);
    await res.arrayBuffer();
    const answer = performance.now() - started;
    await new Promise((resolve) => {
      child.once("exit", resolve);
      child.kill("SIGTERM");
    });
    console.log(
      `start ${r + 1}: ready ${ready.toFixed(0)} ms, first answer ${answer.toFixed(0)} ms (${res.status}), ${process.env.PROFILE_NODE_ARGS ?? "under --cpu-prof"}`,
    );
  }
  const files = fs.readdirSync(PROFILE_DIR).filter((f) => f.endsWith(".cpuprofile"));
  const last = files.sort().at(-1);
  if (last) {
    console.log(`profile ${path.join(PROFILE_DIR, last)}:`);
    summarise(path.join(PROFILE_DIR, last));
  }
} finally {
  await db.drop();
}
process.exit(0);
