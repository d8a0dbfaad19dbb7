/**
 * Export benchmark (issue: fiat values and accounting exports): GET /api/exports/payments.csv
 * for 100,000 payments through the built server, read as fast as the client can; rows per
 * second, time to the first byte and the server's peak resident memory. Needs
 * TEST_DATABASE_URL and a `next build` (npm run bench).
 */
import { Keypair } from "@stellar/stellar-sdk";
import postgres from "postgres";
import { client, invoiceBody } from "../tests/helpers/api";
import { startApp } from "../tests/helpers/app";
import { signIn } from "../tests/helpers/auth";
import { insertBulkPayments, processUsage } from "../tests/helpers/exports";
import { createTestDatabase } from "../tests/helpers/postgres";
import { writeSection } from "./results-file";

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 100_000);
const RUNS = 3;

async function main() {
  const db = await createTestDatabase();
  const app = await startApp({ DATABASE_URL: db.url, RATE_LIMIT_GLOBAL_PER_MINUTE: "100000" });
  const sql = postgres(db.url, { max: 2, onnotice: () => {} });
  try {
    const { token, wallet } = await signIn(app.url);
    const invoice = (await client(app.url, token).post("/api/invoices", invoiceBody())).body;
    const payer = Keypair.random().publicKey();
    const download = (query = "") =>
      fetch(`${app.url}/api/exports/payments.csv${query}`, {
        headers: { authorization: `Bearer ${token}` },
      });
    await (await download("?to=2026-01-01")).arrayBuffer(); // warm-up: loads the route's code
    const idle = processUsage(app.pid).rss;
    const mb = (n: number) => (n / 2 ** 20).toFixed(1);
    const rows: string[] = [];
    // The wallet's payments, then three times as many: peak memory must not follow the size.
    for (const [size, inserted] of [
      [ROWS, ROWS],
      [3 * ROWS, 2 * ROWS],
    ]) {
      const first = size - inserted + 1;
      await insertBulkPayments(sql, { invoiceId: invoice.id, wallet, payer, n: inserted, first });
      await sql`analyze payments`;
      const runs = await timeRuns(app.pid, () => download(), size);
      const best = runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
      rows.push(
        `| \`GET /api/exports/payments.csv\`, ${size.toLocaleString("en")} payments | ${Math.round(size / best.seconds).toLocaleString("en")} rows/s (best of ${RUNS}: ${best.seconds.toFixed(2)} s, ${mb(best.bytes)} MiB; runs ${runs.map((r) => r.seconds.toFixed(2)).join(", ")} s), first byte after ${best.firstByteMs.toFixed(0)} ms |`,
        `| server resident memory during those runs: idle (after a tiny export) / peak | ${mb(idle)} / ${mb(Math.max(...runs.map((r) => r.peak)))} MiB |`,
      );
    }
    const table = ["| what | figure |", "|---|---|", ...rows].join("\n");
    console.log(table);
    writeSection(
      "Export",
      `${table}\n\nOne client reading as fast as it can, the server on the same two cores; rows come from 1,000-row keyset pages (lib/services/exports). Memory is the whole server process (\`/proc/<pid>/status\` VmRSS sampled every 10 ms), garbage and the young generation included: the peak barely moves when the export triples.`,
    );
  } finally {
    await sql.end();
    await app.stop();
    await db.drop();
  }
}

/** RUNS downloads of the whole export, each timed, with the server's peak memory. */
async function timeRuns(pid: number, download: () => Promise<Response>, size: number) {
  const runs: { seconds: number; firstByteMs: number; bytes: number; peak: number }[] = [];
  for (let i = 0; i < RUNS; i++) {
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, processUsage(pid).rss);
    }, 10);
    const started = performance.now();
    const res = await download();
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let firstByteMs = 0;
    let bytes = 0;
    let lines = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!bytes) firstByteMs = performance.now() - started;
      bytes += value.length;
      for (const b of value) if (b === 10) lines++;
    }
    clearInterval(sampler);
    if (lines !== size + 1) throw new Error(`expected ${size} rows, got ${lines - 1}`);
    runs.push({ seconds: (performance.now() - started) / 1000, firstByteMs, bytes, peak });
  }
  return runs;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
