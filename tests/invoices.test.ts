import { Keypair } from "@stellar/stellar-sdk";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { createTestDatabase } from "./helpers/postgres";

let app: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let alice: Api;
let aliceWallet: string;
let aliceToken: string;
let bob: Api;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startApp({
    DATABASE_URL: db.url,
    RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
    RATE_LIMIT_INVOICES_PER_HOUR: "1000",
  });
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
  const a = await signIn(app.url);
  aliceWallet = a.wallet;
  aliceToken = a.token;
  alice = client(app.url, a.token);
  bob = client(app.url, (await signIn(app.url)).token);
});

afterAll(async () => {
  await sql?.end();
  await app?.stop();
  await db?.drop();
});

async function counts(invoiceId: string) {
  const [{ audits }] =
    await sql`select count(*)::int as audits from invoice_audit_logs where invoice_id = ${invoiceId}`;
  const [{ events }] =
    await sql`select count(*)::int as events from events where invoice_id = ${invoiceId}`;
  return { audits, events };
}

async function snapshot() {
  const [row] = await sql`select
      (select count(*) from invoices)::int as invoices,
      (select count(*) from invoice_line_items)::int as items,
      (select count(*) from invoice_audit_logs)::int as audits,
      (select count(*) from events)::int as events,
      (select coalesce(md5(string_agg(i::text, ',' order by i.id)), '') from invoices i) as checksum`;
  return row;
}

