import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { createTestDatabase } from "./helpers/postgres";

/**
 * Search (docs/decisions.md, Search): `q` on GET /api/invoices, /api/quotes and
 * /api/credit-notes. Every word of the query occurs in the document (number, client name,
 * company and email, title, line descriptions), in any case and with or without accents; the
 * best match first without `sort`; combined with filters, sorts and keyset pages; never another
 * wallet's documents.
 */
let app: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let owner: Api;
let stranger: Api;

type Doc = { id: string; number?: string; invoiceNumber?: string };

const ids = (page: { body: Record<string, Doc[]> }, key: string) =>
  page.body[key].map((d: Doc) => d.id);

/** Invoices by name, created in this order (so "newest first" is the reverse). */
const inv: Record<string, Doc> = {};

async function invoice(name: string, overrides: Record<string, unknown>, as: Api = owner) {
  const res = await as.post("/api/invoices", invoiceBody(overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  inv[name] = res.body;
  return res.body as Doc;
}

/** Marks invoices sent in the database (search does not care how; credit notes need it). */
async function markSent(...names: string[]) {
  const list = names.map((n) => inv[n].id);
  await sql`update invoices set status = 'PENDING', sent_at = now() where id in ${sql(list)}`;
}

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startApp({
    DATABASE_URL: db.url,
    RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
    RATE_LIMIT_INVOICES_PER_HOUR: "1000",
  });
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
  owner = client(app.url, (await signIn(app.url)).token);
  stranger = client(app.url, (await signIn(app.url)).token);

  // Ranking: "zork" as the number, starting the client's name, a word of a line; inside a word
  // it is not found.
  await invoice("infix", { clientName: "Bizorkia Ltd" });
  await invoice("line", {
    clientName: "Bob Builder",
    lineItems: [{ description: "Repair the zork engine", quantity: "1", rate: "10" }],
  });
  await invoice("client", { clientName: "Zorkin GmbH" });
  await invoice("number", { invoiceNumber: "INV-ZORK" });
  // Accents, case, company, email, title.
  await invoice("muller", {
    clientName: "Müller & Söhne",
    clientEmail: "kontakt@mueller.example",
    title: "Beratung",
  });
  await invoice("plainMuller", { clientName: "Jo Muller", title: "MULLER CONSULTING" });
  await invoice("acme", {
    clientName: "Jane Doe",
    clientCompany: "Acme Corporation",
    title: "March retainer",
  });
  await invoice("zeta", { clientEmail: "billing@zeta-industries.example" });
  // A list to page through: "garden" in the client (100), the title (40), a line (20).
  for (let i = 0; i < 4; i++) await invoice(`gClient${i}`, { clientName: `Garden Co ${i}` });
  for (let i = 0; i < 4; i++) await invoice(`gTitle${i}`, { title: `Gardens ${i}` });
  for (let i = 0; i < 5; i++) {
    await invoice(`gLine${i}`, {
      lineItems: [
        { description: `Hedge and garden work ${i}`, quantity: "1", rate: String(i + 1) },
      ],
    });
  }
  // Deleted: never found.
  const gone = await invoice("deleted", { clientName: "Zork Deleted" });
  expect((await owner.delete(`/api/invoices/${gone.id}`)).status).toBeLessThan(300);
  // Another wallet's, matching everything searched here.
  await invoice(
    "strangers",
    {
      clientName: "Zorkin Garden Müller",
      clientCompany: "Acme",
      lineItems: [{ description: "zork garden acme", quantity: "1", rate: "1" }],
    },
    stranger,
  );
  await markSent("gClient1", "gTitle2", "gLine3", "gLine4", "client", "line", "strangers");
}, 120_000);

afterAll(async () => {
  await sql?.end();
  await app?.stop();
  await db?.drop();
});

