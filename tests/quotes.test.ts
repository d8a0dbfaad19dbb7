import type { Keypair } from "@stellar/stellar-sdk";
import type postgres from "postgres";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Api, client } from "./helpers/api";
import { type RunningApp, TEST_CRON_SECRET } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import { flatPdfText } from "./helpers/pdf";
import { startTestSmtp, type TestSmtp } from "./helpers/smtp";
import { type Chain, funded } from "./helpers/stellar";

// Quotes (docs/decisions.md, Quotes) through the real server and PostgreSQL: the lifecycle,
// the QT- series under concurrency, accept converting exactly once under racing accepts,
// expiry, the public view, the email in the mail catcher, 400s naming fields, draft-only edits.

let testnet: Chain;
let mainnet: Chain;
let app: RunningApp;
let db: LedgerApp["db"];
let sql: postgres.Sql;
let prices: LedgerApp["prices"];
let smtp: TestSmtp;
let api: Api;
let anon: Api;
let kp: Keypair;

beforeAll(async () => {
  smtp = await startTestSmtp();
  ({ testnet, mainnet, app, db, sql, prices } = await startLedgerApp({
    SMTP_URL: smtp.url,
    EMAIL_FROM: "Billing <billing@invoices.example.com>",
  }));
  kp = await funded(testnet);
  api = client(app.url, (await signIn(app.url, kp)).token);
  anon = client(app.url);
}, 120_000);

afterAll(async () => {
  await stopLedgerApp({ sql, app, testnet, mainnet, db, prices });
  await smtp?.close();
});

beforeEach(() => smtp.clear());

const future = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** 3 x 400 at 19 % and 2 x 50 at 7 %, 20 off: the invoice's own tax rule. */
function quoteBody(overrides: Record<string, unknown> = {}) {
  return {
    clientName: "Ada Client",
    clientEmail: "ada@example.com",
    clientAddress: "1 Analytical Row, London",
    title: "Website redesign",
    notes: "Internal: client prefers Tuesdays",
    currency: "XLM",
    lineItems: [
      { description: "Design", quantity: "3", rate: "400", taxRate: "19" },
      { description: "Books", quantity: "2", rate: "50", taxRate: "7" },
    ],
    discount: "20",
    validUntil: future(14),
    ...overrides,
  };
}

