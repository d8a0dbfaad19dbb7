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
    await insertBulkPayments(sql, { invoiceId: invoice.id, wallet, payer, n: ROWS });
    await sql`analyze payments`;
    const download = () =>
      fetch(`${app.url}/api/exports/payments.csv`, {
        headers: { authorization: `Bearer ${token}` },
      });
    await (await download()).arrayBuffer(); // warm-up: loads the route's code
    const idle = processUsage(app.pid).rss;
    const runs: { seconds: number; firstByteMs: number; bytes: number; lines: number }[] = [];
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, processUsage(app.pid).rss);
    }, 10);
    for (let i = 0; i < RUNS; i++) {
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
      runs.push({ seconds: (performance.now() - started) / 1000, firstByteMs, bytes, lines });
    }
    clearInterval(sampler);
    if (runs.some((r) => r.lines !== ROWS + 1)) throw new Error(`expected ${ROWS} rows`);
    const best = runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    const mb = (n: number) => (n / 2 ** 20).toFixed(1);
    const table = [
      "| what | figure |",
      "|---|---|",
      `| \`GET /api/exports/payments.csv\`, ${ROWS.toLocaleString("en")} payments | ${Math.round(ROWS / best.seconds).toLocaleString("en")} rows/s (best of ${RUNS}: ${best.seconds.toFixed(2)} s, ${mb(best.bytes)} MiB) |`,
      `| time to the first byte | ${best.firstByteMs.toFixed(0)} ms |`,
      `| each run | ${runs.map((r) => `${r.seconds.toFixed(2)} s`).join(", ")} |`,
      `| server resident memory: idle after warm-up / peak during the runs | ${mb(idle)} / ${mb(peak)} MiB (+${mb(peak - idle)} MiB) |`,
    ].join("\n");
    console.log(table);
    writeSection(
      "Export",
      `${table}\n\nOne client reading as fast as it can, the server on the same two cores; rows come from 1,000-row keyset pages (lib/services/exports). Memory is the whole server process (\`/proc/<pid>/status\` VmRSS sampled every 10 ms), garbage included.`,
    );
  } finally {
    await sql.end();
    await app.stop();
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