describe("create", () => {
  it("creates a DRAFT invoice with exact totals (Form B)", async () => {
    const res = await alice.post(
      "/api/invoices",
      invoiceBody({
        taxRate: "10",
        discount: "50",
        lineItems: [{ description: "Retainer", quantity: 1, rate: "1000" }],
      }),
    );
    expect(res.status).toBe(201);
    const inv = res.body;
    expect(inv.status).toBe("DRAFT");
    expect(inv.invoiceNumber).toMatch(/^INV-\d{4,}$/);
    expect(inv.freelancerWallet).toBe(aliceWallet);
    expect(inv.subtotal).toBe("1000.0000000");
    expect(inv.taxRate).toBe("10.00");
    expect(inv.taxAmount).toBe("100.0000000");
    expect(inv.discount).toBe("50.0000000");
    expect(inv.total).toBe("1050.0000000");
    expect(inv.networkPassphrase).toBe("Test SDF Network ; September 2015");
    expect(inv.lineItems).toHaveLength(1);
    expect(inv.lineItems[0]).toMatchObject({
      quantity: "1.00",
      rate: "1000.0000000",
      amount: "1000.0000000",
    });
    expect(inv.auditLogs.map((a: any) => a.action)).toEqual(["CREATED"]);
    expect(inv.paymentLink).toBe(`${app.url}/pay/${inv.id}`);
    expect(await counts(inv.id)).toEqual({ audits: 1, events: 1 });
    const [event] = await sql`select type, data from events where invoice_id = ${inv.id}`;
    expect(event.type).toBe("invoice.created");
    expect(event.data).toMatchObject({
      id: inv.id,
      total: "1050.0000000",
      currency: "XLM",
      status: "DRAFT",
    });
  });

  it("accepts Form A (items, numbers, amount cross-check) and answers Form A", async () => {
    const res = await alice.post("/api/invoices?envelope=true", {
      clientName: "Form A Co",
      clientEmail: "a@example.com",
      amount: 0.3,
      currency: "USDC",
      network: "mainnet",
      items: [{ description: "Tiny", quantity: 3, rate: 0.1 }],
    });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    const d = res.body.data;
    expect(d.amount).toBe(0.3);
    expect(d.totalAmount).toBe(0.3);
    expect(d.items[0]).toMatchObject({ quantity: 3, rate: 0.1, amount: 0.3 });
    expect(d.paymentLink).toBe(`${app.url}/pay/${d.id}`);
    expect(d.networkPassphrase).toBe("Public Global Stellar Network ; September 2015");
    expect(d.auditLog[0]).toMatchObject({ action: "CREATED", actorWallet: aliceWallet });
    expect(d.status).toBe("DRAFT");
  });

  it("rounds half up: 1.5 x 0.3333333 = 0.5", async () => {
    const res = await alice.post(
      "/api/invoices",
      invoiceBody({ lineItems: [{ description: "x", quantity: "1.5", rate: "0.3333333" }] }),
    );
    expect(res.status).toBe(201);
    expect(res.body.lineItems[0].amount).toBe("0.5000000");
    expect(res.body.total).toBe("0.5000000");
  });

  it("rejects an amount that does not match the computed subtotal", async () => {
    const before = await snapshot();
    const res = await alice.post("/api/invoices", {
      ...invoiceBody(),
      lineItems: undefined,
      items: [{ description: "a", quantity: 1, rate: 10 }],
      amount: 11,
    });
    expect(res.status).toBe(400);
    expect(res.body.details.amount).toBeTruthy();
    expect(await snapshot()).toEqual(before);
  });

  it("rejects a discount that makes the total 0 or less, writing nothing", async () => {
    const before = await snapshot();
    const res = await alice.post(
      "/api/invoices",
      invoiceBody({ lineItems: [{ description: "a", quantity: "1", rate: "50" }], discount: "50" }),
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("VALIDATION_ERROR");
    expect(await snapshot()).toEqual(before);
  });

  it("403 when freelancerWallet is another wallet", async () => {
    const res = await alice.post(
      "/api/invoices",
      invoiceBody({ freelancerWallet: Keypair.random().publicKey() }),
    );
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("Freelancer wallet must match authenticated wallet");
    const same = await alice.post("/api/invoices", invoiceBody({ freelancerWallet: aliceWallet }));
    expect(same.status).toBe(201);
  });

  it("400 Invalid Stellar address for a malformed freelancerWallet", async () => {
    const res = await alice.post("/api/invoices", invoiceBody({ freelancerWallet: "GNOTAWALLET" }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Invalid Stellar address");
  });

  it("400 Invalid network passphrase", async () => {
    const res = await alice.post("/api/invoices", invoiceBody({ networkPassphrase: "Futurenet" }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Invalid network passphrase");
  });

  it("validates fields with details", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ clientEmail: "not-an-email" }, "clientEmail"],
      [{ clientName: "x".repeat(101) }, "clientName"],
      [{ notes: "n".repeat(501) }, "notes"],
      [{ taxRate: "100.01" }, "taxRate"],
      [{ discount: "-1" }, "discount"],
      [{ currency: "BTC" }, "currency"],
      [{ lineItems: [] }, "lineItems"],
      [{ lineItems: [{ description: "a", quantity: "0", rate: "1" }] }, "lineItems.0.quantity"],
      [
        { lineItems: [{ description: "a", quantity: "1", rate: "0.12345678" }] },
        "lineItems.0.rate",
      ],
      [
        { lineItems: [{ description: "d".repeat(201), quantity: "1", rate: "1" }] },
        "lineItems.0.description",
      ],
      [{ dueDate: "yesterday" }, "dueDate"],
      [{ status: "PAID" }, "body"],
    ];
    for (const [override, field] of cases) {
      const res = await alice.post("/api/invoices", invoiceBody(override));
      expect(res.status, JSON.stringify(override)).toBe(400);
      expect(Object.keys(res.body.details ?? {}).join(","), JSON.stringify(override)).toContain(
        field,
      );
    }
  });

  it("supplied numbers must be valid and unused by the wallet (409)", async () => {
    const number = `INV-CUSTOM-${Date.now().toString(36).toUpperCase()}`;
    const first = await alice.post("/api/invoices", invoiceBody({ invoiceNumber: number }));
    expect(first.status).toBe(201);
    expect(first.body.invoiceNumber).toBe(number);
    const second = await alice.post("/api/invoices", invoiceBody({ invoiceNumber: number }));
    expect(second.status).toBe(409);
    expect(second.body.error).toBe("Invoice number already exists");
    // Numbers belong to their freelancer: another wallet may use the same one.
    const other = await bob.post("/api/invoices", invoiceBody({ invoiceNumber: number }));
    expect(other.status).toBe(201);
    expect(other.body.invoiceNumber).toBe(number);
    const bad = await alice.post("/api/invoices", invoiceBody({ invoiceNumber: "INV-has space" }));
    expect(bad.status).toBe(400);
    const blank = await alice.post("/api/invoices", invoiceBody({ invoiceNumber: "" }));
    expect(blank.status).toBe(201);
    expect(blank.body.invoiceNumber).toMatch(/^INV-\d{4,}$/);
  });

  it("a supplied number in the generated range is skipped by the generator", async () => {
    const [{ last }] =
      await sql`select last::int as last from invoice_number_counters where wallet = ${aliceWallet}`;
    const taken = `INV-${String(last + 1).padStart(4, "0")}`;
    expect((await alice.post("/api/invoices", invoiceBody({ invoiceNumber: taken }))).status).toBe(
      201,
    );
    const next = await alice.post("/api/invoices", invoiceBody());
    expect(next.status).toBe(201);
    expect(next.body.invoiceNumber).toBe(`INV-${String(last + 2).padStart(4, "0")}`);
  });

  it("saveClient upserts the client, favoriteClient marks it", async () => {
    const email = `Saved.${Date.now()}@Example.com `;
    const res = await alice.post(
      "/api/invoices",
      invoiceBody({
        clientEmail: email.trim(),
        clientName: "Saved Co",
        saveClient: true,
        favoriteClient: true,
      }),
    );
    expect(res.status).toBe(201);
    const list = await alice.get("/api/clients");
    const saved = list.body.find((c: any) => c.email === email.trim().toLowerCase());
    expect(saved).toMatchObject({ name: "Saved Co", isFavorite: true });
  });

  it("50 concurrent creates from one wallet get 50 distinct consecutive numbers", async () => {
    const carol = client(app.url, (await signIn(app.url)).token);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => carol.post("/api/invoices", invoiceBody())),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
    const numbers = results.map((r) => Number(r.body.invoiceNumber.slice(4))).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(50);
    expect(numbers[49] - numbers[0]).toBe(49);
  });

  it("two wallets creating at once never collide", async () => {
    const dave = client(app.url, (await signIn(app.url)).token);
    const erin = client(app.url, (await signIn(app.url)).token);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? dave : erin).post("/api/invoices", invoiceBody()),
      ),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    // Each wallet counts on its own: both get INV-0001..INV-0020.
    for (const parity of [0, 1]) {
      const numbers = results.filter((_, i) => i % 2 === parity).map((r) => r.body.invoiceNumber);
      expect(numbers.sort()).toEqual(
        Array.from({ length: 20 }, (_, i) => `INV-${String(i + 1).padStart(4, "0")}`),
      );
    }
    const [{ dupes }] =
      await sql`select count(*)::int as dupes from (select freelancer_wallet, invoice_number from invoices group by 1, 2 having count(*) > 1) d`;
    expect(dupes).toBe(0);
  });
});