async function draft(overrides: Record<string, unknown> = {}, as: Api = api) {
  const r = await as.post("/api/quotes", quoteBody(overrides));
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

async function sent(overrides: Record<string, unknown> = {}) {
  const q = await draft(overrides);
  const r = await api.post(`/api/quotes/${q.id}/send`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

async function deliverEmails() {
  const r = await fetch(`${app.url}/api/cron/emails`, {
    headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
  });
  expect(r.status).toBe(200);
}

describe("the quote lifecycle", () => {
  it("drafts with the invoice's totals, sends with an email, and the client accepts into a linked invoice", async () => {
    const q = await draft({ language: "de" });
    expect(q.number).toMatch(/^QT-\d{4}$/);
    expect(q.status).toBe("DRAFT");
    // The same body as an invoice gives the same totals: one pricing rule.
    const { validUntil: _v, ...asInvoice } = quoteBody({ language: "de" });
    const inv = await api.post("/api/invoices", asInvoice);
    expect(inv.status, JSON.stringify(inv.body)).toBe(201);
    for (const k of ["subtotal", "taxAmount", "discount", "total"]) expect(q[k]).toBe(inv.body[k]);
    expect(q.taxBreakdown).toEqual(inv.body.taxBreakdown);
    expect(q.lineItems.map((l: { amount: string }) => l.amount)).toEqual(
      inv.body.lineItems.map((l: { amount: string }) => l.amount),
    );
    expect(q).toMatchObject({
      language: "de",
      onAccept: "draft",
      notes: "Internal: client prefers Tuesdays",
    });

    // PATCH a draft: the body is merged and priced again.
    const edited = await api.patch(`/api/quotes/${q.id}`, {
      lineItems: [{ description: "Design", quantity: "4", rate: "400", taxRate: "19" }],
      discount: null,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.total).toBe("1904.0000000");
    expect(edited.body.auditLogs.map((a: { action: string }) => a.action)).toEqual([
      "CREATED",
      "UPDATED",
    ]);

    const s = await api.post(`/api/quotes/${q.id}/send`);
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    expect(s.body.status).toBe("SENT");

    // The email through the outbox, in the quote's language, with the link to its page.
    await sql`update email_messages set status = 'skipped'
      where status = 'pending' and dedupe_key <> ${`quote:${q.id}:sent`}`;
    await deliverEmails();
    const mail = (await smtp.waitFor(1))[0];
    expect(mail.envelope.to).toEqual(["ada@example.com"]);
    expect(mail.parsed.subject).toContain(`Angebot ${q.number}`);
    expect(mail.parsed.text).toContain(`${app.url}/quote/${q.id}`);

    // The public view: no emails, no notes, no address, no audit trail.
    const pub = await anon.get(`/api/quotes/${q.id}`);
    expect(pub.status).toBe(200);
    expect(pub.body).toMatchObject({ number: q.number, status: "SENT", total: "1904.0000000" });
    const text = JSON.stringify(pub.body);
    for (const hidden of ["ada@example.com", "Internal: client prefers", "Analytical Row"]) {
      expect(text).not.toContain(hidden);
    }
    for (const key of ["clientEmail", "notes", "auditLogs", "acceptedIp", "clientAddress"]) {
      expect(pub.body).not.toHaveProperty(key);
    }
    const pdf = await fetch(`${app.url}/api/quotes/${q.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-disposition")).toBe(`attachment; filename="${q.number}.pdf"`);
    const pdfText = await flatPdfText(new Uint8Array(await pdf.arrayBuffer()));
    expect(pdfText).toContain("Angebot");
    expect(pdfText).toContain(q.number);

    // The client accepts by typing their name.
    const a = await anon.post(`/api/quotes/${q.id}/accept`, { name: "Ada Lovelace" });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body.status).toBe("CONVERTED");
    expect(a.body.invoiceId).toEqual(expect.any(String));

    const owner = await api.get(`/api/quotes/${q.id}/owner`);
    expect(owner.body).toMatchObject({
      status: "CONVERTED",
      acceptedName: "Ada Lovelace",
      acceptedIp: expect.any(String),
      invoiceId: a.body.invoiceId,
    });
    expect(owner.body.acceptedAt).toEqual(expect.any(String));
    expect(owner.body.auditLogs.map((x: { action: string }) => x.action)).toEqual([
      "CREATED",
      "UPDATED",
      "SENT",
      "ACCEPTED",
      "CONVERTED",
    ]);
    const accepted = owner.body.auditLogs[3];
    expect(accepted.actorWallet).toBe("CLIENT");

    // The invoice made from it: a draft, linked back, with the quote's lines, client and language.
    const [made] = await sql`select status, quote_id, total, language, client_email, notes
      from invoices where id = ${a.body.invoiceId}`;
    expect(made).toMatchObject({
      status: "DRAFT",
      quote_id: q.id,
      total: "1904.0000000",
      language: "de",
      client_email: "ada@example.com",
      notes: "Internal: client prefers Tuesdays",
    });
    const invView = await api.get(`/api/invoices/${a.body.invoiceId}/owner`);
    expect(invView.status).toBe(200);

    // Events: quote.sent, quote.accepted naming the invoice.
    const events = await api.get("/api/events?type=quote.accepted");
    const ev = events.body.events.find((e: { data: { id: string } }) => e.data.id === q.id);
    expect(ev.data).toMatchObject({
      number: q.number,
      acceptedName: "Ada Lovelace",
      invoiceId: a.body.invoiceId,
      invoiceStatus: "DRAFT",
    });
    const sentEvents = await api.get("/api/events?type=quote.sent");
    expect(sentEvents.body.events.some((e: { data: { id: string } }) => e.data.id === q.id)).toBe(
      true,
    );

    // Answered: a second accept or a decline is a 409.
    const again = await anon.post(`/api/quotes/${q.id}/accept`, { name: "Ada Lovelace" });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(
      "This quote can no longer be accepted. Current status: CONVERTED",
    );
    expect((await anon.post(`/api/quotes/${q.id}/decline`, {})).status).toBe(409);
  });

  it('onAccept "send" sends the invoice at once (and emails it)', async () => {
    const q = await sent({ onAccept: "send" });
    const a = await anon.post(`/api/quotes/${q.id}/accept`, { name: "Ada" });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    const [made] = await sql`select status, quote_id from invoices where id = ${a.body.invoiceId}`;
    expect(made).toEqual({ status: "PENDING", quote_id: q.id });
    const [mail] =
      await sql`select kind from email_messages where invoice_id = ${a.body.invoiceId}`;
    expect(mail.kind).toBe("invoice");
    const events = await api.get("/api/events?type=quote.accepted");
    const ev = events.body.events.find((e: { data: { id: string } }) => e.data.id === q.id);
    expect(ev.data.invoiceStatus).toBe("PENDING");
  });

  it("the client declines with a reason; the quote cannot be accepted afterwards", async () => {
    const q = await sent();
    const d = await anon.post(`/api/quotes/${q.id}/decline`, { reason: "Over our budget" });
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    expect(d.body.status).toBe("DECLINED");
    const owner = await api.get(`/api/quotes/${q.id}/owner`);
    expect(owner.body).toMatchObject({ declineReason: "Over our budget", invoiceId: null });
    const events = await api.get("/api/events?type=quote.declined");
    const ev = events.body.events.find((e: { data: { id: string } }) => e.data.id === q.id);
    expect(ev.data.reason).toBe("Over our budget");
    const a = await anon.post(`/api/quotes/${q.id}/accept`, { name: "Ada" });
    expect(a.status).toBe(409);
    expect(a.body.error).toBe("This quote can no longer be accepted. Current status: DECLINED");
  });

  it("PATCH and DELETE are for drafts only; a deleted draft is gone but keeps its number", async () => {
    const q = await sent();
    const p = await api.patch(`/api/quotes/${q.id}`, { title: "Changed" });
    expect(p.status).toBe(400);
    expect(p.body.error).toBe("Only quotes in DRAFT status can be modified");
    const del = await api.delete(`/api/quotes/${q.id}`);
    expect(del.status).toBe(400);
    expect((await api.post(`/api/quotes/${q.id}/send`)).status).toBe(400);

    const d = await draft();
    expect((await api.delete(`/api/quotes/${d.id}`)).status).toBe(200);
    expect((await api.get(`/api/quotes/${d.id}/owner`)).status).toBe(404);
    expect((await anon.get(`/api/quotes/${d.id}`)).status).toBe(404);
    const next = await draft();
    expect(Number(next.number.slice(3))).toBe(Number(d.number.slice(3)) + 1);
  });

  it("another wallet gets 403 on the owner's routes; an unknown id is 404", async () => {
    const q = await draft();
    const other = client(app.url, (await signIn(app.url, await funded(testnet))).token);
    expect((await other.get(`/api/quotes/${q.id}/owner`)).status).toBe(403);
    expect((await other.patch(`/api/quotes/${q.id}`, { title: "x" })).status).toBe(403);
    expect((await other.delete(`/api/quotes/${q.id}`)).status).toBe(403);
    expect((await other.post(`/api/quotes/${q.id}/send`)).status).toBe(403);
    const list = await other.get("/api/quotes");
    expect(list.body.quotes).toEqual([]);
    expect((await api.get("/api/quotes/zzzzzzzzzzzzzzzzzzzzzzzz/owner")).status).toBe(404);
  });
});

describe("bad input: 400 naming the field, nothing written", () => {
  it("create, update and accept name each refused field", async () => {
    const [{ n: before }] = await sql`select count(*)::int as n from sales_quotes`;
    const cases: [Record<string, unknown>, string][] = [
      [{ clientName: undefined }, "clientName"],
      [{ clientEmail: "not-an-email" }, "clientEmail"],
      [{ lineItems: [] }, "lineItems"],
      [{ lineItems: [{ description: "x", quantity: "1", rate: "-1" }] }, "lineItems.0.rate"],
      [{ validUntil: "2026-02-30" }, "validUntil"],
      [{ validUntil: "soon" }, "validUntil"],
      [{ validUntil: "2020-01-01" }, "validUntil"],
      [{ onAccept: "pay" }, "onAccept"],
      [{ language: "xx" }, "language"],
    ];
    for (const [override, field] of cases) {
      const r = await api.post("/api/quotes", quoteBody(override));
      expect(r.status, `${field}: ${JSON.stringify(r.body)}`).toBe(400);
      expect(Object.keys(r.body.details ?? {}), `${field}: ${JSON.stringify(r.body)}`).toContain(
        field,
      );
    }
    // A quote has no number or due date of an invoice: refused by name.
    const unknown = await api.post("/api/quotes", quoteBody({ invoiceNumber: "INV-9" }));
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body.details)).toContain("invoiceNumber");
    const [{ n: after }] = await sql`select count(*)::int as n from sales_quotes`;
    expect(after).toBe(before);

    const q = await draft();
    const p = await api.patch(`/api/quotes/${q.id}`, { clientEmail: "nope" });
    expect(p.status).toBe(400);
    expect(p.body.details).toHaveProperty("clientEmail");
    const s = await sent();
    const a = await anon.post(`/api/quotes/${s.id}/accept`, { name: "  " });
    expect(a.status).toBe(400);
    expect(a.body.details).toHaveProperty("name");
    const noBody = await anon.post(`/api/quotes/${s.id}/accept`, {});
    expect(noBody.status).toBe(400);
    expect(noBody.body.details).toHaveProperty("name");
  });
});

describe("numbering and racing", () => {
  it("20 concurrent creates of a new wallet are QT-0001..QT-0020, no gaps, no repeats", async () => {
    const wallet = client(app.url, (await signIn(app.url, await funded(testnet))).token);
    const made = await Promise.all(
      Array.from({ length: 20 }, () => wallet.post("/api/quotes", quoteBody())),
    );
    expect(made.map((r) => r.status)).toEqual(Array(20).fill(201));
    const numbers = made.map((r) => r.body.number).sort();
    expect(numbers).toEqual(
      Array.from({ length: 20 }, (_, i) => `QT-${String(i + 1).padStart(4, "0")}`),
    );
    // Numbers are per wallet: the first wallet's series is its own.
    const list = await wallet.get("/api/quotes?limit=5&sort=number:asc");
    expect(list.body.quotes.map((q: { number: string }) => q.number)).toEqual(numbers.slice(0, 5));
    expect(list.body).toMatchObject({ total: 20, hasMore: true });
    const after = await wallet.get(
      `/api/quotes?limit=5&sort=number:asc&starting_after=${list.body.quotes[4].id}`,
    );
    expect(after.body.quotes.map((q: { number: string }) => q.number)).toEqual(
      numbers.slice(5, 10),
    );
    expect(after.body.offset).toBe(5);
    // The invoice list's filters: status, currency, network.
    const filtered = await wallet.get("/api/quotes?status=DRAFT&currency=XLM&network=testnet");
    expect(filtered.body.total).toBe(20);
    expect((await wallet.get("/api/quotes?network=mainnet")).body.total).toBe(0);
    expect((await wallet.get("/api/quotes?status=SENT")).body.total).toBe(0);
    const badSort = await wallet.get("/api/quotes?sort=dueDate:asc");
    expect(badSort.status).toBe(400);
  });

  it("20 racing accepts convert exactly once: one 200, nineteen 409, one invoice, one event", async () => {
    const q = await sent();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        anon.post(`/api/quotes/${q.id}/accept`, { name: `Ada ${i}` }),
      ),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(19).fill(409)]);
    const [{ n }] = await sql`select count(*)::int as n from invoices where quote_id = ${q.id}`;
    expect(n).toBe(1);
    const [{ e }] = await sql`select count(*)::int as e from events
      where type = 'quote.accepted' and invoice_id = ${q.id}`;
    expect(e).toBe(1);
    const winner = answers.find((r) => r.status === 200);
    const [row] = await sql`select status, invoice_id from sales_quotes where id = ${q.id}`;
    expect(row).toEqual({ status: "CONVERTED", invoice_id: winner?.body.invoiceId });
  });
});

describe("expiry", () => {
  it("a quote past validUntil reads EXPIRED (recorded once) and cannot be accepted (409)", async () => {
    const q = await sent();
    // Its last day has passed.
    await sql`update sales_quotes set valid_until = current_date - 1 where id = ${q.id}`;
    const a = await anon.post(`/api/quotes/${q.id}/accept`, { name: "Ada" });
    expect(a.status).toBe(409);
    expect(a.body.error).toBe("This quote has expired and can no longer be accepted");
    const pub = await anon.get(`/api/quotes/${q.id}`);
    expect(pub.body.status).toBe("EXPIRED");
    expect((await anon.post(`/api/quotes/${q.id}/decline`, {})).status).toBe(409);
    // Read again, listed, accepted again: still one EXPIRED entry.
    await anon.get(`/api/quotes/${q.id}`);
    await api.get("/api/quotes?status=EXPIRED");
    await anon.post(`/api/quotes/${q.id}/accept`, { name: "Ada" });
    const owner = await api.get(`/api/quotes/${q.id}/owner`);
    expect(
      owner.body.auditLogs.filter((x: { action: string }) => x.action === "EXPIRED"),
    ).toHaveLength(1);
    const [{ n }] = await sql`select count(*)::int as n from invoices where quote_id = ${q.id}`;
    expect(n).toBe(0);
  });

  it("the list expires due quotes first, so the status filter agrees with the answer", async () => {
    const q = await sent();
    await sql`update sales_quotes set valid_until = current_date - 3 where id = ${q.id}`;
    const sentList = await api.get("/api/quotes?status=SENT&limit=100");
    expect(sentList.body.quotes.map((x: { id: string }) => x.id)).not.toContain(q.id);
    const expired = await api.get("/api/quotes?status=EXPIRED&limit=100");
    expect(expired.body.quotes.map((x: { id: string }) => x.id)).toContain(q.id);
  });
});
