import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp, TEST_CRON_SECRET } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { pdfText } from "./helpers/pdf";
import { createTestDatabase } from "./helpers/postgres";

// The client's language (docs/decisions.md, Languages): an invoice's `language` defaults from
// its saved client, then the profile, then English; it is stored, answered, validated, copied,
// and the PDF, the emails and the checkout page are written in it.

let app: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let alice: Api;
let aliceToken: string;
let bob: Api;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startApp({
    DATABASE_URL: db.url,
    RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
    RATE_LIMIT_COSTLY_PER_MINUTE: "100000",
  });
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
  const a = await signIn(app.url);
  aliceToken = a.token;
  alice = client(app.url, a.token);
  bob = client(app.url, (await signIn(app.url)).token);
});

afterAll(async () => {
  await sql?.end();
  await app?.stop();
  await db?.drop();
});

async function pdfOf(id: string): Promise<string> {
  const res = await fetch(`${app.url}/api/invoices/${id}/pdf`, {
    headers: { authorization: `Bearer ${aliceToken}` },
  });
  expect(res.status).toBe(200);
  return pdfText(await res.arrayBuffer());
}

const ONE_OF = "language must be one of en, de, fr, es, pt";

describe("an invoice's language", () => {
  it("is English for an invoice created as the spec describes, and answered", async () => {
    const res = await bob.post("/api/invoices", invoiceBody());
    expect(res.status).toBe(201);
    expect(res.body.language).toBe("en");
    expect((await bob.get(`/api/invoices/${res.body.id}/owner`)).body.language).toBe("en");
  });

  it("refuses an unknown language with a 400 naming `language`, and creates nothing", async () => {
    const before = await sql`select count(*)::int as n from invoices`;
    const bad = await alice.post("/api/invoices", invoiceBody({ language: "xx" }));
    expect(bad.status).toBe(400);
    expect(bad.body.details.language).toBe(ONE_OF);
    expect((await sql`select count(*)::int as n from invoices`)[0].n).toBe(before[0].n);

    const draft = await alice.post("/api/invoices", invoiceBody());
    const patch = await alice.patch(`/api/invoices/${draft.body.id}`, { language: "xx" });
    expect(patch.status).toBe(400);
    expect(patch.body.details.language).toBe(ONE_OF);
    const ok = await alice.patch(`/api/invoices/${draft.body.id}`, { language: "pt" });
    expect(ok.status).toBe(200);
    expect(ok.body.language).toBe("pt");

    const client = await alice.post("/api/clients", {
      name: "X",
      email: "x@example.com",
      language: "klingon",
    });
    expect(client.status).toBe(400);
    expect(client.body.details.language).toBe(ONE_OF);
    const profile = await alice.put("/api/profile", { defaultLanguage: "EN" });
    expect(profile.status).toBe(400);
    expect(profile.body.details.defaultLanguage).toBe(
      "defaultLanguage must be one of en, de, fr, es, pt",
    );
  });

  it("defaults from the saved client, then the profile, then English; the body wins", async () => {
    // No profile language, no client language: English.
    const plain = await alice.post("/api/invoices", invoiceBody());
    expect(plain.body.language).toBe("en");

    expect((await alice.put("/api/profile", { defaultLanguage: "fr" })).status).toBe(200);
    expect((await alice.get("/api/profile")).body.defaultLanguage).toBe("fr");
    const fromProfile = await alice.post("/api/invoices", invoiceBody());
    expect(fromProfile.body.language).toBe("fr");

    const german = await alice.post("/api/clients", {
      name: "Klaus",
      email: "klaus@example.de",
      language: "de",
    });
    expect(german.status).toBe(201);
    expect(german.body.language).toBe("de");
    const fromClient = await alice.post("/api/invoices", {
      clientId: german.body.id,
      title: "Beratung",
      currency: "XLM",
      lineItems: [{ description: "Beratung", quantity: "1", rate: "10" }],
    });
    expect(fromClient.status).toBe(201);
    expect(fromClient.body.language).toBe("de");

    // A saved client without a language takes the profile's.
    const noLang = await alice.post("/api/clients", { name: "Marie", email: "marie@example.fr" });
    const viaClient = await alice.post("/api/invoices", {
      clientId: noLang.body.id,
      title: "Conseil",
      currency: "XLM",
      lineItems: [{ description: "Conseil", quantity: "1", rate: "10" }],
    });
    expect(viaClient.body.language).toBe("fr");

    const chosen = await alice.post(
      "/api/invoices",
      invoiceBody({ clientId: undefined, language: "es" }),
    );
    expect(chosen.body.language).toBe("es");

    // Stored: a later profile change leaves the invoice's documents as they were.
    expect((await alice.put("/api/profile", { defaultLanguage: "pt" })).status).toBe(200);
    expect((await alice.get(`/api/invoices/${fromProfile.body.id}/owner`)).body.language).toBe(
      "fr",
    );
    expect((await pdfOf(fromProfile.body.id)).split("\n")[0]).toBe("FACTURE");
    expect((await alice.put("/api/profile", {})).status).toBe(200);
  });

  it("is carried by Duplicate and by a recurring schedule's invoices", async () => {
    const original = await alice.post("/api/invoices", invoiceBody({ language: "de" }));
    const copy = await alice.post(`/api/invoices/${original.body.id}/duplicate`);
    expect(copy.status).toBe(201);
    expect(copy.body.language).toBe("de");

    const schedule = await alice.post("/api/recurring", {
      template: invoiceBody({ title: "Mensualité", language: "fr" }),
      interval: "month",
      startDate: new Date().toISOString().slice(0, 10),
      count: 2,
    });
    expect(schedule.status).toBe(201);
    const cron = await fetch(`${app.url}/api/cron/recurring`, {
      headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
    });
    expect(cron.status).toBe(200);
    const [made] = await sql`select language from invoices where title = 'Mensualité'`;
    expect(made.language).toBe("fr");
  });
});