describe("lifecycle", () => {
  async function draft(api = alice) {
    const res = await api.post("/api/invoices", invoiceBody());
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  it("send moves DRAFT to PENDING with one audit entry and one event", async () => {
    const id = await draft();
    const res = await alice.post(`/api/invoices/${id}/send`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: "PENDING" });
    expect(res.body.sentAt).toBeTruthy();
    expect(await counts(id)).toEqual({ audits: 2, events: 2 });
    const [audit] =
      await sql`select action, actor_wallet, changes from invoice_audit_logs where invoice_id = ${id} and action = 'SENT'`;
    expect(audit.changes).toEqual({ status: { from: "DRAFT", to: "PENDING" } });
    expect(audit.actor_wallet).toBe(aliceWallet);
    const [event] =
      await sql`select data from events where invoice_id = ${id} and type = 'invoice.sent'`;
    expect(event.data).toMatchObject({ id, status: "PENDING", previousStatus: "DRAFT" });

    const other = await draft();
    const a = await alice.post(`/api/invoices/${other}/send?envelope=true`);
    expect(a.body.data).toMatchObject({
      status: "PENDING",
      paymentLink: `${app.url}/pay/${other}`,
    });
  });

  it("after send: PATCH, DELETE and send again are 400s, and nothing changes", async () => {
    const id = await draft();
    await alice.post(`/api/invoices/${id}/send`);
    const before = await snapshot();
    const patch = await alice.patch(`/api/invoices/${id}`, { title: "changed" });
    expect(patch.status).toBe(400);
    expect(patch.body.error).toBe("Only invoices in DRAFT status can be modified");
    const del = await alice.delete(`/api/invoices/${id}`);
    expect(del.status).toBe(400);
    expect(del.body.error).toBe("Only invoices in DRAFT status can be modified");
    const again = await alice.post(`/api/invoices/${id}/send`);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("Invoice cannot be sent. Current status: PENDING");
    expect(await snapshot()).toEqual(before);
  });

  it("cancel from every state: legal ones move to CANCELLED, others are 400", async () => {
    const statuses = ["DRAFT", "PENDING", "PROCESSING", "FAILED", "EXPIRED", "PAID", "CANCELLED"];
    for (const status of statuses) {
      const id = await draft();
      await sql`update invoices set status = ${status} where id = ${id}`;
      const before = await counts(id);
      const res = await alice.post(`/api/invoices/${id}/cancel`, { reason: "client left" });
      if (status === "PAID" || status === "CANCELLED") {
        expect(res.status, status).toBe(400);
        expect(res.body.error).toBe(`Invoice cannot be cancelled. Current status: ${status}`);
        expect(await counts(id)).toEqual(before);
      } else {
        expect(res.status, status).toBe(200);
        expect(res.body.status).toBe("CANCELLED");
        expect(await counts(id)).toEqual({ audits: before.audits + 1, events: before.events + 1 });
        const [event] =
          await sql`select data from events where invoice_id = ${id} and type = 'invoice.cancelled'`;
        expect(event.data).toMatchObject({
          previousStatus: status,
          cancelledBy: aliceWallet,
          reason: "client left",
        });
      }
    }
  });

  it("PATCH edits a draft, recomputes totals and records a diff", async () => {
    const id = await draft();
    const res = await alice.patch(`/api/invoices/${id}`, {
      title: "New title",
      lineItems: [{ description: "Only", quantity: "2", rate: "10" }],
      taxRate: "5",
    });
    expect(res.status).toBe(200);
    expect(res.body.title).toBe("New title");
    expect(res.body.subtotal).toBe("20.0000000");
    expect(res.body.total).toBe("21.0000000");
    expect(res.body.lineItems).toHaveLength(1);
    const updated = res.body.auditLogs.find((a: any) => a.action === "UPDATED");
    expect(updated.changes.title).toEqual({ from: "Website work", to: "New title" });
    expect(updated.changes.total).toEqual({ from: "1001.0000000", to: "21.0000000" });
    expect(updated.changes.lineItems).toBeTruthy();
    expect(updated.changes.clientName).toBeUndefined();

    const noop = await alice.patch(`/api/invoices/${id}`, { title: "New title" });
    expect(noop.status).toBe(200);
    expect(noop.body.auditLogs.filter((a: any) => a.action === "UPDATED")).toHaveLength(1);

    const status = await alice.patch(`/api/invoices/${id}`, { status: "PAID" });
    expect(status.status).toBe(400);
  });

  it("DELETE soft-deletes a draft: 404 afterwards, audit DELETED kept", async () => {
    const id = await draft();
    const res = await alice.delete(`/api/invoices/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await alice.get(`/api/invoices/${id}/owner`)).status).toBe(404);
    const pub = await client(app.url).get(`/api/invoices/${id}`);
    expect(pub.status).toBe(404);
    expect(pub.body.error).toBe("Invoice not found");
    const [row] = await sql`select deleted_at from invoices where id = ${id}`;
    expect(row.deleted_at).toBeTruthy();
    const actions =
      await sql`select action from invoice_audit_logs where invoice_id = ${id} order by created_at`;
    expect(actions.map((a) => a.action)).toEqual(["CREATED", "DELETED"]);
    const a = await alice.delete(`/api/invoices/${await draft()}?envelope=true`);
    expect(a.body).toMatchObject({
      success: true,
      data: { message: "Invoice deleted successfully" },
    });
  });

  it("every owner-only endpoint refuses another wallet with 403 and changes nothing", async () => {
    const id = await draft();
    const before = await snapshot();
    const calls = [
      () => bob.get(`/api/invoices/${id}/owner`),
      () => bob.patch(`/api/invoices/${id}`, { title: "mine now" }),
      () => bob.post(`/api/invoices/${id}/send`),
      () => bob.post(`/api/invoices/${id}/cancel`, {}),
      () => bob.delete(`/api/invoices/${id}`),
    ];
    for (const call of calls) {
      const res = await call();
      expect(res.status).toBe(403);
      expect(res.body.error).toBe("Unauthorized");
    }
    expect(await snapshot()).toEqual(before);
  });

  it("unknown ids are 404 Invoice not found; no credentials are 401", async () => {
    for (const id of ["nope", "a".repeat(24), "../../etc"]) {
      const res = await alice.get(`/api/invoices/${encodeURIComponent(id)}/owner`);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe("Invoice not found");
    }
    const anon = client(app.url);
    expect((await anon.post("/api/invoices", invoiceBody())).body.error).toBe(
      "Authentication required",
    );
    expect((await anon.get("/api/invoices")).status).toBe(401);
    expect((await anon.get("/api/invoices/stats")).status).toBe(401);
  });
});

describe("views", () => {
  it("the public view shows who is paid and never emails, addresses, notes or the audit trail", async () => {
    const created = await alice.post(
      "/api/invoices",
      invoiceBody({
        clientAddress: "1 Secret St",
        notes: "private note",
        freelancerEmail: "me@example.com",
        freelancerName: "Alice",
      }),
    );
    const id = created.body.id;
    const b = await client(app.url).get(`/api/invoices/${id}`);
    expect(b.status).toBe(200);
    expect(b.body).toMatchObject({
      id,
      freelancerWallet: aliceWallet,
      freelancerName: "Alice",
      total: created.body.total,
    });
    const text = JSON.stringify(b.body);
    for (const secret of ["ada@example.com", "1 Secret St", "private note", "me@example.com"]) {
      expect(text).not.toContain(secret);
    }
    expect(b.body.auditLogs).toBeUndefined();
    // Line items in their order, with exact amounts (one joined query on this hot path).
    expect(
      b.body.lineItems.map((li: { description: string; amount: string }) => [
        li.description,
        li.amount,
      ]),
    ).toEqual([
      ["Design", "301.0000000"],
      ["Build", "700.0000000"],
    ]);
    const a = await client(app.url).get(`/api/invoices/${id}?envelope=true`);
    // Issue 13: the payer also sees what was paid, what is due and the payments received.
    expect(a.body.data).toMatchObject({ amountPaid: 0, amountDue: 1001, payments: [] });
    expect(Object.keys(a.body.data).sort()).toEqual(
      [
        "amount",
        "amountDue",
        "amountPaid",
        "payments",
        "clientName",
        "createdAt",
        "currency",
        "dueDate",
        "id",
        "invoiceNumber",
        "items",
        // Issue 15: how it is priced (docs/decisions.md, Fiat pricing).
        "priceCurrency",
        "quoteTtlMinutes",
        "status",
        "totalAmount",
      ].sort(),
    );
  });

  it("the owner's PDF shows the invoice, Polish and Cyrillic names as typed", async () => {
    const created = await alice.post(
      "/api/invoices",
      invoiceBody({ clientName: "Łukasz Żółć", title: "Дизайн сайта" }),
    );
    const res = await fetch(`${app.url}/api/invoices/${created.body.id}/pdf`, {
      headers: { authorization: `Bearer ${aliceToken}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const pdf = new Uint8Array(await res.arrayBuffer());
    const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
    const doc = await getDocument({ data: pdf, verbosity: 0 }).promise;
    const content = await (await doc.getPage(1)).getTextContent();
    const text = content.items.map((i) => ("str" in i ? i.str : "")).join("\n");
    await doc.destroy();
    for (const expected of [created.body.invoiceNumber, "Łukasz Żółć", "Дизайн сайта"]) {
      expect(text).toContain(expected);
    }
  });

  it("the owner view has every field, payments and audit trail", async () => {
    const created = await alice.post("/api/invoices", invoiceBody({ clientAddress: "2 Road" }));
    const res = await alice.get(`/api/invoices/${created.body.id}/owner`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      clientEmail: "ada@example.com",
      clientAddress: "2 Road",
      payments: [],
    });
    expect(res.body.auditLogs).toHaveLength(1);
  });
});