/** Walks a list `limit` at a time with starting_after; each page's counts checked. */
async function walk(api: Api, path: string, key: string, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  const sep = path.includes("?") ? "&" : "?";
  const total = (await api.get(`${path}${sep}limit=100`)).body.total;
  for (;;) {
    const res = await api.get(
      `${path}${sep}limit=${limit}${cursor ? `&starting_after=${cursor}` : ""}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const page = ids(res, key);
    expect(res.body.total).toBe(total);
    expect(res.body.offset).toBe(seen.length);
    seen.push(...page);
    expect(res.body.hasMore).toBe(seen.length < total);
    if (!res.body.hasMore) break;
    cursor = page[page.length - 1];
  }
  return seen;
}

describe("GET /api/invoices?q=", () => {
  const names = (page: { body: { invoices: Doc[] } }) =>
    page.body.invoices.map((d) => Object.keys(inv).find((k) => inv[k].id === d.id));

  it("ranks the number, then the client's name, then a line's word; a word's inside is no match", async () => {
    const res = await owner.get("/api/invoices?q=zork");
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(["number", "client", "line"]);
    expect(res.body.total).toBe(3);
    // The number in any case, its tail alone, a prefix of the client's name.
    expect(names(await owner.get("/api/invoices?q=inv-zork"))[0]).toBe("number");
    expect(names(await owner.get("/api/invoices?q=ZORK"))).toEqual(names(res));
    expect(names(await owner.get("/api/invoices?q=zorki"))).toEqual(["client"]);
    expect(names(await owner.get("/api/invoices?q=bizork"))).toEqual(["infix"]);
    expect(names(await owner.get("/api/invoices?q=zorkin"))).toEqual(["client"]);
  });

  it("finds accents both ways, in any case, by prefix, in the company, email and title", async () => {
    const set = async (q: string) =>
      (names(await owner.get(`/api/invoices?q=${encodeURIComponent(q)}`)) as string[]).sort();
    expect(await set("muller")).toEqual(["muller", "plainMuller"]);
    expect(await set("Müller")).toEqual(["muller", "plainMuller"]);
    expect(await set("MÜ")).toEqual(["muller", "plainMuller"]);
    expect(await set("söhne")).toEqual(["muller"]);
    expect(await set("SOHNE")).toEqual(["muller"]);
    expect(await set("acm")).toEqual(["acme"]);
    expect(await set("acme march")).toEqual(["acme"]);
    expect(await set("zeta-industries")).toEqual(["zeta"]);
    expect(await set("billing@zeta")).toEqual(["zeta"]);
    expect(await set("beratung")).toEqual(["muller"]);
    expect(await set("acme april")).toEqual([]);
    // Another wallet's and deleted invoices are never found.
    expect(await set("zork")).not.toContain("strangers");
    expect(await set("zork")).not.toContain("deleted");
  });

  it("combines with the status filter and an explicit sort", async () => {
    const all = await owner.get("/api/invoices?q=garden");
    expect(names(all)).toEqual([
      ...[3, 2, 1, 0].map((i) => `gClient${i}`),
      ...[3, 2, 1, 0].map((i) => `gTitle${i}`),
      ...[4, 3, 2, 1, 0].map((i) => `gLine${i}`),
    ]);
    const pending = await owner.get("/api/invoices?q=garden&status=PENDING");
    expect(names(pending)).toEqual(["gClient1", "gTitle2", "gLine4", "gLine3"]);
    expect(pending.body.total).toBe(4);
    // An explicit sort orders the matches by it, not by rank.
    const byTotal = await owner.get("/api/invoices?q=garden%20hedge&sort=total:asc");
    expect(names(byTotal)).toEqual([0, 1, 2, 3, 4].map((i) => `gLine${i}`));
    const pendingByNumber = await owner.get(
      "/api/invoices?q=garden&status=PENDING&sort=invoiceNumber:asc",
    );
    expect(names(pendingByNumber)).toEqual(["gClient1", "gTitle2", "gLine3", "gLine4"]);
  });

  it("pages through a ranked search with starting_after: every match once, in rank order", async () => {
    const whole = ids(await owner.get("/api/invoices?q=garden&limit=100"), "invoices");
    expect(whole).toHaveLength(13);
    for (const limit of [1, 2, 5]) {
      expect(await walk(owner, "/api/invoices?q=garden", "invoices", limit)).toEqual(whole);
    }
    const sorted = ids(await owner.get("/api/invoices?q=garden&sort=total:desc"), "invoices");
    expect(await walk(owner, "/api/invoices?q=garden&sort=total:desc", "invoices", 2)).toEqual(
      sorted,
    );
    // Offset pages agree with the ranking too.
    const second = await owner.get("/api/invoices?q=garden&limit=5&offset=5");
    expect(ids(second, "invoices")).toEqual(whole.slice(5, 10));
    // A cursor that does not match q still places the page: after it in the ranking.
    const afterOther = await owner.get(
      `/api/invoices?q=garden&starting_after=${inv.acme.id}&limit=100`,
    );
    expect(afterOther.status).toBe(200);
    expect(ids(afterOther, "invoices").every((id) => whole.includes(id))).toBe(true);
    // Another wallet's invoice as the cursor is a 400, as without q.
    const foreign = await owner.get(`/api/invoices?q=garden&starting_after=${inv.strangers.id}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body.details).toHaveProperty("starting_after");
  });

  it("follows edits: new lines and a new client name are found, the old ones no more", async () => {
    const draft = await invoice("edited", { clientName: "Quentin Old" });
    const edit = await owner.patch(`/api/invoices/${draft.id}`, {
      clientName: "Quokka Newname",
      lineItems: [{ description: "Platypus grooming", quantity: "1", rate: "5" }],
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(ids(await owner.get("/api/invoices?q=quokka"), "invoices")).toEqual([draft.id]);
    expect(ids(await owner.get("/api/invoices?q=platyp"), "invoices")).toEqual([draft.id]);
    expect(ids(await owner.get("/api/invoices?q=quentin"), "invoices")).toEqual([]);
  });

  it("answers 400 naming q when it is empty or longer than 200 characters once trimmed", async () => {
    for (const q of ["", "%20%20%20", "x".repeat(201)]) {
      const res = await owner.get(`/api/invoices?q=${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.details).toHaveProperty("q");
    }
    const padded = await owner.get(`/api/invoices?q=%20%20${"x".repeat(200)}%20%20`);
    expect(padded.status).toBe(200);
    expect(padded.body.total).toBe(0);
    // Only punctuation: no word, nothing found (not everything).
    const punct = await owner.get(`/api/invoices?q=${encodeURIComponent("%_-")}`);
    expect(punct.status).toBe(200);
    expect(punct.body.total).toBe(0);
  });
});

describe("GET /api/invoices?q= matching more than 1,000 invoices (a broad search)", () => {
  // Books of their own: one invoice through the API, 1,004 copies written by SQL (the search
  // triggers fold their text as for any insert), numbered BRD-0001..BRD-1004, each a second
  // newer than the one before.
  let bulk: Api;
  const numbers = (page: { body: { invoices: { invoiceNumber: string }[] } }) =>
    page.body.invoices.map((i) => i.invoiceNumber);
  const brd = (n: number) => `BRD-${String(n).padStart(4, "0")}`;
  /** The 1,005 matches newest first: BRD-1004 … BRD-0001, then the original. */
  let newestFirst: string[];

  beforeAll(async () => {
    bulk = client(app.url, (await signIn(app.url)).token);
    const res = await bulk.post(
      "/api/invoices",
      invoiceBody({ clientName: "Broadway Bakery", title: "Bread" }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await sql`
      insert into invoices
      select (jsonb_populate_record(null::invoices, to_jsonb(i) || jsonb_build_object(
        'id', gen_random_uuid(),
        'invoice_number', 'BRD-' || lpad(g::text, 4, '0'),
        'muxed_id', (9000000000000000 + g)::text,
        'created_at', i.created_at + g * interval '1 second'))).*
      from invoices i, generate_series(1, 1004) g
      where i.id = ${res.body.id}`;
    newestFirst = [
      ...Array.from({ length: 1004 }, (_, k) => brd(1004 - k)),
      res.body.invoiceNumber,
    ];
  }, 60_000);

  it("says more than 1,000, is not ranked and lists the matches newest first, pages included", async () => {
    const first = await bulk.get("/api/invoices?q=broadway&limit=20");
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ total: 1000, totalExact: false, offset: 0, hasMore: true });
    expect(numbers(first)).toEqual(newestFirst.slice(0, 20));
    // The last offset page: the 5 past the thousandth, nothing after.
    const last = await bulk.get("/api/invoices?q=broadway&limit=20&offset=1000");
    expect(last.body).toMatchObject({ total: 1000, totalExact: false, hasMore: false });
    expect(numbers(last)).toEqual(newestFirst.slice(1000));
    // With a sort, that order.
    const sorted = await bulk.get("/api/invoices?q=bakery&sort=invoiceNumber:asc&limit=3");
    expect(sorted.body.totalExact).toBe(false);
    expect(numbers(sorted)).toEqual([brd(1), brd(2), brd(3)]);
  });

  it("walks by starting_after: every match once, in order, each page's offset right", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const res = await bulk.get(
        `/api/invoices?q=broadway&limit=100${cursor ? `&starting_after=${cursor}` : ""}`,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ total: 1000, totalExact: false, offset: seen.length });
      seen.push(...numbers(res));
      expect(res.body.hasMore).toBe(seen.length < newestFirst.length);
      if (!res.body.hasMore) break;
      cursor = res.body.invoices.at(-1).id;
    }
    expect(seen).toEqual(newestFirst);
  });

  it("a narrower search of the same books (1,000 matches or fewer) is counted exactly", async () => {
    // "brd 100" finds BRD-1000..BRD-1004 (5), and "brd 1002" is BRD-1002's number: first.
    const narrow = await bulk.get("/api/invoices?q=brd%20100");
    expect(narrow.body).toMatchObject({ total: 5, totalExact: true, hasMore: false });
    const exact = await bulk.get("/api/invoices?q=brd%201002");
    expect(exact.body).toMatchObject({ total: 1, totalExact: true });
    expect(numbers(exact)).toEqual([brd(1002)]);
    // The other searches of this file stay exact.
    const garden = await owner.get("/api/invoices?q=garden");
    expect(garden.body).toMatchObject({ total: 13, totalExact: true });
  });
});

describe("GET /api/quotes?q=", () => {
  const quote: Record<string, Doc> = {};
  const body = (overrides: Record<string, unknown>) => ({
    clientName: "Ada Client",
    clientEmail: "ada@example.com",
    title: "Website redesign",
    currency: "XLM",
    lineItems: [{ description: "Design", quantity: "1", rate: "100" }],
    ...overrides,
  });
  const names = (page: { body: { quotes: Doc[] } }) =>
    page.body.quotes.map((d) => Object.keys(quote).find((k) => quote[k].id === d.id));

  beforeAll(async () => {
    const make = async (name: string, overrides: Record<string, unknown>, as = owner) => {
      const res = await as.post("/api/quotes", body(overrides));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      quote[name] = res.body;
    };
    await make("infix", { clientName: "Bizorkia" });
    await make("line", {
      lineItems: [{ description: "Zork maintenance", quantity: "1", rate: "3" }],
    });
    await make("title", { title: "Zork portal" });
    await make("client", { clientName: "Zörkin AG" });
    await make("company", { clientName: "Jane", clientCompany: "Acme Studios" });
    for (let i = 0; i < 5; i++) await make(`g${i}`, { title: `Garden ${i}` });
    await make("strangers", { clientName: "Zorkin", title: "Garden" }, stranger);
    await sql`update sales_quotes set status = 'SENT', sent_at = now() where id in ${sql([quote.g1.id, quote.g3.id])}`;
  });

  it("ranks, folds accents and case, finds the number and the company", async () => {
    const res = await owner.get("/api/quotes?q=ZORK");
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(["client", "title", "line"]);
    const n = quote.title.number as string;
    expect(names(await owner.get(`/api/quotes?q=${n.toLowerCase()}`))).toEqual(["title"]);
    expect(names(await owner.get("/api/quotes?q=zorkin"))).toEqual(["client"]);
    expect(names(await owner.get("/api/quotes?q=acm"))).toEqual(["company"]);
  });

  it("combines with status and sort, and pages with starting_after", async () => {
    expect(names(await owner.get("/api/quotes?q=garden&status=SENT"))).toEqual(["g3", "g1"]);
    expect(names(await owner.get("/api/quotes?q=garden&sort=number:asc"))).toEqual(
      [0, 1, 2, 3, 4].map((i) => `g${i}`),
    );
    const whole = ids(await owner.get("/api/quotes?q=garden"), "quotes");
    expect(whole).toHaveLength(5);
    expect(await walk(owner, "/api/quotes?q=garden", "quotes", 2)).toEqual(whole);
    expect(await walk(owner, "/api/quotes?q=zork", "quotes", 1)).toEqual(
      ids(await owner.get("/api/quotes?q=zork"), "quotes"),
    );
  });

  it("answers 400 naming q", async () => {
    const res = await owner.get("/api/quotes?q=%20");
    expect(res.status).toBe(400);
    expect(res.body.details).toHaveProperty("q");
    const punct = await owner.get(`/api/quotes?q=${encodeURIComponent("#!")}`);
    expect(punct.status).toBe(200);
    expect(punct.body.total).toBe(0);
  });
});

describe("GET /api/credit-notes?q=", () => {
  const note: Record<string, Doc> = {};
  const names = (page: { body: { creditNotes: Doc[] } }) =>
    page.body.creditNotes.map((d) => Object.keys(note).find((k) => note[k].id === d.id));
  const credit = async (name: string, invoiceName: string, reason: string, as = owner) => {
    const res = await as.post(`/api/invoices/${inv[invoiceName].id}/credit-notes`, {
      reason,
      amount: "1",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    note[name] = res.body;
  };

  beforeAll(async () => {
    await invoice("cnLine", {
      clientName: "Bob",
      lineItems: [{ description: "Work", quantity: "1", rate: "100" }],
    });
    await invoice("cnClient", { clientName: "Würfel Zorkington" });
    await invoice("cnGarden", { clientName: "Greenhouse Co" });
    await markSent("cnLine", "cnClient", "cnGarden");
    await credit("reason", "cnLine", "Zork hours not worked");
    await credit("client", "cnClient", "Goodwill");
    for (let i = 0; i < 4; i++) await credit(`g${i}`, "cnGarden", `Discount ${i}`);
    await credit("strangers", "strangers", "Zork greenhouse", stranger);
  });

  it("ranks the number, then the client, then the reason; folds accents; never another wallet's", async () => {
    expect(names(await owner.get("/api/credit-notes?q=zork"))).toEqual(["client", "reason"]);
    expect(names(await owner.get("/api/credit-notes?q=wurfel"))).toEqual(["client"]);
    const n = note.reason.number as string;
    expect(names(await owner.get(`/api/credit-notes?q=${n}`))[0]).toBe("reason");
    // The invoice's number finds its credit notes.
    const byInvoice = await owner.get(`/api/credit-notes?q=${inv.cnGarden.invoiceNumber}`);
    expect((names(byInvoice) as string[]).sort()).toEqual(["g0", "g1", "g2", "g3"]);
  });

  it("pages with starting_after, with and without q, and combines with invoiceId", async () => {
    const whole = ids(await owner.get("/api/credit-notes?q=greenhouse"), "creditNotes");
    expect(names(await owner.get("/api/credit-notes?q=greenhouse"))).toEqual([
      "g3",
      "g2",
      "g1",
      "g0",
    ]);
    expect(await walk(owner, "/api/credit-notes?q=greenhouse", "creditNotes", 3)).toEqual(whole);
    expect(await walk(owner, "/api/credit-notes?q=zork", "creditNotes", 1)).toEqual(
      ids(await owner.get("/api/credit-notes?q=zork"), "creditNotes"),
    );
    // Without q: newest first, as the offset pages.
    const all = ids(await owner.get("/api/credit-notes?limit=100"), "creditNotes");
    expect(all).toHaveLength(6);
    expect(await walk(owner, "/api/credit-notes", "creditNotes", 4)).toEqual(all);
    const filtered = await owner.get(`/api/credit-notes?q=zork&invoiceId=${inv.cnLine.id}`);
    expect(names(filtered)).toEqual(["reason"]);
    const foreign = await owner.get(`/api/credit-notes?starting_after=${note.strangers.id}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body.details).toHaveProperty("starting_after");
    const both = await owner.get(`/api/credit-notes?starting_after=${note.g1.id}&offset=1`);
    expect(both.status).toBe(400);
    expect(both.body.details).toHaveProperty("offset");
  });

  it("answers 400 naming q", async () => {
    const res = await owner.get(`/api/credit-notes?q=${"y".repeat(201)}`);
    expect(res.status).toBe(400);
    expect(res.body.details).toHaveProperty("q");
    const punct = await owner.get(`/api/credit-notes?q=${encodeURIComponent("?")}`);
    expect(punct.status).toBe(200);
    expect(punct.body.total).toBe(0);
  });
});
