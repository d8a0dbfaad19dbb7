/**
 * The scale benchmark's books (bench/scale.ts), loaded with COPY: `n` invoices over n / 100
 * freelancers, one of whom (the "big" one) holds every tenth invoice; 2 to 4 line items each;
 * payments on 15 % of the invoices (every PAID one in full, a tenth of the PENDING ones in
 * part), credit notes on 0.5 % (PAID ones), an audit entry per payment and credit note.
 * Statuses, currencies (XLM, USDC), tax rates, clients (accented names, for search) and dates
 * (created over the last 3 years, sent within 2 days, paid within 40) are drawn per invoice
 * from a generator seeded by its index, so each table's pass derives the same invoice again.
 *
 * Speed: the secondary indexes of the four tables (not primary keys, not those behind a
 * constraint) are dropped before the COPYs and re-created, from their own definitions, after
 * them; triggers (foreign keys, anything a migration adds) stay on. Then VACUUM ANALYZE.
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Keypair } from "@stellar/stellar-sdk";
import type postgres from "postgres";
import { TESTNET } from "../tests/helpers/stellar";

export type ScaleBooks = {
  invoices: number;
  /** Freelancer wallets; `wallets[0]` is the big one. */
  wallets: Keypair[];
  bigInvoices: number;
  payments: number;
  creditNotes: number;
  lineItems: number;
  /** Seconds: the COPYs, the index builds, VACUUM ANALYZE. */
  seconds: { copy: number; indexes: number; vacuum: number };
};

const DAY = 86_400_000;
const YEAR = 365 * DAY;
const STATUSES = [
  ["DRAFT", 0.4],
  ["PENDING", 0.5],
  ["PAID", 0.64],
  ["EXPIRED", 0.84],
  ["CANCELLED", 0.99],
  ["FAILED", 1],
] as const;

const CLIENT_NAMES = [
  "Acme Corporation",
  "Société Générale de Café",
  "Müller & Söhne",
  "José Álvarez",
  "Zoë Ørsted",
  "Łukasz Wójcik",
  "Crème Brûlée",
  "Ñandú Diseño",
  "Björk Studio",
  "François Dupré",
  "Ångström Labs",
  "Çelik İnşaat",
  "Nguyễn Văn An",
  "Smith & Partners",
  "Globex",
  "Initech",
  "Umbrella Health",
  "Hôtel Les Pins",
  "Straße Verlag",
  "Dvořák Audio",
];
const CLIENT_FIRST = [
  "Ana",
  "Élodie",
  "Jörg",
  "Inés",
  "Mateo",
  "Zoé",
  "Luca",
  "Søren",
  "Amélie",
  "Raúl",
];
const COMPANIES = ["", "SARL", "GmbH", "S.A.", "Ltd", "BV", "AB", "S.L."];
const TITLES = [
  "Website redesign",
  "Logo and brand identity",
  "Consulting",
  "Mobile app sprint",
  "Traduction du site",
  "Maintenance",
  "Photographie de mariage",
  "Übersetzung Handbuch",
  "Desarrollo backend",
  "Audit de sécurité",
];
const ITEMS = [
  "Design",
  "Développement front-end",
  "Intégration API",
  "Consulting (heures)",
  "Hébergement annuel",
  "Übersetzung",
  "Révision",
  "Project management",
  "Tests et recette",
  "Formation équipe",
];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** mulberry32 seeded from (seed, i): each invoice's draws, reproducible in any pass. */
function rngFor(i: number, salt = 0) {
  let a = (Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(salt + 7, 0x85ebca6b)) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Stroops (an integer) as a numeric(18,7) string. */
const units = (stroops: number) => {
  const s = String(stroops).padStart(8, "0");
  return `${s.slice(0, -7)}.${s.slice(-7)}`;
};
const iso = (ms: number) => new Date(ms).toISOString();
const slug = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[^\x20-\x7e]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ".")
    .replace(/^\.|\.$/g, "");

export const invoiceId = (i: number) => `sc${String(i).padStart(22, "0")}`;

type Facts = ReturnType<typeof invoiceFacts>;

