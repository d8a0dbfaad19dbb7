import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { createTestDatabase } from "./helpers/postgres";

/**
 * Keyset paging of the invoice list, `starting_after=<invoice id>` (docs/decisions.md,
 * Invoice list): walked page by page it gives every invoice once, in the order of the sort,
 * through ties (equal timestamps down to the microsecond, equal totals, undated invoices).
 */
let app: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let owner: Api;
let wallet: string;
let stranger: Api;
let strangersInvoice: string;

const COUNT = 23;
const SORTS = ["createdAt", "updatedAt", "dueDate", "total", "invoiceNumber", "status"].flatMap(
  (f) => [`${f}:desc`, `${f}:asc`],
);

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startApp({
    DATABASE_URL: db.url,
    RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
    RATE_LIMIT_INVOICES_PER_HOUR: "1000",
  });
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
  const a = await signIn(app.url);
  owner = client(app.url, a.token);
  wallet = a.wallet;
  stranger = client(app.url, (await signIn(app.url)).token);
  for (let i = 0; i < COUNT; i++) {
    const rate = String(10 + (i % 4)); // totals tie in fours
    const res = await owner.post(
      "/api/invoices",
      invoiceBody({ lineItems: [{ description: "Work", quantity: "1", rate }] }),
    );
    expect(res.status).toBe(201);
  }
  const other = await stranger.post("/api/invoices", invoiceBody());
  strangersInvoice = other.body.id;
  // Ties: created_at in groups of three sharing one microsecond timestamp, updated_at all
  // equal, due dates in pairs with every fifth invoice undated.
  await sql`
    with n as (
      select id, row_number() over (order by id) as rn from invoices where freelancer_wallet = ${wallet}
    )
    update invoices i set
      created_at = timestamptz '2026-01-01 00:00:00.123456+00' + (n.rn / 3) * interval '1.000001 second',
      updated_at = timestamptz '2026-02-01 00:00:00.000001+00',
      due_date = case when n.rn % 5 = 0 then null
        else timestamptz '2099-01-01 00:00:00+00' + (n.rn / 2) * interval '1 day' end
    from n where i.id = n.id`;
  const sent = await owner.post(`/api/invoices/${(await ids("createdAt:desc"))[4]}/send`);
  expect(sent.status).toBe(200);
});

afterAll(async () => {
  await sql?.end();
  await app?.stop();
  await db?.drop();
});

/** The whole list in one page (offset paging), in the sort's order. */
async function ids(sort: string, filter = ""): Promise<string[]> {
  const res = await owner.get(`/api/invoices?limit=100&sort=${sort}${filter}`);
  expect(res.status).toBe(200);
  return res.body.invoices.map((i: { id: string }) => i.id);
}

/** Walks the list `limit` at a time with starting_after; checks each page's counts. */
async function walk(sort: string, limit: number, filter = ""): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const after = cursor ? `&starting_after=${cursor}` : "";
    const res = await owner.get(`/api/invoices?limit=${limit}&sort=${sort}${filter}${after}`);
    expect(res.status, `${sort} ${JSON.stringify(res.body)}`).toBe(200);
    const page = res.body.invoices.map((i: { id: string }) => i.id);
    expect(res.body.offset, sort).toBe(seen.length);
    expect(res.body.limit).toBe(limit);
    seen.push(...page);
    expect(res.body.hasMore, sort).toBe(seen.length < res.body.total);
    if (!res.body.hasMore) return seen;
    cursor = page[page.length - 1];
  }
  throw new Error("the walk did not end");
}

