// Scratch (not committed): 100k invoices of one owner + 100k of others, EXPLAIN of the search.
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { openDatabase } from "../db/client";
import * as schema from "../db/schema";
import { listInvoices } from "../lib/services/invoices/list-invoices";
import type { AuthedContext } from "../lib/services/context";

const url = process.env.URL!;
const h = await openDatabase({ databaseUrl: url, dataDir: "/tmp" });
await h.close();
const sql = postgres(url, { max: 1, onnotice: () => {} });
const W = "G" + "O".repeat(55);
const NET = "Test SDF Network ; September 2015";
let t = Date.now();
await sql.unsafe(`
insert into invoices (id, invoice_number, freelancer_wallet, client_name, client_email, client_company, title, subtotal, total, network_passphrase, created_at, updated_at, status)
select 'i' || o || '_' || g, 'INV-' || lpad(g::text, 6, '0'),
  case when o = 0 then '${W}' else 'G' || lpad(o::text, 55, 'X') end,
  case when g % 100 = 7 then 'Acme Corp ' || (g % 13) when g % 1000 = 3 then 'Müller GmbH' else 'Client ' || (g % 5000) end,
  'billing' || (g % 5000) || '@example.com',
  case when g % 3 = 0 then 'Company ' || (g % 700) end,
  'Project ' || (g % 2000) || ' for ' || (array['March','April','May','June'])[1 + g % 4],
  '100', '100', '${NET}', timestamptz '2020-01-01' + g * interval '1 minute', now(),
  (array['DRAFT','PENDING','PAID','CANCELLED'])[1 + g % 4]
from generate_series(0, 10) o, generate_series(1, case when o = 0 then 100000 else 10000 end) g`);
console.log("invoices", Date.now() - t); t = Date.now();
await sql.unsafe(`
insert into invoice_line_items (id, invoice_id, position, description, quantity, rate, amount)
select i.id || '_' || p, i.id, p, case when p = 0 then 'Design work ' || (abs(hashtext(i.id)) % 300) else 'Hosting and maintenance' end, 1, 50, 50
from invoices i, generate_series(0, 1) p`);
console.log("lines (with the statement trigger)", Date.now() - t);
// The trigger's share of a bulk insert: 20,000 rows with it, then 20,000 without it.
for (const on of [true, false]) {
  if (!on) await sql.unsafe("alter table invoices disable trigger invoices_search_text");
  const s0 = Date.now();
  await sql.unsafe(`insert into invoices (id, invoice_number, freelancer_wallet, client_name, client_email, title, subtotal, total, network_passphrase, created_at, updated_at)
    select 'b${on ? 1 : 0}_' || g, 'INV-' || g, 'GBULK${on ? 1 : 0}', 'Client ' || g, 'c' || g || '@example.com', 'Project ' || g, '1', '1', '${NET}', now(), now() from generate_series(1, 20000) g`);
  console.log(`20,000 invoices, search trigger ${on ? "on" : "off"}: ${Date.now() - s0} ms`);
  if (!on) await sql.unsafe("alter table invoices enable trigger invoices_search_text");
}
await sql.unsafe("vacuum analyze invoices");
const [{ n }] = await sql`select count(*)::int as n from invoices where freelancer_wallet = ${W}`;
console.log("owner rows", n);

// The service's own statements, captured by a logging drizzle, then EXPLAINed with their params.
const captured: { query: string; params: unknown[] }[] = [];
const client = postgres(url, { max: 2, onnotice: () => {} });
const db = drizzle(client, { schema, logger: { logQuery: (query, params) => captured.push({ query, params }) } });
const ctx = { db, wallet: W, now: () => new Date(), requestId: "x" } as unknown as AuthedContext;
for (const [label, query] of [
  ["q=acme (1,000 matches, ranked)", { q: "acme" }],
  ["q=müller (100 matches)", { q: "müller" }],
  ["q=inv-004217 (one)", { q: "inv-004217" }],
  ["q=acme june&status=PENDING&sort=total:desc", { q: "acme june", status: "PENDING", sort: "total:desc" }],
  ["q=client 42 (client: 98% of rows)", { q: "client 42" }],
  ["q=a (one letter)", { q: "a" }],
] as const) {
  captured.length = 0;
  const times: number[] = [];
  let page;
  for (let i = 0; i < 20; i++) {
    const s = performance.now();
    page = await listInvoices(ctx, { ...(query as object), defaultLimit: 50 } as never);
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  const main = captured[captured.length - 1];
  console.log(`\n### ${label}: total ${page!.total}, service p50 ${times[10].toFixed(1)} ms, max ${times[19].toFixed(1)} ms`);
  const plan = await client.unsafe(`explain (analyze, buffers) ${main.query}`, main.params as never[]);
  console.log(plan.map((r) => r["QUERY PLAN"]).join("\n"));
  if (label.startsWith("q=acme (")) {
    // The same statement as a generic plan (what a prepared statement may switch to).
    const lit = (v: unknown) => (typeof v === "number" ? String(v) : `'${String(v).replaceAll("'", "''")}'`);
    await sql.unsafe(`prepare s as ${main.query}`);
    await sql.unsafe("set plan_cache_mode = force_generic_plan");
    const g = await sql.unsafe(`explain (analyze, buffers) execute s(${main.params.map(lit).join(", ")})`);
    console.log("\n### generic plan of the same statement\n" + g.map((r) => r["QUERY PLAN"]).join("\n"));
  }
  // Cursor page: after the 10th.
  if (label.startsWith("q=acme (")) {
    captured.length = 0;
    const tenth = page!.invoices[9].id;
    const s = performance.now();
    await listInvoices(ctx, { q: "acme", starting_after: tenth, defaultLimit: 50 } as never);
    console.log(`\n### q=acme starting_after the 10th: ${(performance.now() - s).toFixed(1)} ms`);
    const c = captured[captured.length - 1];
    const p2 = await client.unsafe(`explain (analyze, buffers) ${c.query}`, c.params as never[]);
    console.log(p2.map((r) => r["QUERY PLAN"]).join("\n"));
  }
}
await client.end();
await sql.end();