describe("list", () => {
  let frank: Api;
  beforeAll(async () => {
    frank = client(app.url, (await signIn(app.url)).token);
    const specs = [
      {
        currency: "XLM",
        lineItems: [{ description: "a", quantity: "1", rate: "10" }],
        clientEmail: "x@example.com",
        dueDate: "2099-01-05",
      },
      {
        currency: "USDC",
        lineItems: [{ description: "a", quantity: "1", rate: "30" }],
        clientEmail: "y@example.com",
        dueDate: "2099-01-01",
      },
      {
        currency: "XLM",
        lineItems: [{ description: "a", quantity: "1", rate: "20" }],
        clientEmail: "x@example.com",
        network: "mainnet",
      },
      {
        currency: "EURC",
        lineItems: [{ description: "a", quantity: "1", rate: "5" }],
        clientEmail: "z@example.com",
        dueDate: "2099-01-03",
      },
      {
        currency: "XLM",
        lineItems: [{ description: "a", quantity: "1", rate: "40" }],
        clientEmail: "x@example.com",
      },
    ];
    for (const s of specs) {
      const res = await frank.post("/api/invoices", invoiceBody(s));
      expect(res.status).toBe(201);
    }
    const list = await frank.get("/api/invoices?sort=createdAt:asc");
    await frank.post(`/api/invoices/${list.body.invoices[0].id}/send`);
    await frank.delete(`/api/invoices/${list.body.invoices[4].id}`);
    // Another wallet's invoices never show up.
    await bob.post("/api/invoices", invoiceBody({ clientEmail: "x@example.com" }));
  });

  it("lists only the caller's live invoices, with totals and paging", async () => {
    const res = await frank.get("/api/invoices");
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(4);
    expect(res.body.limit).toBe(50);
    expect(res.body.offset).toBe(0);
    expect(res.body.invoices).toHaveLength(4);
    const a = await frank.get("/api/invoices?envelope=true");
    expect(a.body.data.limit).toBe(20);
    expect(a.body.data.items[0]).toHaveProperty("paymentLink");
    const page = await frank.get("/api/invoices?limit=3&offset=2&sort=total:asc");
    expect(page.body.invoices.map((i: any) => i.total)).toEqual(["20.0000000", "30.0000000"]);
    expect(page.body.hasMore).toBe(false);
    const first = await frank.get("/api/invoices?limit=2&sort=total:asc");
    expect(first.body.hasMore).toBe(true);
  });

  it("combines filters", async () => {
    const xlm = await frank.get("/api/invoices?currency=XLM&clientEmail=x@example.com");
    expect(xlm.body.total).toBe(2);
    const testnetXlm = await frank.get("/api/invoices?currency=XLM&network=testnet");
    expect(testnetXlm.body.total).toBe(1);
    const main = await frank.get(
      `/api/invoices?networkPassphrase=${encodeURIComponent("Public Global Stellar Network ; September 2015")}`,
    );
    expect(main.body.invoices.map((i: any) => i.total)).toEqual(["20.0000000"]);
    const pending = await frank.get("/api/invoices?status=PENDING");
    expect(pending.body.invoices.map((i: any) => i.total)).toEqual(["10.0000000"]);
    const none = await frank.get("/api/invoices?status=PAID&currency=XLM");
    expect(none.body).toMatchObject({ invoices: [], total: 0, hasMore: false });
  });

  it("sorts on each allowed field both ways", async () => {
    const fields = ["createdAt", "updatedAt", "dueDate", "total", "invoiceNumber", "status"];
    for (const field of fields) {
      const asc = (await frank.get(`/api/invoices?sort=${field}:asc`)).body.invoices.map(
        (i: any) => i.id,
      );
      const desc = (await frank.get(`/api/invoices?sort=${field}:desc`)).body.invoices.map(
        (i: any) => i.id,
      );
      expect(asc, field).toHaveLength(4);
      if (field !== "dueDate") expect(desc, field).toEqual([...asc].reverse());
    }
    const byTotal = (await frank.get("/api/invoices?sort=total:desc")).body.invoices.map(
      (i: any) => i.total,
    );
    expect(byTotal).toEqual(["30.0000000", "20.0000000", "10.0000000", "5.0000000"]);
    const byDue = (await frank.get("/api/invoices?sort=dueDate:asc")).body.invoices.map(
      (i: any) => i.dueDate,
    );
    expect(byDue).toEqual([
      "2099-01-01T00:00:00.000Z",
      "2099-01-03T00:00:00.000Z",
      "2099-01-05T00:00:00.000Z",
      null,
    ]);
  });

  it("rejects bad list parameters with 400", async () => {
    for (const q of [
      "sort=secret:asc",
      "sort=total",
      "sort=total:up",
      "limit=101",
      "limit=0",
      "offset=-1",
      "status=LOST",
      "network=futurenet",
      "unknown=1",
    ]) {
      const res = await frank.get(`/api/invoices?${q}`);
      expect(res.status, q).toBe(400);
    }
    const sort = await frank.get("/api/invoices?sort=secret:asc");
    expect(sort.body.error).toMatch(/^Invalid sort/);
    const pass = await frank.get("/api/invoices?networkPassphrase=nope");
    expect(pass.body.error).toBe("Invalid network passphrase");
  });

  it("the list and the public view answer whole bodies with exact lengths, non-ASCII text included (first request through Next.js, later ones through server.ts's front)", async () => {
    const { token } = await signIn(app.url);
    const owner = client(app.url, token);
    const title = "Café logo – ünïcode 🎨 ".repeat(8).trim(); // 183 characters, 239 bytes
    const created = await owner.post("/api/invoices", invoiceBody({ title }));
    expect(created.status).toBe(201);
    for (const path of ["/api/invoices?limit=50", `/api/invoices/${created.body.id}`]) {
      for (let i = 0; i < 3; i++) {
        const res = await fetch(app.url + path, { headers: { authorization: `Bearer ${token}` } });
        const bytes = Buffer.from(await res.arrayBuffer());
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
        expect(Number(res.headers.get("content-length"))).toBe(bytes.length);
        const body = JSON.parse(bytes.toString("utf8"));
        expect(path.includes("?") ? body.invoices[0].title : body.title).toBe(title);
      }
    }
  });
});

