import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { pdfText } from "./helpers/pdf";
import { createTestDatabase } from "./helpers/postgres";

// Seller and buyer tax identities (docs/decisions.md, Tax identities): the profile's, saved
// clients' and invoices' tax ids checked under their scheme (stdnum's check digits), stored
// compact, and shown on the PDF with the structured addresses.

let app: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let alice: Api;
let aliceToken: string;
let aliceWallet: string;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startApp({
    DATABASE_URL: db.url,
    RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
    RATE_LIMIT_COSTLY_PER_MINUTE: "100000",
  });
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
  const a = await signIn(app.url);
  aliceWallet = a.wallet;
  aliceToken = a.token;
  alice = client(app.url, a.token);
});

afterAll(async () => {
  await sql?.end();
  await app?.stop();
  await db?.drop();
});

async function invoicePdfText(id: string): Promise<string> {
  const res = await fetch(`${app.url}/api/invoices/${id}/pdf`, {
    headers: { authorization: `Bearer ${aliceToken}` },
  });
  expect(res.status).toBe(200);
  return pdfText(await res.arrayBuffer());
}

const PARIS = { line1: "8 rue de Rivoli", city: "Paris", postcode: "75001", country: "fr" };

describe("the seller's tax registration (profile)", () => {
  it("refuses an EU VAT number with a wrong check digit, naming taxId, and saves nothing", async () => {
    const bad = await alice.put("/api/profile", {
      displayName: "Ada",
      taxId: "DE136695977",
      taxScheme: "eu_vat",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details.taxId).toBe("taxId is not a valid DE VAT number (wrong check digit)");
    expect((await alice.get("/api/profile")).body.displayName).toBeNull();
  });

  it("keeps a valid one compact, with its country, and the structured address", async () => {
    const put = await alice.put("/api/profile", {
      displayName: "Ada Lovelace",
      taxId: "de 136 695 976",
      taxScheme: "eu_vat",
      postalAddress: {
        line1: "Unter den Linden 1",
        city: "Berlin",
        postcode: "10117",
        country: "DE",
      },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({
      taxId: "DE136695976",
      taxScheme: "eu_vat",
      taxCountry: "DE",
      postalAddress: {
        line1: "Unter den Linden 1",
        line2: null,
        line3: null,
        city: "Berlin",
        postcode: "10117",
        region: null,
        country: "DE",
      },
    });
  });

  it("checks an ABN's check digits; a number without a scheme is kept as typed", async () => {
    const abn = await alice.put("/api/profile", { taxId: "83 914 571 674", taxScheme: "au_abn" });
    expect(abn.status).toBe(400);
    expect(abn.body.details.taxId).toBe("taxId is not a valid ABN (wrong check digit)");
    const free = await alice.put("/api/profile", { taxId: "EIN 12-3456789" });
    expect(free.status).toBe(200);
    expect(free.body).toMatchObject({ taxId: "EIN 12-3456789", taxScheme: null });
  });

  it("refuses an unknown country code, naming the field", async () => {
    const res = await alice.put("/api/profile", { postalAddress: { country: "XX" } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details)).toContain("postalAddress.country");
  });
});

describe("the buyer's tax identity (invoices and saved clients)", () => {
  it("refuses an invalid buyer VAT number with details.clientTaxId and creates nothing", async () => {
    const before =
      await sql`select count(*)::int as n from invoices where freelancer_wallet = ${aliceWallet}`;
    const res = await alice.post(
      "/api/invoices",
      invoiceBody({ clientTaxId: "FR40303265046", clientTaxScheme: "eu_vat" }),
    );
    expect(res.status).toBe(400);
    expect(res.body.details.clientTaxId).toBe(
      "clientTaxId is not a valid FR VAT number (wrong check digit)",
    );
    const after =
      await sql`select count(*)::int as n from invoices where freelancer_wallet = ${aliceWallet}`;
    expect(after[0].n).toBe(before[0].n);
  });

  it("stores a valid one with the address and business flag, and prints both parties' ids on the PDF", async () => {
    await alice.put("/api/profile", {
      displayName: "Ada Lovelace",
      taxId: "DE136695976",
      taxScheme: "eu_vat",
    });
    const res = await alice.post(
      "/api/invoices",
      invoiceBody({
        clientCompany: "Rivoli SARL",
        clientTaxId: "fr 40 303 265 045",
        clientTaxScheme: "eu_vat",
        clientPostalAddress: PARIS,
        clientIsBusiness: true,
        saveClient: true,
      }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      clientTaxId: "FR40303265045",
      clientTaxScheme: "eu_vat",
      clientIsBusiness: true,
      clientPostalAddress: {
        line1: "8 rue de Rivoli",
        city: "Paris",
        postcode: "75001",
        country: "FR",
      },
    });
    const owner = await alice.get(`/api/invoices/${res.body.id}/owner`);
    expect(owner.body.clientTaxId).toBe("FR40303265045");

    const text = await invoicePdfText(res.body.id);
    expect(text).toContain("VAT: FR40303265045");
    expect(text).toContain("VAT: DE136695976");
    expect(text).toContain("75001 Paris");

    // Saved with the invoice: the client keeps the same identity.
    const clients = await alice.get("/api/clients");
    expect(
      clients.body.find((c: { email: string }) => c.email === "ada@example.com"),
    ).toMatchObject({
      taxId: "FR40303265045",
      taxScheme: "eu_vat",
      isBusiness: true,
      postalAddress: { country: "FR", city: "Paris" },
    });
  });

  it("a PATCH that changes the scheme checks the stored number again", async () => {
    const draft = await alice.post(
      "/api/invoices",
      invoiceBody({ clientTaxId: "FR40303265046" }), // no scheme: kept as typed
    );
    expect(draft.status).toBe(201);
    const patch = await alice.patch(`/api/invoices/${draft.body.id}`, {
      clientTaxScheme: "eu_vat",
    });
    expect(patch.status).toBe(400);
    expect(Object.keys(patch.body.details)).toEqual(["clientTaxId"]);
    const fixed = await alice.patch(`/api/invoices/${draft.body.id}`, {
      clientTaxScheme: "eu_vat",
      clientTaxId: "FR40303265045",
    });
    expect(fixed.status).toBe(200);
    expect(fixed.body).toMatchObject({ clientTaxId: "FR40303265045", clientTaxScheme: "eu_vat" });
  });

  it("a saved client with an invalid VAT number is refused, naming taxId", async () => {
    const res = await alice.post("/api/clients", {
      name: "Bad",
      email: "bad@example.com",
      taxId: "BE0403019262",
      taxScheme: "eu_vat",
    });
    expect(res.status).toBe(400);
    expect(res.body.details.taxId).toBe("taxId is not a valid BE VAT number (wrong check digit)");
  });

  it("an invoice made as the spec describes answers the new fields as null", async () => {
    const res = await alice.post("/api/invoices", invoiceBody());
    expect(res.body).toMatchObject({
      clientTaxId: null,
      clientTaxScheme: null,
      clientPostalAddress: null,
      clientIsBusiness: null,
    });
  });

  it("paymentTerms (one entry in INVOICE_TEXT_FIELDS): stored, answered, edited, copied and printed", async () => {
    const res = await alice.post("/api/invoices", invoiceBody({ paymentTerms: "Net 30" }));
    expect(res.status).toBe(201);
    expect(res.body.paymentTerms).toBe("Net 30");
    const edited = await alice.patch(`/api/invoices/${res.body.id}`, {
      paymentTerms: "Net 14, 2 % discount within 7 days",
    });
    expect(edited.body.paymentTerms).toBe("Net 14, 2 % discount within 7 days");
    const text = await invoicePdfText(res.body.id);
    expect(text).toContain("Payment terms");
    expect(text).toContain("Net 14, 2 % discount within 7 days");
    const copy = await alice.post(`/api/invoices/${res.body.id}/duplicate`);
    expect(copy.body.paymentTerms).toBe("Net 14, 2 % discount within 7 days");
    const tooLong = await alice.patch(`/api/invoices/${res.body.id}`, {
      paymentTerms: "x".repeat(301),
    });
    expect(tooLong.status).toBe(400);
    expect(Object.keys(tooLong.body.details)).toEqual(["paymentTerms"]);
  });

  it("a service period or a date of supply: stored, checked in order, printed; issueDate is the day it was sent", async () => {
    const bad = await alice.post(
      "/api/invoices",
      invoiceBody({ periodStart: "2026-11-30", periodEnd: "2026-11-01" }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual({ periodEnd: "periodEnd must be on or after periodStart" });
    const notADay = await alice.post("/api/invoices", invoiceBody({ supplyDate: "2026-02-30" }));
    expect(notADay.status).toBe(400);
    expect(Object.keys(notADay.body.details)).toEqual(["supplyDate"]);

    const res = await alice.post(
      "/api/invoices",
      invoiceBody({ periodStart: "2026-11-01", periodEnd: "2026-11-30" }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      periodStart: "2026-11-01",
      periodEnd: "2026-11-30",
      supplyDate: null,
      issueDate: null,
    });
    // A PATCH of one end is checked against the stored other.
    const backwards = await alice.patch(`/api/invoices/${res.body.id}`, {
      periodEnd: "2026-10-31",
    });
    expect(backwards.status).toBe(400);
    expect(Object.keys(backwards.body.details)).toEqual(["periodEnd"]);
    const text = await invoicePdfText(res.body.id);
    expect(text).toContain("Service period: 1 Nov 2026 to 30 Nov 2026");

    const sent = await alice.post(`/api/invoices/${res.body.id}/send`);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const owner = await alice.get(`/api/invoices/${res.body.id}/owner`);
    expect(owner.body.issueDate).toBe(owner.body.sentAt.slice(0, 10));
    expect(owner.body.issueDate).toBe(new Date().toISOString().slice(0, 10));
  });
});
