import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { creditNotes, invoices, salesQuotes } from "@/db/schema";
import { NETWORK_PASSPHRASES } from "@/lib/config";
import { newId } from "@/lib/ids";
import type { AuthedContext } from "@/lib/services/context";
import { listCreditNotes } from "@/lib/services/credit-notes/credit-notes";
import { listInvoices } from "@/lib/services/invoices/list-invoices";
import { replaceLineItems } from "@/lib/services/invoices/store";
import { listQuotes } from "@/lib/services/quotes/quotes";

/**
 * Search on the embedded database (PGlite, used when DATABASE_URL is unset): its contrib
 * pg_trgm, unaccent and btree_gin load (db/client.ts), migrations 0036 and 0042 run, the
 * triggers keep `search_text`, the keys index it, and the three lists find, fold and rank as on
 * PostgreSQL (tests/search.test.ts).
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "search-pglite-"));
let handle: DatabaseHandle;
const wallet = `G${"S".repeat(55)}`;
const other = `G${"T".repeat(55)}`;
let ctx: AuthedContext;
const at = new Date("2026-11-01T00:00:00.000Z");

async function invoice(
  owner: string,
  n: number,
  fields: { clientName?: string; title?: string; lines?: string[]; number?: string },
): Promise<string> {
  const id = newId();
  await handle.db.insert(invoices).values({
    id,
    invoiceNumber: fields.number ?? `INV-${String(n).padStart(4, "0")}`,
    freelancerWallet: owner,
    clientName: fields.clientName ?? "Ada Client",
    clientEmail: "ada@example.com",
    title: fields.title ?? "Website",
    subtotal: "10",
    total: "10",
    status: "PENDING",
    sentAt: at,
    networkPassphrase: NETWORK_PASSPHRASES.testnet,
    createdAt: new Date(at.getTime() + n * 1000),
    updatedAt: at,
  });
  const lines = (fields.lines ?? ["Design"]).map((description) => ({
    id: newId(),
    description,
    quantity: "1",
    rate: "10",
    amount: "10",
  }));
  await replaceLineItems(handle.db, id, lines);
  return id;
}

beforeAll(async () => {
  handle = await openDatabase({ dataDir });
  ctx = {
    db: handle.db,
    wallet,
    now: () => at,
    requestId: "search-test",
  } as unknown as AuthedContext;
}, 120_000);

afterAll(async () => {
  await handle?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("search on PGlite", () => {
  it("finds by number, client, accents either way and lines, ranked, and pages by cursor", async () => {
    const infix = await invoice(wallet, 1, { clientName: "Bizorkia" });
    const line = await invoice(wallet, 2, { lines: ["Fix the zork"] });
    const client = await invoice(wallet, 3, { clientName: "Zörkin Müller" });
    const number = await invoice(wallet, 4, { number: "INV-ZORK" });
    await invoice(other, 5, { clientName: "Zork" });
    const list = async (q: string, extra: Record<string, unknown> = {}) =>
      (await listInvoices(ctx, { q, defaultLimit: 50, ...extra })).invoices.map((r) => r.id);

    expect(await list("zork")).toEqual([number, client, line]);
    expect(await list("MULLER")).toEqual([client]);
    expect(await list("mü")).toEqual([client]);
    expect(await list("zörk")).toEqual([number, client, line]);
    expect(await list("bizo")).toEqual([infix]);
    // Keyset pages through the ranking: every match once, in order.
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await listInvoices(ctx, {
        q: "zork",
        limit: 1,
        defaultLimit: 50,
        ...(cursor ? { starting_after: cursor } : {}),
      });
      seen.push(...page.invoices.map((r) => r.id));
      if (!page.hasMore) break;
      cursor = seen[seen.length - 1];
    }
    expect(seen).toEqual([number, client, line]);
    // New lines are searched at once; the old ones no more.
    await replaceLineItems(handle.db, line, [
      { id: newId(), description: "Gardening", quantity: "1", rate: "1", amount: "1" },
    ]);
    expect(await list("garden")).toEqual([line]);
    expect(await list("zork")).toEqual([number, client]);
  });

  it("searches quotes and credit notes too", async () => {
    const quoteId = newId();
    await handle.db.insert(salesQuotes).values({
      id: quoteId,
      wallet,
      number: "QT-0001",
      body: { clientCompany: "Acme Straße" },
      clientName: "Jane",
      clientEmail: "jane@example.com",
      title: "Offer",
      language: "de",
      currency: "XLM",
      networkPassphrase: NETWORK_PASSPHRASES.testnet,
      lineItems: [],
      subtotal: "1",
      taxRate: "0",
      taxAmount: "0",
      discount: "0",
      total: "1",
      validUntil: "2099-01-01",
      createdAt: at,
      updatedAt: at,
    });
    const quotes = async (q: string) =>
      (await listQuotes(ctx, { q, defaultLimit: 50 })).quotes.map((r) => r.id);
    expect(await quotes("strasse")).toEqual([quoteId]);
    expect(await quotes("ACM")).toEqual([quoteId]);

    const credited = await invoice(wallet, 9, { clientName: "Émile Zola" });
    const noteId = newId();
    await handle.db.insert(creditNotes).values({
      id: noteId,
      wallet,
      number: "CN-0001",
      invoiceId: credited,
      kind: "AMOUNT",
      reason: "Goodwill",
      lines: [],
      subtotal: "1",
      taxBreakdown: [],
      taxAmount: "0",
      total: "1",
      unit: "XLM",
      createdAt: at,
    });
    const notes = async (q: string) =>
      (await listCreditNotes(ctx, { q, defaultLimit: 50 })).creditNotes.map((r) => r.id);
    expect(await notes("emile")).toEqual([noteId]);
    expect(await notes("cn-0001")).toEqual([noteId]);
    expect(await notes("goodw")).toEqual([noteId]);
    expect(await notes("zork")).toEqual([]);
  });

  it("the index's keys hold every match's: each word start of each field, long words and accents alike", async () => {
    // Documents as the triggers write them, and as queries every start of every word of theirs
    // (by their folded words) with other words and non-words: whenever a document matches a
    // query word by word (the check every search makes on its rows), its keys hold the query's,
    // so the index gives it; for words of up to 6 characters the keys alone decide.
    const docs = [
      [
        "INV-2026-000417",
        "Zoë Ørsted Straße-Verlag",
        "jörg.müller@crème-brûlée.example",
        "Développement front-end",
        "Übersetzung Handbuch; Nguyễn Văn An",
      ],
      [
        "Q-7",
        "Ñandú Diseño S.L.",
        "ana@nandu.example",
        "Traduction du site (mars 2026)",
        "Consulting — heures 12h30",
      ],
      [
        "CN-0001",
        "Łukasz Wójcik",
        "LW@example.COM",
        "Audit de sécurité",
        "Intégration API, révision",
      ],
    ];
    const { rows } = (await handle.db.execute(sql`
      with d as (
        select search_document(n, p, e, t, r) as doc from (values ${sql.join(
          docs.map((f) => sql`(${f[0]}, ${f[1]}, ${f[2]}, ${f[3]}, ${f[4]})`),
          sql`, `,
        )}) v(n, p, e, t, r)),
      w as (select distinct word from d, unnest(string_to_array(doc, ' ')) word where word not in ('', '|')),
      q as (
        select left(word, n) as query from w, generate_series(1, length(word)) n
        union select left(a.word, 3) || ' ' || b.word from w a, w b
        union values ('zork'), ('rsted'), ('developpementx'), ('2026 zork')),
      m as (
        select doc, query,
          (select bool_and(strpos(doc, ' ' || x) > 0) from unnest(string_to_array(query, ' ')) x) as matches,
          search_keys(${wallet}, doc) @> search_query_keys(${wallet}, query) as keyed,
          (select bool_and(length(x) <= 6) from unnest(string_to_array(query, ' ')) x) as short
        from d, q)
      select count(*) filter (where matches) as matched,
        count(*) filter (where matches and not keyed) as missed,
        count(*) filter (where keyed and not matches and short) as extra
      from m`)) as unknown as { rows: { matched: number; missed: number; extra: number }[] };
    expect(Number(rows[0].matched)).toBeGreaterThan(200);
    expect(Number(rows[0].missed)).toBe(0);
    expect(Number(rows[0].extra)).toBe(0);
    // pg_restore rebuilds the index with an empty search_path: the keys are the same.
    const keys = sql`public.search_keys(${wallet}, ' inv 0042 | acme corp ')`;
    type Keys = { rows: { k: string[] }[] };
    const [before] = ((await handle.db.execute(sql`select ${keys} as k`)) as unknown as Keys).rows;
    const restored = await handle.db.transaction(async (tx) => {
      await tx.execute(sql`set local search_path = ''`);
      return ((await tx.execute(sql`select ${keys} as k`)) as unknown as Keys).rows;
    });
    expect(before.k).toContain("GSSSSSSS acme");
    expect(restored[0].k).toEqual(before.k);
  });

  it("two owners whose addresses start alike share keys, never results", async () => {
    // Keys name the owner by its first 8 characters (migration 0042): these two share them.
    const one = `GSAMEPRE${"A".repeat(48)}`;
    const two = `GSAMEPRE${"B".repeat(48)}`;
    const mine = await invoice(one, 21, { clientName: "Quokka Labs" });
    await invoice(two, 22, { clientName: "Quokka Labs" });
    await invoice(two, 23, { clientName: "Quokka Studio" });
    const page = await listInvoices({ ...ctx, wallet: one } as AuthedContext, {
      q: "quokka",
      defaultLimit: 50,
    });
    expect(page.invoices.map((r) => r.id)).toEqual([mine]);
    expect(page).toMatchObject({ total: 1, totalExact: true });
  });
});