/** Invoice i, drawn again identically in each pass. */
function invoiceFacts(i: number, wallets: number, now: number) {
  const r = rngFor(i);
  const big = i % 10 === 0;
  const w = big ? 0 : 1 + Math.floor(r() * (wallets - 1));
  const s = r();
  const status = (STATUSES.find(([, upTo]) => s < upTo) ?? STATUSES[0])[0];
  const currency = r() < 0.6 ? "XLM" : "USDC";
  const created = now - Math.floor(r() * 3 * YEAR) - DAY;
  const sent = status === "DRAFT" ? null : created + Math.floor(r() * 2 * DAY);
  const paid =
    status === "PAID"
      ? Math.min(now - 60_000, (sent as number) + Math.floor(r() * 40 * DAY))
      : null;
  const nItems = 2 + Math.floor(r() * 3);
  const items: { description: string; qty: number; rate: number; amount: number }[] = [];
  let subtotal = 0;
  for (let k = 0; k < nItems; k++) {
    const qty = 1 + Math.floor(r() * 8);
    const rate = (50 + Math.floor(r() * 1950)) * 1e5 * (currency === "XLM" ? 40 : 1); // 0.01 steps
    items.push({
      description: ITEMS[Math.floor(r() * ITEMS.length)],
      qty,
      rate,
      amount: qty * rate,
    });
    subtotal += qty * rate;
  }
  const taxRate = [0, 10, 20][Math.floor(r() * 3)];
  const tax = (subtotal * taxRate) / 100;
  const total = subtotal + tax;
  const partial = status === "PENDING" && r() < 0.1;
  const credited = status === "PAID" && r() < 0.5 / 14 ? Math.floor(total / 10 / 1e5) * 1e5 : 0;
  const client = (w * 7 + Math.floor(r() * 12)) % CLIENT_NAMES.length;
  const person = CLIENT_FIRST[Math.floor(r() * CLIENT_FIRST.length)];
  const company = COMPANIES[Math.floor(r() * COMPANIES.length)];
  const title = `${TITLES[Math.floor(r() * TITLES.length)]} ${MONTHS[new Date(created).getUTCMonth()]} ${new Date(created).getUTCFullYear()}`;
  return {
    i,
    w,
    status,
    currency,
    created,
    sent,
    paid,
    items,
    subtotal,
    taxRate,
    tax,
    total,
    partial,
    credited,
    paidAmount: status === "PAID" ? total : partial ? Math.floor(total / 2 / 1e5) * 1e5 : 0,
    clientName: `${person} — ${CLIENT_NAMES[client]}`,
    clientEmail: `${slug(person)}@${slug(CLIENT_NAMES[client]).replace(/\./g, "-")}.example`,
    clientCompany: company ? `${CLIENT_NAMES[client]} ${company}` : null,
    title,
    txHash: `${(i + 1).toString(16).padStart(64, "0")}`,
  };
}

/** COPY text format: tab-separated, \N for null (none of our values holds a tab, newline or backslash). */
const line = (cols: (string | number | null)[]) =>
  `${cols.map((c) => (c === null ? "\\N" : String(c))).join("\t")}\n`;

async function copy(
  sql: postgres.Sql,
  table: string,
  columns: string[],
  n: number,
  rows: (f: Facts, out: string[]) => void,
  facts: (i: number) => Facts,
) {
  const stream = await sql.unsafe(`copy ${table} (${columns.join(", ")}) from stdin`).writable();
  async function* chunks() {
    for (let start = 0; start < n; start += 5000) {
      const out: string[] = [];
      for (let i = start; i < Math.min(n, start + 5000); i++) rows(facts(i), out);
      if (out.length) yield out.join("");
    }
  }
  await pipeline(Readable.from(chunks()), stream);
}