describe("starting_after", () => {
  it("the default order (created_at desc, id desc) in the database, ties included", async () => {
    const expected = await sql`select id from invoices
      where freelancer_wallet = ${wallet} and deleted_at is null and kind = 'INVOICE'
      order by created_at desc, id desc`;
    const walked = await walk("createdAt:desc", 4);
    expect(walked).toEqual(expected.map((r) => r.id));
    const [{ ties }] = await sql`select count(*)::int as ties from (select created_at from invoices
      where freelancer_wallet = ${wallet} group by created_at having count(*) > 1) t`;
    expect(ties).toBeGreaterThan(5);
    // The default sort, asked for by leaving sort out.
    const first = await owner.get("/api/invoices?limit=4");
    const next = await owner.get(
      `/api/invoices?limit=4&starting_after=${first.body.invoices[3].id}`,
    );
    expect(next.body.invoices.map((i: { id: string }) => i.id)).toEqual(walked.slice(4, 8));
    expect(next.body).toMatchObject({ total: COUNT, offset: 4, hasMore: true });
  });

  it("walks every sort both ways, page by page, giving every invoice once in order", async () => {
    for (const sort of SORTS) {
      const all = await ids(sort);
      expect(all, sort).toHaveLength(COUNT);
      for (const limit of [1, 3, 7]) {
        expect(await walk(sort, limit), `${sort} by ${limit}`).toEqual(all);
      }
    }
  });

  it("keeps to the filters, and pages through a filtered list", async () => {
    const filter = "&status=DRAFT&currency=XLM";
    const all = await ids("total:desc", filter);
    expect(all).toHaveLength(COUNT - 1);
    expect(await walk("total:desc", 5, filter)).toEqual(all);
    // A cursor outside the filter (the sent invoice) still marks a place in the order.
    const everything = await ids("createdAt:desc");
    const res = await owner.get(
      `/api/invoices?limit=100&status=DRAFT&starting_after=${everything[4]}`,
    );
    expect(res.status).toBe(200);
    const drafts = await ids("createdAt:desc", "&status=DRAFT");
    expect(res.body.invoices.map((i: { id: string }) => i.id)).toEqual(
      drafts.filter((id) => everything.indexOf(id) > 4),
    );
    expect(res.body.offset).toBe(4);
  });

  it("a cursor deleted after its page was read still works", async () => {
    const all = await ids("createdAt:desc");
    const first = await owner.get("/api/invoices?limit=3");
    const last = first.body.invoices[2].id;
    const [row] = await sql`select status from invoices where id = ${last}`;
    expect(row.status).toBe("DRAFT");
    expect((await owner.delete(`/api/invoices/${last}`)).status).toBe(200);
    const next = await owner.get(`/api/invoices?limit=3&starting_after=${last}`);
    expect(next.status).toBe(200);
    expect(next.body.invoices.map((i: { id: string }) => i.id)).toEqual(all.slice(3, 6));
    expect(next.body).toMatchObject({ total: COUNT - 1, offset: 2 });
  });

  it("the last page is empty after the last invoice, with the counts", async () => {
    const all = await ids("createdAt:desc");
    const res = await owner.get(`/api/invoices?starting_after=${all[all.length - 1]}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      invoices: [],
      total: all.length,
      offset: all.length,
      hasMore: false,
    });
  });

  it("Form A pages the same way", async () => {
    const all = await ids("createdAt:desc");
    const res = await owner.get(`/api/invoices?envelope=true&limit=2&starting_after=${all[1]}`);
    expect(res.status).toBe(200);
    expect(res.body.data.items.map((i: { id: string }) => i.id)).toEqual(all.slice(2, 4));
    expect(res.body.data.offset).toBe(2);
  });

  it("an unknown id and another wallet's are the same 400; offset with it is a 400", async () => {
    const unknown = await owner.get("/api/invoices?starting_after=nosuchinvoice0000000000");
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe("Invalid request");
    expect(unknown.body.details).toEqual({ starting_after: "No such invoice" });
    const foreign = await owner.get(`/api/invoices?starting_after=${strangersInvoice}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual(unknown.body);
    // The stranger's own cursor works for the stranger.
    const own = await stranger.get(`/api/invoices?starting_after=${strangersInvoice}`);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ invoices: [], total: 1, offset: 1 });

    const both = await owner.get(
      `/api/invoices?offset=0&starting_after=${(await ids("createdAt:desc"))[0]}`,
    );
    expect(both.status).toBe(400);
    expect(both.body.details.offset).toBe("Use either offset or starting_after, not both");
    for (const q of ["starting_after=", `starting_after=${"x".repeat(65)}`]) {
      const res = await owner.get(`/api/invoices?${q}`);
      expect(res.status, q).toBe(400);
    }
  });

  it("through an API key, an invoice on the key's other network is no cursor", async () => {
    const live = await owner.post("/api/invoices", invoiceBody({ network: "mainnet" }));
    expect(live.status).toBe(201);
    const created = await owner.post("/api/keys", {
      name: "Test reads",
      scopes: ["invoices:read"],
      network: "testnet",
    });
    expect(created.status).toBe(201);
    const key = client(app.url, created.body.secret);
    const other = await key.get(`/api/invoices?starting_after=${live.body.id}`);
    expect(other.status).toBe(400);
    expect(other.body.details).toEqual({ starting_after: "No such invoice" });
    const first = (await ids("createdAt:desc", "&network=testnet"))[0];
    const same = await key.get(`/api/invoices?limit=2&starting_after=${first}`);
    expect(same.status).toBe(200);
    expect(same.body.offset).toBe(1);
  });
});
