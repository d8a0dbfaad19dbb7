/**
 * CPU profile of the authenticated list under load (issue 18, docs/decisions.md "Invoice
 * list"): the app (`server.ts` over the build in $NEXT_DIST_DIR) runs with `--cpu-prof` on a
 * database of 100,000 invoices, one wallet owning 1,000 (bench/seed.ts); autocannon sends
 * `GET /api/invoices?limit=50` with a Bearer token at 64 connections; then the profile is
 * summarised: self and inclusive time by function, and self time by module.
 *
 *   TEST_DATABASE_URL=... NEXT_DIST_DIR=.next-x npx tsx bench/profile-list.ts [path-and-query]
 *
 * PROFILE_SECONDS (default 15) sets the load's length; PROFILE_DIR keeps the .cpuprofile;
 * PROFILE_SQL runs on the seeded database first (to try an index); PROFILE_FILE=<.cpuprofile>
 * only summarises that profile.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import postgres from "postgres";
import { startApp } from "../tests/helpers/app";
import { signIn } from "../tests/helpers/auth";
import { createTestDatabase } from "../tests/helpers/postgres";
import { Keypair } from "../tests/helpers/stellar";
import { seedInvoices } from "./seed";

const SECONDS = Number(process.env.PROFILE_SECONDS ?? 15);
const PATH = process.argv[2] ?? "/api/invoices?limit=50";
const dir = process.env.PROFILE_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "list-prof-"));
fs.mkdirSync(dir, { recursive: true });

/**
 * A module that profiles the process it is loaded into (the V8 sampling profiler through
 * node:inspector, 1 ms interval like --cpu-prof) and writes `<pid>.cpuprofile` into `dir`
 * when it exits; server.ts exits on SIGTERM.
 */
function writePreload(): string {
  const file = path.join(dir, "preload.mjs");
  fs.writeFileSync(
    file,
    `import { Session } from "node:inspector";
import { writeFileSync } from "node:fs";
const session = new Session();
session.connect();
session.post("Profiler.enable");
session.post("Profiler.setSamplingInterval", { interval: 1000 });
session.post("Profiler.start");
process.on("exit", () => {
  session.post("Profiler.stop", (err, res) => {
    if (!err) writeFileSync(${JSON.stringify(dir)} + "/" + process.pid + ".cpuprofile", JSON.stringify(res.profile));
  });
});
`,
  );
  return file;
}

/** CPU time (user + system) a process has used, from /proc (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
};
type Profile = {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
};

/** Where a frame comes from: the package, the app's own file, or node's internals. */
function moduleOf(url: string): string {
  if (!url) return "(native/vm)";
  if (url.startsWith("node:")) return url;
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    const pkg = rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
    const file = rest.slice(rest[0].startsWith("@") ? 2 : 1).join("/");
    return pkg === "next" ? `next/${file.split("/").slice(0, 3).join("/")}` : pkg;
  }
  return url.replace(/^file:\/\//, "").replace(`${process.cwd()}/`, "");
}

/** The summary of the samples of the last `lastSeconds` (the load, not start-up and seeding). */
export function summarise(
  profile: Profile,
  lastSeconds = Infinity,
  top = Number(process.env.PROFILE_TOP ?? 30),
): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (n: Node) =>
    `${n.callFrame.functionName || "(anonymous)"} ${moduleOf(n.callFrame.url)}:${n.callFrame.lineNumber + 1}:${n.callFrame.columnNumber + 1}`;
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const modules = new Map<string, number>();
  let all = 0;
  let at = profile.startTime;
  const from = profile.endTime - lastSeconds * 1e6;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    at += dt;
    if (at < from) return;
    all += dt;
    const node = byId.get(id) as Node;
    self.set(key(node), (self.get(key(node)) ?? 0) + dt);
    const m = moduleOf(node.callFrame.url);
    modules.set(m, (modules.get(m) ?? 0) + dt);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = key(byId.get(cur) as Node);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + dt);
    }
  });
  const table = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${((100 * v) / all).toFixed(1).padStart(5)} %  ${k}`)
      .join("\n");
  const idle = [...self].find(([k]) => k.startsWith("(idle) "))?.[1] ?? 0;
  return [
    `samples: ${(all / 1e6).toFixed(1)} s, idle ${((100 * idle) / all).toFixed(1)} %`,
    "",
    "self time by function:",
    table(self, top),
    "",
    "self time by module:",
    table(modules, top),
    "",
    "inclusive time by function:",
    table(total, top),
  ].join("\n");
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  if (process.env.PROFILE_FILE) {
    const profile = JSON.parse(fs.readFileSync(process.env.PROFILE_FILE, "utf8"));
    console.log(summarise(profile, SECONDS));
    process.exit(0);
  }
  const db = await createTestDatabase();
  const sql = postgres(db.url, { max: 4, onnotice: () => {} });
  const app = await startApp({
    DATABASE_URL: db.url,
    RATE_LIMIT_GLOBAL_PER_MINUTE: "1000000000",
    LOG_LEVEL: "error",
    // Node 20 refuses --cpu-prof in NODE_OPTIONS: a preload runs the same V8 profiler.
    NODE_OPTIONS: `--import=${writePreload()}`,
  });
  try {
    const kp = Keypair.random();
    const { token } = await signIn(app.url, kp);
    console.log("seeding 100,000 invoices…");
    await seedInvoices(sql, kp.publicKey());
    // PROFILE_SQL: statements to try first (a candidate index, say), then analyzed.
    if (process.env.PROFILE_SQL) {
      for (const statement of process.env.PROFILE_SQL.split(";").filter((x) => x.trim())) {
        await sql.unsafe(statement);
      }
      await sql`vacuum analyze invoices`;
    }
    const headers = { authorization: `Bearer ${token}` };
    await autocannon({
      url: app.url,
      connections: 8,
      duration: 3,
      headers,
      requests: [{ path: PATH }],
    });
    const cpuBefore = cpuMs(app.pid);
    const result = await autocannon({
      url: app.url,
      connections: 64,
      duration: SECONDS,
      headers,
      requests: [{ path: PATH }],
    });
    const perRequest = (cpuMs(app.pid) - cpuBefore) / result.requests.total;
    console.log(
      `${PATH}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}; app CPU ${perRequest.toFixed(2)} ms per request`,
    );
  } finally {
    await app.stop();
    await sql.end();
    await db.drop();
  }
  const file = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => path.join(dir, f))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
  console.log(`profile: ${file}\n`);
  // The last seconds of the load (app.stop() follows it at once).
  console.log(summarise(JSON.parse(fs.readFileSync(file, "utf8")), SECONDS - 1));
  process.exit(0);
}
