/**
 * The benchmarks' invoice table: 100,000 invoices, 1,000 of them (every 100th, with two line
 * items each) owned by `wallet`, the rest spread over 99 other wallets; analyzed. Returns the
 * ids of `wallet`'s invoices. Used by bench/http.ts and bench/profile-list.ts.
 */
import type postgres from "postgres";
import { Keypair } from "../tests/helpers/stellar";

export async function seedInvoices(sql: postgres.Sql, wallet: string) {
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