export async function generateBooks(
  sql: postgres.Sql,
  n: number,
  log: (s: string) => void = () => {},
): Promise<ScaleBooks> {
  const nWallets = Math.max(10, Math.round(n / 100));
  const wallets = Array.from({ length: nWallets }, () => Keypair.random());
  const walletKeys = wallets.map((k) => k.publicKey());
  const payers = Array.from({ length: 200 }, () => Keypair.random().publicKey());
  const issuer = Keypair.random().publicKey();
  const now = Date.now();
  const facts = (i: number) => invoiceFacts(i, nWallets, now);
  const tables = [
    "invoices",
    "invoice_line_items",
    "payments",
    "credit_notes",
    "invoice_audit_logs",
  ];
  const indexes = await sql<{ name: string; def: string }[]>`
    select i.relname as name, pg_get_indexdef(i.oid) as def
    from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
    where t.relname in ${sql(tables)} and not x.indisprimary
      and not exists (select 1 from pg_constraint c where c.conindid = i.oid)
      -- Kept: the line items' statement trigger (migration 0036, Search) reads an invoice's
      -- lines through it; without it each invoice's text is a scan of every line (quadratic).
      and i.relname <> 'invoice_line_items_invoice_idx'`;
  for (const ix of indexes) await sql.unsafe(`drop index "${ix.name}"`);

  let t = performance.now();
  log(`  COPY ${n.toLocaleString("en")} invoices…`);
  const numbers = new Int32Array(nWallets);
  await copy(
    sql,
    "invoices",
    [
      "id",
      "invoice_number",
      "status",
      "freelancer_wallet",
      "freelancer_name",
      "client_name",
      "client_email",
      "client_company",
      "title",
      "subtotal",
      "tax_rate",
      "tax_amount",
      "total",
      "amount_paid",
      "amount_credited",
      "currency",
      "network_passphrase",
      "due_date",
      "sent_at",
      "paid_at",
      "cancelled_at",
      "expired_at",
      "transaction_hash",
      "ledger_number",
      "payer_wallet",
      "created_at",
      "updated_at",
    ],
    n,
    (f, out) => {
      const number = ++numbers[f.w];
      const due = (f.sent ?? f.created) + 30 * DAY;
      const updated = f.paid ?? f.sent ?? f.created;
      out.push(
        line([
          invoiceId(f.i),
          `INV-${String(number).padStart(4, "0")}`,
          f.status,
          walletKeys[f.w],
          f.w === 0 ? "Busy Freelancer" : `Freelancer ${f.w}`,
          f.clientName,
          f.clientEmail,
          f.clientCompany,
          f.title,
          units(f.subtotal),
          `${f.taxRate}.00`,
          units(f.tax),
          units(f.total),
          units(f.paidAmount),
          units(f.credited),
          f.currency,
          TESTNET,
          iso(due),
          f.sent === null ? null : iso(f.sent),
          f.paid === null ? null : iso(f.paid),
          f.status === "CANCELLED" ? iso(updated) : null,
          f.status === "EXPIRED" ? iso(due) : null,
          f.paid === null ? null : f.txHash,
          f.paid === null ? null : 1_000_000 + f.i,
          f.paid === null ? null : payers[f.i % payers.length],
          iso(f.created),
          iso(updated),
        ]),
      );
    },
    facts,
  );
  let lineItems = 0;
  log("  COPY line items…");
  // The lines' trigger then writes each invoice's search text in one UPDATE; the payer-facing
  // change notifications (migration 0018) are off for it, as the search migration's backfill does.
  // The statistics' update trigger stays on: that UPDATE moves no figure, and its check costs
  // O(N) (migration 0041, docs/decisions.md, Statistics at scale).
  await sql`alter table invoices disable trigger invoices_notify_change`;
  await copy(
    sql,
    "invoice_line_items",
    ["id", "invoice_id", "position", "description", "quantity", "rate", "amount"],
    n,
    (f, out) => {
      f.items.forEach((it, k) => {
        lineItems++;
        out.push(
          line([
            `${invoiceId(f.i)}-${k}`,
            invoiceId(f.i),
            k,
            it.description,
            `${it.qty}.00`,
            units(it.rate),
            units(it.amount),
          ]),
        );
      });
    },
    facts,
  );
  await sql`alter table invoices enable trigger invoices_notify_change`;
  let payments = 0;
  log("  COPY payments…");
  await copy(
    sql,
    "payments",
    [
      "id",
      "invoice_id",
      "transaction_hash",
      "operation_id",
      "ledger_number",
      "from_wallet",
      "to_wallet",
      "amount",
      "asset",
      "asset_issuer",
      "confirmed_at",
      "fiat_currency",
      "fiat_value",
      "rate",
      "rate_source",
      "rate_at",
    ],
    n,
    (f, out) => {
      if (!f.paidAmount) return;
      payments++;
      const at = f.paid ?? (f.sent as number) + DAY;
      const rate = f.currency === "XLM" ? "0.250000000000" : "1.000000000000";
      const cents = Math.round(f.paidAmount / (f.currency === "XLM" ? 4e5 : 1e5));
      out.push(
        line([
          `scp${String(f.i).padStart(21, "0")}`,
          invoiceId(f.i),
          f.txHash,
          String(1e12 + f.i),
          1_000_000 + f.i,
          payers[f.i % payers.length],
          walletKeys[f.w],
          units(f.paidAmount),
          f.currency,
          f.currency === "XLM" ? null : issuer,
          iso(at),
          "USD",
          `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`,
          rate,
          "bench",
          iso(at),
        ]),
      );
    },
    facts,
  );
  let creditNotes = 0;
  const cnNumbers = new Int32Array(nWallets);
  log("  COPY credit notes…");
  await copy(
    sql,
    "credit_notes",
    [
      "id",
      "wallet",
      "number",
      "invoice_id",
      "kind",
      "reason",
      "lines",
      "subtotal",
      "tax_breakdown",
      "tax_amount",
      "total",
      "unit",
      "created_at",
    ],
    n,
    (f, out) => {
      if (!f.credited) return;
      creditNotes++;
      const amount = units(f.credited);
      const lines = [
        {
          lineItemId: null,
          description: "Remise commerciale",
          quantity: "1.00",
          rate: amount,
          amount,
          taxRate: "0.00",
          taxCategory: "Z",
        },
      ];
      const breakdown = [
        {
          category: "Z",
          rate: "0.00",
          taxableAmount: amount,
          taxAmount: "0.0000000",
          exemptionReason: null,
          exemptionReasonCode: null,
        },
      ];
      out.push(
        line([
          `scc${String(f.i).padStart(21, "0")}`,
          walletKeys[f.w],
          `CN-${String(++cnNumbers[f.w]).padStart(4, "0")}`,
          invoiceId(f.i),
          "AMOUNT",
          "Goodwill",
          JSON.stringify(lines),
          amount,
          JSON.stringify(breakdown),
          "0.0000000",
          amount,
          f.currency,
          iso((f.paid as number) + DAY),
        ]),
      );
    },
    facts,
  );
  log("  COPY audit entries…");
  await copy(
    sql,
    "invoice_audit_logs",
    ["id", "invoice_id", "action", "actor_wallet", "changes", "created_at"],
    n,
    (f, out) => {
      if (f.paidAmount)
        out.push(
          line([
            `sca${String(f.i).padStart(21, "0")}`,
            invoiceId(f.i),
            f.paid ? "PAID" : "PAYMENT_RECEIVED",
            walletKeys[f.w],
            null,
            iso(f.paid ?? (f.sent as number) + DAY),
          ]),
        );
      if (f.credited)
        out.push(
          line([
            `scn${String(f.i).padStart(21, "0")}`,
            invoiceId(f.i),
            "CREDITED",
            walletKeys[f.w],
            JSON.stringify({ amount: units(f.credited) }),
            iso((f.paid as number) + DAY),
          ]),
        );
    },
    facts,
  );
  await sql`insert into invoice_number_counters ${sql(
    [...numbers].flatMap((last, w) =>
      last ? [{ wallet: walletKeys[w], last: String(last) }] : [],
    ),
  )}`;
  const copySeconds = (performance.now() - t) / 1000;

  t = performance.now();
  log(`  re-creating ${indexes.length} indexes…`);
  await sql.begin(async (tx) => {
    await tx`set local maintenance_work_mem = '512MB'`;
    for (const ix of indexes) await tx.unsafe(ix.def);
  });
  const indexSeconds = (performance.now() - t) / 1000;
  t = performance.now();
  log("  VACUUM ANALYZE…");
  for (const table of tables) await sql.unsafe(`vacuum analyze ${table}`);
  return {
    invoices: n,
    wallets,
    bigInvoices: Math.ceil(n / 10),
    payments,
    creditNotes,
    lineItems,
    seconds: { copy: copySeconds, indexes: indexSeconds, vacuum: (performance.now() - t) / 1000 },
  };
}
