import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { createTestDatabase } from "./helpers/postgres";

// Tax per line over HTTP (docs/decisions.md, Tax per line): the breakdown answered, stored and
// kept through an edit and a copy; an invoice priced as the spec describes unchanged.

let app: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let alice: Api;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startApp({ DATABASE_URL: db.url, RATE_LIMIT_GLOBAL_PER_MINUTE: "100000" });
  alice = client(app.url, (await signIn(app.url)).token);
});

afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

const LINES = [
  { description: "Design", quantity: "3", rate: "33.33", taxRate: "19" },
  { description: "Books", quantity: "1", rate: "10.01", taxRate: "7" },
  {
    description: "Export",
    quantity: "2",
    rate: "5",
    taxCategory: "G",
    taxRate: "0",
    exemptionReason: "Export outside the EU",
    exemptionReasonCode: "VATEX-EU-G",
  },
];

describe("tax per line", () => {
  it("answers one breakdown row per category and rate, the discount lowering the base, exact to the stroop", async () => {
    const res = await alice.post(
      "/api/invoices",
      invoiceBody({ lineItems: LINES, discount: "10" }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      subtotal: "120.0000000",
      discount: "10.0000000",
      taxAmount: "18.0572333",
      total: "128.0572333",
    });
    expect(res.body.taxBreakdown).toEqual([
      {
        category: "S",
        rate: "19.00",
        taxableAmount: "91.6575000",
        taxAmount: "17.4149250",
        exemptionReason: null,
        exemptionReasonCode: null,
      },
      {
        category: "S",
        rate: "7.00",
        taxableAmount: "9.1758333",
        taxAmount: "0.6423083",
        exemptionReason: null,
        exemptionReasonCode: null,
      },
      {
        category: "G",
        rate: "0.00",
        taxableAmount: "9.1666667",
        taxAmount: "0.0000000",
        exemptionReason: "Export outside the EU",
        exemptionReasonCode: "VATEX-EU-G",
      },
    ]);
    expect(res.body.lineItems.map((l: { taxRate: string | null }) => l.taxRate)).toEqual([
      "19.00",
      "7.00",
      "0.00",
    ]);

    // Read back, Form A too.
    const owner = await alice.get(`/api/invoices/${res.body.id}/owner`);
    expect(owner.body.taxBreakdown).toEqual(res.body.taxBreakdown);
    const formA = await alice.get(`/api/invoices/${res.body.id}/owner?envelope=true`);
    expect(formA.body.data.taxBreakdown[0]).toMatchObject({
      category: "S",
      rate: 19,
      taxAmount: 17.414925,
    });

    // A PATCH of the title keeps the lines' taxes; a PATCH of the discount recomputes them.
    const title = await alice.patch(`/api/invoices/${res.body.id}`, { title: "Renamed" });
    expect(title.body.taxBreakdown).toEqual(res.body.taxBreakdown);
    const noDiscount = await alice.patch(`/api/invoices/${res.body.id}`, { discount: "0" });
    expect(noDiscount.status).toBe(200);
    expect(noDiscount.body.taxBreakdown.map((r: { taxAmount: string }) => r.taxAmount)).toEqual([
      "18.9981000",
      "0.7007000",
      "0.0000000",
    ]);
    expect(noDiscount.body.total).toBe("139.6988000");

    // A copy keeps them too.
    const copy = await alice.post(`/api/invoices/${res.body.id}/duplicate`);
    expect(copy.status, JSON.stringify(copy.body)).toBe(201);
    expect(copy.body.taxBreakdown).toEqual(noDiscount.body.taxBreakdown);
  });

  it("an exempt line without its reason is 400 naming the line's field, and nothing is created", async () => {
    const before = (await alice.get("/api/invoices")).body.total;
    const res = await alice.post(
      "/api/invoices",
      invoiceBody({
        lineItems: [{ description: "X", quantity: "1", rate: "5", taxCategory: "AE" }],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual({
      "lineItems.0.exemptionReason": "exemptionReason is required for category AE (reverse charge)",
    });
    expect((await alice.get("/api/invoices")).body.total).toBe(before);
  });

  it("an invoice priced as the spec describes keeps the spec's formula and answers one row", async () => {
    const res = await alice.post("/api/invoices", invoiceBody({ taxRate: "10", discount: "50" }));
    expect(res.body).toMatchObject({
      subtotal: "1001.0000000",
      taxAmount: "100.1000000",
      total: "1051.1000000",
    });
    expect(res.body.taxBreakdown).toEqual([
      {
        category: "S",
        rate: "10.00",
        taxableAmount: "1001.0000000",
        taxAmount: "100.1000000",
        exemptionReason: null,
        exemptionReasonCode: null,
      },
    ]);
    expect(res.body.lineItems[0]).toMatchObject({ taxRate: null, taxCategory: null });
  });
});
