import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { createTestDatabase } from "./helpers/postgres";

// The business profile (docs/decisions.md, Profile): GET/PUT /api/profile, the public logo,
// the defaults new invoices take, and the name, company and logo on the checkout and the PDF.

/** A real 1x1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);
const dataUrl = (type: string, data: Buffer | string) =>
  `data:${type};base64,${Buffer.from(data).toString("base64")}`;
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="4"/></svg>';

const FULL = {
  displayName: "Ada Lovelace",
  company: "Analytical Engines Ltd",
  email: "ada@engines.example",
  address: "12 St James's Square, London",
  taxId: "GB123456789",
  reportingCurrency: "EUR",
  paymentTermsDays: 14,
  defaultReminders: [-3, 0, 7],
  defaultPaymentTolerance: "0.5",
  emailFooter: "Thank you for your business.",
};

let app: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let alice: Api;
let aliceToken: string;
let aliceWallet: string;
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

const today = () => new Date().toISOString().slice(0, 10);
const daysFromToday = (n: number) =>
  new Date(Date.parse(`${today()}T00:00:00Z`) + n * 86_400_000).toISOString();

describe("profile API", () => {
  it("starts empty (USD), then PUT saves every field and GET reads it back", async () => {
    const empty = await bob.get("/api/profile");
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({
      displayName: null,
      logoUrl: null,
      reportingCurrency: "USD",
      paymentTermsDays: null,
      updatedAt: null,
    });

    const put = await alice.put("/api/profile", { ...FULL, logo: dataUrl("image/png", PNG) });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({
      ...FULL,
      wallet: aliceWallet,
      defaultPaymentTolerance: "0.50",
      logoType: "image/png",
    });
    expect(put.body.logoUrl).toMatch(new RegExp(`/api/profile/logo/${aliceWallet}\\?v=\\w+$`));
    const got = await alice.get("/api/profile");
    expect(got.body).toEqual(put.body);
    // Bob's profile is his own.
    expect((await bob.get("/api/profile")).body.displayName).toBeNull();
  });

  it("serves the logo publicly with its own type, nosniff and a sandbox CSP", async () => {
    const { logoUrl } = (await alice.get("/api/profile")).body;
    const res = await fetch(logoUrl.replace(/^https?:\/\/[^/]+/, app.url));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toMatch(/^sandbox\b/);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PNG);
    const none = await fetch(`${app.url}/api/profile/logo/${"G".padEnd(56, "A")}`);
    expect(none.status).toBe(404);
  });

  it("refuses adversarial SVG logos at once, and the server stays responsive (issue 27)", async () => {
    // `<svg>` and letters: the earlier regex check took about 50 s on 200 KB, blocking the
    // whole process (50,000 letters: 4 s, measured), so over 10 s at the SVG cap (100 KB).
    const letters = (bytes: number) => `<svg>${"a".repeat(bytes - 5)}`;
    for (const [svg, message] of [
      [letters(200 * 1024), "SVG logo must be at most 100 KB"],
      [letters(100 * 1024), /SVG logo refused.*not well-formed XML/],
    ] as const) {
      const start = Date.now();
      const res = await alice.put("/api/profile", { ...FULL, logo: dataUrl("image/svg+xml", svg) });
      expect(Date.now() - start).toBeLessThan(2000);
      expect(res.status).toBe(400);
      expect(res.body.details.logo).toMatch(message);
    }
  });

  it("refuses bad input with 400 and details, and writes nothing", async () => {
    const before = (await alice.get("/api/profile")).body;
    const bad: [Record<string, unknown>, string][] = [
      [{ email: "a@x.example, b@y.example" }, "email"],
      [{ email: "a@x.example\r\nBcc: c@z.example" }, "email"],
      [{ taxId: "x".repeat(51) }, "taxId"],
      [{ paymentTermsDays: 366 }, "paymentTermsDays"],
      [{ paymentTermsDays: 1.5 }, "paymentTermsDays"],
      [{ defaultReminders: [1, 1] }, "defaultReminders"],
      [{ defaultReminders: [1, 2, 3, 4, 5, 6] }, "defaultReminders"],
      [{ defaultReminders: [61] }, "defaultReminders.0"],
      [{ defaultPaymentTolerance: "5.01" }, "defaultPaymentTolerance"],
      [{ reportingCurrency: "GBP" }, "reportingCurrency"],
      [{ emailFooter: "x".repeat(501) }, "emailFooter"],
      [{ logo: dataUrl("image/png", SVG) }, "logo"],
      [{ logo: dataUrl("image/svg+xml", SVG.replace("<rect", '<rect onload="alert(1)"')) }, "logo"],
      [{ logo: dataUrl("image/png", Buffer.concat([PNG, Buffer.alloc(200 * 1024)])) }, "logo"],
      [{ unknown: true }, "body"],
    ];
    for (const [change, field] of bad) {
      const res = await alice.put("/api/profile", { ...FULL, displayName: "Changed", ...change });
      expect(res.status, JSON.stringify(change).slice(0, 80)).toBe(400);
      expect(Object.keys(res.body.details ?? {}).join(",")).toContain(
        field === "body" ? "" : field,
      );
    }
    expect((await alice.get("/api/profile")).body).toEqual(before);
  });

  it("PUT replaces: left-out fields are cleared, the logo is kept unless null", async () => {
    const res = await alice.put("/api/profile", { displayName: "Ada" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      displayName: "Ada",
      company: null,
      paymentTermsDays: null,
      reportingCurrency: "USD",
      logoType: "image/png",
    });
    const removed = await alice.put("/api/profile", { displayName: "Ada", logo: null });
    expect(removed.body.logoUrl).toBeNull();
    expect((await fetch(`${app.url}/api/profile/logo/${aliceWallet}`)).status).toBe(404);
    // A safe SVG is served as SVG, sandboxed.
    const svg = await alice.put("/api/profile", { logo: dataUrl("image/svg+xml", SVG) });
    expect(svg.body.logoType).toBe("image/svg+xml");
    const served = await fetch(`${app.url}/api/profile/logo/${aliceWallet}`);
    expect(served.headers.get("content-type")).toBe("image/svg+xml");
    expect(served.headers.get("content-security-policy")).toMatch(/^sandbox\b/);
  });

  it("API keys: a read key reads the profile, only profile:write replaces it", async () => {
    const before = await alice.get("/api/profile");
    const key = await alice.post("/api/keys", { name: "Books", scopes: ["invoices:read"] });
    const reader = client(app.url, key.body.secret);
    expect((await reader.get("/api/profile")).status).toBe(200);
    expect((await reader.put("/api/profile", FULL)).status).toBe(403);
    // An invoice writer cannot change the Reply-To email or the default tolerance.
    const invoiceKey = await alice.post("/api/keys", {
      name: "Invoices",
      scopes: ["invoices:read", "invoices:write", "clients:write", "links:write"],
    });
    const invoiceWriter = client(app.url, invoiceKey.body.secret);
    const refused = await invoiceWriter.put("/api/profile", {
      email: "attacker@example.com",
      defaultPaymentTolerance: "5",
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe("Insufficient scope");
    expect((await alice.get("/api/profile")).body).toEqual(before.body);
    // profile:write replaces it, and reads it first (a PUT replaces the whole profile).
    const writerKey = await alice.post("/api/keys", { name: "W", scopes: ["profile:write"] });
    const writer = client(app.url, writerKey.body.secret);
    expect((await writer.get("/api/profile")).status).toBe(200);
    expect((await writer.put("/api/profile", {})).status).toBe(200);
    expect((await writer.get("/api/invoices")).status).toBe(403);
  });
});

describe("the profile on invoices, the checkout and the PDF", () => {
  beforeAll(async () => {
    const res = await alice.put("/api/profile", { ...FULL, logo: dataUrl("image/png", PNG) });
    expect(res.status).toBe(200);
  });

  it("a new invoice takes the profile's name, company, email, due date and tolerance", async () => {
    const res = await alice.post("/api/invoices", invoiceBody());
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      freelancerName: FULL.displayName,
      freelancerCompany: FULL.company,
      freelancerEmail: FULL.email,
      dueDate: daysFromToday(14),
      paymentTolerance: "0.50",
    });
  });

  it("the body's own values win", async () => {
    const due = daysFromToday(3).slice(0, 10);
    const res = await alice.post(
      "/api/invoices",
      invoiceBody({
        freelancerName: "Someone Else",
        freelancerCompany: "Other Co",
        freelancerEmail: "other@example.com",
        dueDate: due,
        paymentTolerance: "0",
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      freelancerName: "Someone Else",
      freelancerCompany: "Other Co",
      freelancerEmail: "other@example.com",
      dueDate: `${due}T00:00:00.000Z`,
      paymentTolerance: "0.00",
    });
    // Without a profile nothing is filled in.
    const plain = await bob.post("/api/invoices", invoiceBody());
    expect(plain.body).toMatchObject({ freelancerName: null, dueDate: null });
  });

  it("the checkout shows the name, company and logo", async () => {
    const inv = await alice.post("/api/invoices", invoiceBody());
    expect((await alice.post(`/api/invoices/${inv.body.id}/send`)).status).toBe(200);
    const html = await (await fetch(`${app.url}/pay/${inv.body.id}`)).text();
    expect(html).toContain(FULL.displayName);
    expect(html).toContain(FULL.company);
    const src = /<img[^>]*data-testid="payee-logo"[^>]*>/.exec(html)?.[0] ?? "";
    const path = /src="([^"]+)"/.exec(src)?.[1]?.replaceAll("&amp;", "&");
    expect(path).toMatch(new RegExp(`^/api/profile/logo/${aliceWallet}\\?v=`));
    const logo = await fetch(`${app.url}${path}`);
    expect(Buffer.from(await logo.arrayBuffer())).toEqual(PNG);
  });

  it("the PDF has the logo (an image XObject) and the name", async () => {
    const inv = await alice.post("/api/invoices", invoiceBody());
    const res = await fetch(`${app.url}/api/invoices/${inv.body.id}/pdf`, {
      headers: { authorization: `Bearer ${aliceToken}` },
    });
    expect(res.status).toBe(200);
    const pdf = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(pdf).toString("latin1")).toMatch(/\/Type \/XObject\s*\/Subtype \/Image/);
    const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
    const doc = await getDocument({ data: pdf, verbosity: 0 }).promise;
    const text = (await (await doc.getPage(1)).getTextContent()).items
      .map((i) => ("str" in i ? i.str : ""))
      .join("\n");
    await doc.destroy();
    for (const expected of [FULL.displayName, FULL.company, FULL.address, "Tax ID: GB123456789"]) {
      expect(text).toContain(expected);
    }
  });

  it("the dashboard's revenue is in the profile's reporting currency", async () => {
    const stats = await alice.get("/api/invoices/stats");
    expect(stats.body.revenue.currency).toBe("EUR");
    expect((await bob.get("/api/invoices/stats")).body.revenue.currency).toBe("USD");
  });
});
