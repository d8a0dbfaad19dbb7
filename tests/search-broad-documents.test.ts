import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { createTestDatabase } from "./helpers/postgres";

/**
 * Broad searches of quotes and credit notes (docs/decisions.md, Search, "Broad searches"): a
 * `q` matching more than 1,000 documents is not ranked, its matches come in the list's order
 * (the `sort`, else newest first), its `total` is 1,000 with `totalExact: false` and `hasMore`
 * says whether a page follows; a narrower `q` over the same books is still ranked and counted.
 *
 * The books: one document made through the API, copied 1,199 times in SQL (the search triggers
 * write each copy's text), each copy a minute older than the last, so "newest first" is the
 * original then copy 1, 2, ... 1199. Every one matches "broadleaf". Among the copies:
 * - "rosewood" (11): copies 200, 400 ... 1000 in a better ranked field than copies 100, 300 ...
 *   1100, so the ranking and newest first disagree;
 * - "cedar" (exactly 1,000: copies 1 to 1000), the most a search ranks and counts;
 * - the oldest, copies 1190 to 1199, carry "broadleaf" in their number too: ranked, they would
 *   come first.
 */
let app: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let owner: Api;

const COPIES = 1199;
/** Copy i's id: a prefix of this run and its number (ids are 20 to 40 letters and digits). */
const prefix = randomBytes(10).toString("hex");
const copyId = (i: number) => `${prefix}${String(i).padStart(4, "0")}`;
const copyIds = Array.from({ length: COPIES }, (_, k) => copyId(k + 1));
const ROSEWOOD_RANKED = [200, 400, 600, 800, 1000, 100, 300, 500, 700, 900, 1100].map(copyId);

type Page = { status: number; body: Record<string, any> };

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startApp({ DATABASE_URL: db.url, RATE_LIMIT_GLOBAL_PER_MINUTE: "100000" });
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
  owner = client(app.url, (await signIn(app.url)).token);
}, 120_000);

afterAll(async () => {
  await sql?.end();
  await app?.stop();
  await db?.drop();
});

/**
 * Walks `path` `limit` at a time with starting_after, checking each page as a user would: the
 * broad search's total 1,000 and totalExact false, the offset the matches before the page,
 * hasMore until the last match.
 */
