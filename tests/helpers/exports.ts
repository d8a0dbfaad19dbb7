import { readFileSync } from "node:fs";
import type postgres from "postgres";

/**
 * `n` payments of one invoice, as the recorder writes them, inserted in one statement
 * (tests/exports.test.ts, bench/export.ts). Three share each millisecond (with microseconds
 * past it), so keyset pages break inside ties. Ids are `bulk0000001` on, ledgers 1000001 on
 * (from `first`, 1 unless given).
 */
export async function insertBulkPayments(
  sql: postgres.Sql,
  p: { invoiceId: string; wallet: string; payer: string; n: number; first?: number },
): Promise<{ sum: string }> {
  await sql`insert into payments (id, invoice_id, transaction_hash, ledger_number, from_wallet,
    to_wallet, amount, asset, confirmed_at, fiat_currency, fiat_value, rate, rate_source, rate_at)
    select 'bulk' || lpad(g::text, 7, '0'), ${p.invoiceId}, md5(g::text) || md5('x' || g),
      1000000 + g, ${p.payer}, ${p.wallet}, round((g % 99991)::numeric / 997 + 0.0000001, 7), 'XLM',
      timestamptz '2026-02-01 00:00:00.000123+00' + (g / 3) * interval '1 millisecond',
      'USD', round((g % 99991)::numeric / 997 * 0.2, 2), 0.2, 'prices.local', timestamptz '2026-02-01'
    from generate_series(${p.first ?? 1}::int, ${(p.first ?? 1) + p.n - 1}::int) g`;
  const [{ sum }] = await sql`select sum(amount)::text as sum from payments
    where to_wallet = ${p.wallet}`;
  return { sum };
}

/** A process's resident memory (bytes) and CPU time (clock ticks, utime + stime), from /proc. */
export function processUsage(pid: number): { rss: number; cpuTicks: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return {
    rss: Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) * 1024,
    cpuTicks: Number(fields[11]) + Number(fields[12]),
  };
}