describe("documents in the invoice's language", () => {
  it("a German invoice: German PDF, German email subject, German checkout page", async () => {
    const res = await alice.post(
      "/api/invoices",
      invoiceBody({
        language: "de",
        currency: "USDC",
        taxRate: "19",
        dueDate: "2099-11-27",
        lineItems: [{ description: "Beratung", quantity: "3", rate: "409.5" }],
      }),
    );
    expect(res.status).toBe(201);
    const id = res.body.id;
    expect((await alice.post(`/api/invoices/${id}/send`)).status).toBe(200);

    const pdf = await pdfOf(id);
    expect(pdf).toMatch(/^RECHNUNG$/m);
    expect(pdf).toContain("Status: OFFEN");
    expect(pdf).toContain("Fällig am 27. Nov. 2099");
    // 3 x 409.5 = 1,228.50; 19 % tax = 233.415; total 1,461.915 (exact decimals, no float).
    expect(pdf).toContain("1.228,50 USDC");
    expect(pdf).toContain("Zwischensumme");
    expect(pdf).not.toContain("Subtotal");

    // The invoice email queued on send, its subject in German.
    const [mail] = await sql`select subject from email_messages where invoice_id = ${id}`;
    expect(mail.subject).toMatch(/^Rechnung INV-\d+ von .*: 1\.461,915 USDC$/);

    const page = await fetch(`${app.url}/pay/${id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('lang="de"');
    for (const label of [
      "Rechnungsdetails",
      "Zahlung an",
      "Rechnungsempfänger",
      "Rechnungsnummer",
      "Zwischensumme",
      "Gesamtbetrag",
      "Offener Betrag",
      "Zahlung ausstehend",
      "Rechnung herunterladen (PDF)",
      "Fällig am 27. Nov. 2099",
    ]) {
      expect(html, label).toContain(label);
    }
    for (const english of ["Invoice details", "Billed to", "Subtotal", "Download invoice"]) {
      expect(html, english).not.toContain(english);
    }
    expect(html).toContain("1.228,50");
  });

  it("an English invoice's checkout page keeps its English labels", async () => {
    const res = await alice.post("/api/invoices", invoiceBody({ language: "en" }));
    await alice.post(`/api/invoices/${res.body.id}/send`);
    const html = await (await fetch(`${app.url}/pay/${res.body.id}`)).text();
    expect(html).toContain("Invoice details");
    expect(html).toContain("Subtotal");
    expect(html).toContain('lang="en"');
  });
});