describe("stats", () => {
  it("sums per asset, counts per status, filters by network", async () => {
    const gina = client(app.url, (await signIn(app.url)).token);
    const mk = async (over: Record<string, unknown>) =>
      (await gina.post("/api/invoices", invoiceBody(over))).body.id as string;
    const paid1 = await mk({
      currency: "USDC",
      lineItems: [{ description: "a", quantity: "1", rate: "100.1" }],
    });
    const paid2 = await mk({
      currency: "USDC",
      lineItems: [{ description: "a", quantity: "1", rate: "0.2" }],
    });
    const pend = await mk({
      currency: "XLM",
      lineItems: [{ description: "a", quantity: "3", rate: "0.1" }],
    });
    await mk({
      currency: "EURC",
      network: "mainnet",
      lineItems: [{ description: "a", quantity: "1", rate: "7" }],
    });
    // Revenue is the applied payments (docs/decisions.md, Lifecycle): each paid invoice got one.
    await sql`update invoices set status = 'PAID', paid_at = now(), amount_paid = total where id in (${paid1}, ${paid2})`;
    await sql`insert into payments (id, invoice_id, transaction_hash, ledger_number, from_wallet, to_wallet, amount, asset, confirmed_at)
      select 'pay-' || id, id, md5(id) || md5(id), 1, freelancer_wallet, freelancer_wallet, total, currency, now()
      from invoices where id in (${paid1}, ${paid2})`;
    await gina.post(`/api/invoices/${pend}/send`);

    const b = await gina.get("/api/invoices/stats");
    expect(b.status).toBe(200);
    expect(b.body).toMatchObject({
      totalInvoices: 4,
      paidInvoices: 2,
      pendingInvoices: 1,
      totalRevenue: { XLM: "0.0000000", USDC: "100.3000000", EURC: "0.0000000" },
      revenueThisMonth: { USDC: "100.3000000" },
      avgInvoiceValue: { USDC: "50.1500000" },
      pendingAmount: { XLM: "0.3000000" },
      statusBreakdown: { PAID: 2, PENDING: 1, DRAFT: 1 },
    });
    expect(b.body.recentActivity[0]).toMatchObject({ action: "SENT", invoiceId: pend });
    expect(b.body.revenueByMonth).toHaveLength(12);
    const a = await gina.get("/api/invoices/stats?envelope=true&network=testnet");
    expect(a.body.data).toMatchObject({
      totalInvoices: 3,
      totalRevenue: { USDC: 100.3 },
      pendingAmount: { XLM: 0.3 },
    });
  });
});