async function walk(api: Api, path: string, key: string, limit: number, count: number) {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const res: Page = await api.get(
      `${path}&limit=${limit}${cursor ? `&starting_after=${cursor}` : ""}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ total: 1000, totalExact: false, offset: seen.length });
    const page = res.body[key].map((d: { id: string }) => d.id);
    seen.push(...page);
    expect(res.body.hasMore).toBe(seen.length < count);
    if (!res.body.hasMore) break;
    cursor = page[page.length - 1];
  }
  return seen;
}

const idsOf = (res: Page, key: string) => res.body[key].map((d: { id: string }) => d.id);

describe("GET /api/quotes?q= matching more than 1,000 quotes", () => {
  let newestFirst: string[];
  let numbers: Map<string, string>;

  beforeAll(async () => {
    const res = await owner.post("/api/quotes", {
      clientName: "Broadleaf Nursery",
      clientEmail: "orders@nursery.example",
      title: "Hedge work",
      currency: "XLM",
      lineItems: [{ description: "Pruning", quantity: "1", rate: "100" }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await sql`
      insert into sales_quotes (id, wallet, number, status, body, client_name, client_email, title,
        language, currency, price_currency, network_passphrase, line_items, subtotal, tax_rate,
        tax_amount, discount, total, tax_breakdown, valid_until, on_accept, created_at, updated_at)
      select ${prefix} || lpad(i::text, 4, '0'), q.wallet,
        case when i >= 1190 then 'BROADLEAF-' || i else 'QB-' || lpad(i::text, 4, '0') end,
        q.status, q.body,
        case when i % 200 = 0 then 'Rosewood Broadleaf' else q.client_name end,
        case when i <= 1000 then 'cedar@nursery.example' else q.client_email end,
        case when i % 200 = 100 then 'Rosewood hedge' else q.title end,
        q.language, q.currency, q.price_currency, q.network_passphrase, q.line_items, q.subtotal,
        q.tax_rate, q.tax_amount, q.discount, q.total, q.tax_breakdown, q.valid_until, q.on_accept,
        q.created_at - i * interval '1 minute', q.updated_at - i * interval '1 minute'
      from sales_quotes q, generate_series(1, ${COPIES}::int) i where q.id = ${res.body.id}`;
    newestFirst = [res.body.id, ...copyIds];
    const rows = await sql`select id, number from sales_quotes where id in ${sql(newestFirst)}`;
    numbers = new Map(rows.map((r) => [r.id as string, r.number as string]));
    expect(numbers.size).toBe(1200);
  }, 60_000);

  it("lists a broad search newest first, unranked, total 1,000 not exact; offset pages and a starting_after walk reach every match once", async () => {
    const first: Page = await owner.get("/api/quotes?q=broadleaf&limit=20");
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ total: 1000, totalExact: false, offset: 0, hasMore: true });
    // Newest first: the quotes whose number also holds the word (ranked first) are the oldest.
    expect(idsOf(first, "quotes")).toEqual(newestFirst.slice(0, 20));

    // Offset pages past the 1,000: the last one says no more follow.
    const late: Page = await owner.get("/api/quotes?q=broadleaf&limit=50&offset=1100");
    expect(late.body).toMatchObject({
      total: 1000,
      totalExact: false,
      offset: 1100,
      hasMore: true,
    });
    expect(idsOf(late, "quotes")).toEqual(newestFirst.slice(1100, 1150));
    const last: Page = await owner.get("/api/quotes?q=broadleaf&limit=100&offset=1150");
    expect(last.body).toMatchObject({ total: 1000, totalExact: false, offset: 1150 });
    expect(last.body.hasMore).toBe(false);
    expect(idsOf(last, "quotes")).toEqual(newestFirst.slice(1150));

    expect(await walk(owner, "/api/quotes?q=broadleaf", "quotes", 100, 1200)).toEqual(newestFirst);
  });

  it("lists a broad search in the requested sort, walked with starting_after", async () => {
    const byNumber = [...newestFirst].sort((a, b) =>
      (numbers.get(a) as string) < (numbers.get(b) as string) ? -1 : 1,
    );
    const res: Page = await owner.get("/api/quotes?q=broadleaf&sort=number:asc&limit=30");
    expect(res.body).toMatchObject({ total: 1000, totalExact: false, hasMore: true });
    expect(idsOf(res, "quotes")).toEqual(byNumber.slice(0, 30));
    const walked = await walk(owner, "/api/quotes?q=broadleaf&sort=number:asc", "quotes", 80, 1200);
    expect(walked).toEqual(byNumber);
  });

  it("still ranks and counts exactly a search of 1,000 matches or fewer over the same books", async () => {
    const rosewood: Page = await owner.get("/api/quotes?q=rosewood&limit=100");
    expect(rosewood.body).toMatchObject({ total: 11, totalExact: true, hasMore: false });
    expect(idsOf(rosewood, "quotes")).toEqual(ROSEWOOD_RANKED);
    const paged: Page = await owner.get(
      `/api/quotes?q=rosewood&limit=4&starting_after=${ROSEWOOD_RANKED[3]}`,
    );
    expect(paged.body).toMatchObject({ total: 11, totalExact: true, offset: 4, hasMore: true });
    expect(idsOf(paged, "quotes")).toEqual(ROSEWOOD_RANKED.slice(4, 8));

    const cedar: Page = await owner.get("/api/quotes?q=cedar&limit=10&offset=995");
    expect(cedar.body).toMatchObject({
      total: 1000,
      totalExact: true,
      offset: 995,
      hasMore: false,
    });
    expect(idsOf(cedar, "quotes")).toEqual(copyIds.slice(995, 1000));
    // The same books' broad search is the one that is not.
    expect((await owner.get("/api/quotes?q=broadleaf&limit=1")).body.totalExact).toBe(false);
  });
});

describe("GET /api/credit-notes?q= matching more than 1,000 credit notes", () => {
  let newestFirst: string[];
  let cedarInvoice: string;

  beforeAll(async () => {
    const make = async (clientName: string) => {
      const res = await owner.post("/api/invoices", invoiceBody({ clientName }));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as string;
    };
    const nursery = await make("Broadleaf Nursery");
    cedarInvoice = await make("Broadleaf Cedar");
    await sql`update invoices set status = 'PENDING', sent_at = now() where id in ${sql([nursery, cedarInvoice])}`;
    const res = await owner.post(`/api/invoices/${nursery}/credit-notes`, {
      reason: "Goodwill",
      amount: "1",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await sql`
      insert into credit_notes (id, wallet, number, invoice_id, kind, reason, lines, subtotal,
        discount, tax_breakdown, tax_amount, total, unit, tax_currency, tax_exchange_rate,
        tax_amount_in_tax_currency, tax_breakdown_in_tax_currency, created_at)
      select ${prefix} || lpad(i::text, 4, '0'), c.wallet,
        case when i >= 1190 then 'CN-BROADLEAF-' || i when i % 200 = 0 then 'CN-ROSEWOOD-' || i
          else 'CB-' || lpad(i::text, 4, '0') end,
        case when i <= 1000 then ${cedarInvoice} else c.invoice_id end, c.kind,
        case when i % 200 = 100 then 'Rosewood refund' else c.reason end,
        c.lines, c.subtotal, c.discount, c.tax_breakdown, c.tax_amount, c.total, c.unit,
        c.tax_currency, c.tax_exchange_rate, c.tax_amount_in_tax_currency,
        c.tax_breakdown_in_tax_currency, c.created_at - i * interval '1 minute'
      from credit_notes c, generate_series(1, ${COPIES}::int) i where c.id = ${res.body.id}`;
    newestFirst = [res.body.id, ...copyIds];
  }, 60_000);

  it("lists a broad search newest first, unranked, total 1,000 not exact; offset pages and a starting_after walk reach every match once", async () => {
    const first: Page = await owner.get("/api/credit-notes?q=broadleaf&limit=20");
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ total: 1000, totalExact: false, offset: 0, hasMore: true });
    expect(idsOf(first, "creditNotes")).toEqual(newestFirst.slice(0, 20));

    const last: Page = await owner.get("/api/credit-notes?q=broadleaf&limit=100&offset=1150");
    expect(last.body).toMatchObject({ total: 1000, totalExact: false, offset: 1150 });
    expect(last.body.hasMore).toBe(false);
    expect(idsOf(last, "creditNotes")).toEqual(newestFirst.slice(1150));

    expect(await walk(owner, "/api/credit-notes?q=broadleaf", "creditNotes", 100, 1200)).toEqual(
      newestFirst,
    );
  });

  it("counts a broad search with an API key too (its network read from the invoices)", async () => {
    const created = await owner.post("/api/keys", { name: "Books", scopes: ["invoices:read"] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const key = client(app.url, created.body.secret);
    const res: Page = await key.get("/api/credit-notes?q=broadleaf&limit=10");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ total: 1000, totalExact: false, hasMore: true });
    expect(idsOf(res, "creditNotes")).toEqual(newestFirst.slice(0, 10));
    const next: Page = await key.get(
      `/api/credit-notes?q=broadleaf&limit=10&starting_after=${newestFirst[9]}`,
    );
    expect(next.body).toMatchObject({ total: 1000, totalExact: false, offset: 10, hasMore: true });
    expect(idsOf(next, "creditNotes")).toEqual(newestFirst.slice(10, 20));
  });

  it("still ranks and counts exactly a search of 1,000 matches or fewer over the same books", async () => {
    const rosewood: Page = await owner.get("/api/credit-notes?q=rosewood&limit=100");
    expect(rosewood.body).toMatchObject({ total: 11, totalExact: true, hasMore: false });
    expect(idsOf(rosewood, "creditNotes")).toEqual(ROSEWOOD_RANKED);
    const paged: Page = await owner.get(
      `/api/credit-notes?q=rosewood&limit=4&starting_after=${ROSEWOOD_RANKED[3]}`,
    );
    expect(paged.body).toMatchObject({ total: 11, totalExact: true, offset: 4, hasMore: true });
    expect(idsOf(paged, "creditNotes")).toEqual(ROSEWOOD_RANKED.slice(4, 8));

    const cedar: Page = await owner.get("/api/credit-notes?q=cedar&limit=10&offset=995");
    expect(cedar.body).toMatchObject({
      total: 1000,
      totalExact: true,
      offset: 995,
      hasMore: false,
    });
    expect(idsOf(cedar, "creditNotes")).toEqual(copyIds.slice(995, 1000));
    // A filter that narrows the broad search to one invoice's 1,000 credit notes.
    const one: Page = await owner.get(
      `/api/credit-notes?q=broadleaf&invoiceId=${cedarInvoice}&limit=1`,
    );
    expect(one.body).toMatchObject({ total: 1000, totalExact: true, hasMore: true });
    expect((await owner.get("/api/credit-notes?q=broadleaf&limit=1")).body.totalExact).toBe(false);
  });
});
