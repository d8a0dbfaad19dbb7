import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Decimal } from "@/lib/domain/money";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp, TEST_CRON_SECRET } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { createTestDatabase } from "./helpers/postgres";

// Recurring invoices and Duplicate over HTTP against the built server (docs/decisions.md,
// Recurring invoices): the answers, owner checks, 400 details and the cron route. The dates
// and the exactly-once rule are in tests/recurring.test.ts.

let app: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let alice: Api;
let bob: Api;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startApp({ DATABASE_URL: db.url, RATE_LIMIT_GLOBAL_PER_MINUTE: "100000" });
  alice = client(app.url, (await signIn(app.url)).token);
  bob = client(app.url, (await signIn(app.url)).token);
});

afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

const today = () => new Date().toISOString().slice(0, 10);
const schedule = (over: Record<string, unknown> = {}) => ({
  template: invoiceBody({ title: "Retainer" }),
  interval: "month",
  startDate: today(),
  count: 3,
  ...over,
});

describe("/api/recurring", () => {
  it("creates, lists, reads, changes, pauses, resumes and deletes; the cron makes today's invoice", async () => {
    const created = await alice.post("/api/recurring", schedule());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      interval: "month",
      intervalCount: 1,
      startDate: today(),
      count: 3,
      dueInDays: 14,
      autoSend: true,
      status: "active",
      nextPeriod: 0,
      nextDate: today(),
      invoicesCreated: 0,
    });
    const id = created.body.id;
    expect((await alice.get("/api/recurring")).body.map((r: { id: string }) => r.id)).toEqual([id]);
    expect((await bob.get("/api/recurring")).body).toEqual([]);

    const cron = await fetch(`${app.url}/api/cron/recurring`, {
      headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
    });
    expect(cron.status).toBe(200);
    expect(await cron.json()).toMatchObject({ created: 1, sent: 1, unsent: 0, more: false });

    const detail = await alice.get(`/api/recurring/${id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.invoices).toHaveLength(1);
    expect(detail.body.invoices[0]).toMatchObject({
      period: 0,
      periodDate: today(),
      status: "PENDING",
    });
    const invoice = await alice.get(`/api/invoices/${detail.body.invoices[0].id}/owner`);
    expect(invoice.body.recurringId).toBe(id);

    const patched = await alice.patch(`/api/recurring/${id}`, { dueInDays: 30 });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ dueInDays: 30, nextPeriod: 1 });
    const anchor = await alice.patch(`/api/recurring/${id}`, { interval: "week" });
    expect(anchor.status).toBe(409);

    const paused = await alice.post(`/api/recurring/${id}/pause`);
    expect(paused.body).toMatchObject({ status: "paused", nextDate: null });
    const resumed = await alice.post(`/api/recurring/${id}/resume`);
    expect(resumed.body).toMatchObject({ status: "active", pausedAt: null });

    expect((await bob.get(`/api/recurring/${id}`)).status).toBe(403);
    expect((await bob.post(`/api/recurring/${id}/pause`)).status).toBe(403);
    expect((await bob.delete(`/api/recurring/${id}`)).status).toBe(403);
    expect((await alice.delete(`/api/recurring/${id}`)).status).toBe(200);
    expect((await alice.get(`/api/recurring/${id}`)).status).toBe(404);
    expect((await alice.get(`/api/recurring/${"c".repeat(25)}`)).status).toBe(404);
  });

  it("bad input: 400 with the field, nothing written", async () => {
    const both = await alice.post("/api/recurring", schedule({ endDate: "2099-01-01" }));
    expect(both.status).toBe(400);
    expect(both.body.details).toMatchObject({ count: "Send either endDate or count, not both" });
    const noLines = await alice.post(
      "/api/recurring",
      schedule({ template: invoiceBody({ lineItems: undefined }) }),
    );
    expect(noLines.status).toBe(400);
    expect(noLines.body.details).toMatchObject({
      "template.lineItems": "At least one line item is required",
    });
    const withDue = await alice.post(
      "/api/recurring",
      schedule({ template: invoiceBody({ dueDate: "2099-01-01" }) }),
    );
    expect(withDue.status).toBe(400);
    const past = await alice.post("/api/recurring", schedule({ startDate: "2020-01-01" }));
    expect(past.status).toBe(400);
    expect(past.body.details).toMatchObject({ startDate: "Start date cannot be in the past" });
    const tooOften = await alice.post("/api/recurring", schedule({ intervalCount: 13 }));
    expect(tooOften.status).toBe(400);
    expect(Object.keys(tooOften.body.details)).toEqual(["intervalCount"]);
    expect((await alice.get("/api/recurring")).body).toEqual([]);
    expect((await client(app.url).get("/api/recurring")).status).toBe(401);
  });
});

describe("the whole invoice model in a template (issue 28, item 14)", () => {
  const cron = async () =>
    (
      await fetch(`${app.url}/api/cron/recurring`, {
        headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
      })
    ).json();

  /** A saved client of `api`'s wallet, saved the way the invoice form saves one. */
  async function savedClient(api: Api, email: string, company: string) {
    const made = await api.post(
      "/api/invoices",
      invoiceBody({
        clientName: "Erin Client",
        clientEmail: email,
        clientCompany: company,
        saveClient: true,
      }),
    );
    expect(made.status).toBe(201);
    const found = (await api.get("/api/clients")).body.find(
      (c: { email: string }) => c.email === email,
    );
    return found.id as string;
  }

  const template = (over: Record<string, unknown> = {}) => ({
    clientName: "Typed Client",
    clientEmail: "typed@example.com",
    title: "Monthly retainer",
    currency: "USDC",
    priceCurrency: "EUR",
    taxRate: "8.5",
    discount: "25",
    lineItems: [
      { description: "Retainer", quantity: "1", rate: "1200" },
      { description: "Support hours", quantity: "3.5", rate: "80" },
      { description: "Hosting", quantity: "1", rate: "19.99" },
    ],
    ...over,
  });

  /** The template with a saved client instead of typed details. */
  const saved = (clientId: string) =>
    template({ clientId, clientName: undefined, clientEmail: undefined });

  it("several lines, tax, EUR pricing and a saved client: the period's invoice has the same lines, tax and total as the same body sent to POST /api/invoices", async () => {
    const erin = client(app.url, (await signIn(app.url)).token);
    const clientId = await savedClient(erin, "erin@example.com", "Erin Ltd");
    const created = await erin.post(
      "/api/recurring",
      schedule({ template: saved(clientId), count: 12 }),
    );
    expect(created.status).toBe(201);
    expect(created.body.template).toMatchObject({ clientId, priceCurrency: "EUR", taxRate: "8.5" });
    expect(created.body.template.lineItems).toHaveLength(3);
    await cron();

    const detail = (await erin.get(`/api/recurring/${created.body.id}`)).body;
    expect(detail.invoices).toHaveLength(1);
    const made = (await erin.get(`/api/invoices/${detail.invoices[0].id}/owner`)).body;
    // The same body through the create-invoice service by hand: the same invoice.
    const byHand = (await erin.post("/api/invoices", saved(clientId))).body;
    const invoiceOf = (i: Record<string, unknown> & { lineItems: Record<string, unknown>[] }) => ({
      lineItems: i.lineItems.map(({ description, quantity, rate, amount }) => ({
        description,
        quantity,
        rate,
        amount,
      })),
      subtotal: i.subtotal,
      taxRate: i.taxRate,
      taxAmount: i.taxAmount,
      discount: i.discount,
      total: i.total,
      priceCurrency: i.priceCurrency,
      currency: i.currency,
      clientName: i.clientName,
      clientEmail: i.clientEmail,
      clientCompany: i.clientCompany,
    });
    expect(invoiceOf(made)).toEqual(invoiceOf(byHand));
    // What a freelancer checks: 1,200 + 280 + 19.99 = 1,499.99; +8.5% tax 127.50; -25 = 1,602.49 EUR.
    const cents = (v: string) => new Decimal(v).toFixed(2);
    expect([made.subtotal, made.taxAmount, made.discount, made.total].map(cents)).toEqual([
      "1499.99",
      "127.50",
      "25.00",
      "1602.49",
    ]);
    expect(invoiceOf(made)).toMatchObject({
      priceCurrency: "EUR",
      currency: "USDC",
      clientName: "Erin Client",
      clientEmail: "erin@example.com",
      clientCompany: "Erin Ltd",
    });
    expect(made.lineItems.map((l: { description: string }) => l.description)).toEqual([
      "Retainer",
      "Support hours",
      "Hosting",
    ]);
    // Fiat-priced like any fiat invoice: amounts in EUR, the USDC quote locked at pay-intent.
    expect(made.recurringId).toBe(created.body.id);
  });

  it("400s name the template's fields with the invoice's names; nothing is written", async () => {
    const frank = client(app.url, (await signIn(app.url)).token);
    const bad = async (tpl: Record<string, unknown>) => {
      const res = await frank.post("/api/recurring", schedule({ template: tpl }));
      expect(res.status).toBe(400);
      return res.body.details as Record<string, string>;
    };
    expect(
      await bad(
        template({
          lineItems: [
            { description: "Retainer", quantity: "1", rate: "1200" },
            { description: "Odd", quantity: "1", rate: "10.125" },
          ],
        }),
      ),
    ).toEqual({
      "template.lineItems.1.rate": "lineItems.1.rate must have at most 2 decimal places",
    });
    expect(await bad(template({ taxRate: "101" }))).toHaveProperty(["template.taxRate"]);
    expect(await bad(template({ priceCurrency: "GBP" }))).toEqual({
      "template.priceCurrency": "priceCurrency must be USD or EUR",
    });
    expect(await bad(template({ clientName: undefined, clientEmail: undefined }))).toEqual({
      "template.clientName": "Client name is required",
      "template.clientEmail": "Client email is required",
    });
    // A saved client and typed details at once: each typed field is named.
    const both = "Leave the client's details out with clientId: the saved client's are used";
    expect(await bad(template({ clientId: "c".repeat(25), clientAddress: "1 Way" }))).toEqual({
      "template.clientName": both,
      "template.clientEmail": both,
      "template.clientAddress": both,
    });
    // Another wallet's saved client is not the caller's.
    const theirs = await savedClient(alice, "grace@example.com", "Grace Co");
    expect(await bad(saved(theirs))).toEqual({
      "template.clientId":
        "Saved client not found (it may have been deleted): choose another client or enter the client's details",
    });
    expect((await frank.get("/api/recurring")).body).toEqual([]);

    // PATCH names them the same way and changes nothing.
    const made = await frank.post("/api/recurring", schedule({ template: template() }));
    expect(made.status).toBe(201);
    const patch = await frank.patch(`/api/recurring/${made.body.id}`, {
      template: template({ discount: "99999" }),
    });
    expect(patch.status).toBe(400);
    expect(patch.body.details).toEqual({
      "template.discount": "discount must be less than subtotal plus tax",
    });
    expect((await frank.get(`/api/recurring/${made.body.id}`)).body.template).toEqual(
      made.body.template,
    );
  });
});

describe("POST /api/invoices/:id/duplicate", () => {
  it("a new draft copy for the owner; 403 for another wallet", async () => {
    const original = await alice.post("/api/invoices", invoiceBody({ dueDate: "2099-01-01" }));
    const copy = await alice.post(`/api/invoices/${original.body.id}/duplicate`);
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({
      status: "DRAFT",
      dueDate: null,
      clientEmail: original.body.clientEmail,
      total: original.body.total,
    });
    expect(copy.body.invoiceNumber).not.toBe(original.body.invoiceNumber);
    expect((await bob.post(`/api/invoices/${original.body.id}/duplicate`)).status).toBe(403);
  });
});

describe("limits", () => {
  const runCron = async () =>
    (
      await fetch(`${app.url}/api/cron/recurring`, {
        headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
      })
    ).json();

  it("recurring invoices count against the wallet's invoice-creation limit", async () => {
    const carol = client(app.url, (await signIn(app.url)).token);
    for (let i = 0; i < 20; i++) {
      expect((await carol.post("/api/invoices", invoiceBody())).status).toBe(201);
    }
    const over = await carol.post("/api/invoices", invoiceBody());
    expect(over.status).toBe(429);
    // Weekly schedules starting today, sent and emailed automatically: none may go past it.
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const s = await carol.post("/api/recurring", schedule({ interval: "week", count: 10 }));
      expect(s.status).toBe(201);
      ids.push(s.body.id);
    }
    const run = await runCron();
    expect(run.deferred).toBeGreaterThanOrEqual(3);
    for (const id of ids) {
      const detail = (await carol.get(`/api/recurring/${id}`)).body;
      expect(detail).toMatchObject({ invoicesCreated: 0, nextPeriod: 0, nextDate: today() });
      expect(detail.invoices).toEqual([]);
      // The owner sees why on the recurring invoice.
      expect(detail.lastRefusal).toMatchObject({
        reason:
          "The invoice was not created yet: Invoice creation limit reached. Maximum 20 invoices per hour per wallet. It is created on a later run.",
        period: 0,
      });
    }
    expect((await carol.get("/api/invoices")).body.total).toBe(20);
    // Still refused over the API: the deferred periods handed their hits back, nothing more.
    expect((await carol.post("/api/invoices", invoiceBody())).status).toBe(429);
  });

  it("at most 50 live recurring invoices per wallet (409); a deleted one frees its place", async () => {
    const dave = client(app.url, (await signIn(app.url)).token);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) {
      const s = await dave.post("/api/recurring", schedule({ startDate: tomorrow }));
      expect(s.status).toBe(201);
      ids.push(s.body.id);
    }
    const over = await dave.post("/api/recurring", schedule({ startDate: tomorrow }));
    expect(over.status).toBe(409);
    expect(over.body.error).toBe("Recurring invoice limit reached (at most 50 per wallet)");
    expect((await dave.get("/api/recurring")).body).toHaveLength(50);
    expect((await dave.delete(`/api/recurring/${ids[0]}`)).status).toBe(200);
    expect((await dave.post("/api/recurring", schedule({ startDate: tomorrow }))).status).toBe(201);
  });
});
