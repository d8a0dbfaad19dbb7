import fs from "node:fs";
import path from "node:path";
import Big from "big.js";
import { FacturX } from "factur-x-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, client } from "./helpers/api";
import { type RunningApp, startApp, TEST_CRON_SECRET } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type El, parseCii, text, texts } from "./helpers/cii-read";
import { en16931Violations, LINES, SUMS } from "./helpers/cii-rules";
import { CII_XSD_DIR, CII_XSD_MISSING, ciiSchemaErrors } from "./helpers/cii-xsd";
import { pdfEmbedded } from "./helpers/pdf";
import { createTestDatabase } from "./helpers/postgres";
import { startTestSmtp, type TestSmtp } from "./helpers/smtp";

// E-invoices over HTTP (docs/decisions.md, E-invoices): GET /api/invoices/:id/einvoice answers
// the CII XML (EN 16931 or XRechnung) of a sent invoice, or 400 naming what it lacks; the
// invoice PDF (the API's, and the email's attachment) is a Factur-X PDF/A-3b embedding the
// EN 16931 XML, read back here with pdfjs (an independent reader). Every XML is checked against
// the CII D16B schema (when ../shared/einvoice is beside the project) and our EN 16931 rules.

let app: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let smtp: TestSmtp;
let api: Api;
let token: string;

const AGREEMENT = "rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement";
const SELLER_VAT = `${AGREEMENT}/ram:SellerTradeParty/ram:SpecifiedTaxRegistration/ram:ID`;

const PROFILE = {
  displayName: "Ada Lovelace",
  company: "Analytical Engines GmbH",
  email: "ada@engines.example",
  taxId: "DE136695976",
  taxScheme: "eu_vat",
  postalAddress: {
    line1: "Unter den Linden 1",
    city: "Berlin",
    postcode: "10117",
    country: "DE",
  },
};

const CLIENT = {
  clientName: "Babbage",
  clientEmail: "babbage@buyer.example",
  clientCompany: "Bundesamt für Rechenmaschinen",
  clientPostalAddress: {
    line1: "Platz der Republik 1",
    city: "Berlin",
    postcode: "11011",
    country: "DE",
  },
};

const LINES_19_7 = [
  { description: "Design & build", quantity: "12", rate: "85.5", taxRate: "19" },
  { description: "Printed manual", quantity: "3", rate: "19.99", taxRate: "7" },
];

beforeAll(async () => {
  db = await createTestDatabase();
  smtp = await startTestSmtp();
  app = await startApp({
    DATABASE_URL: db.url,
    SMTP_URL: smtp.url,
    RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
    RATE_LIMIT_COSTLY_PER_MINUTE: "100000",
  });
  token = (await signIn(app.url)).token;
  api = client(app.url, token);
  expect((await api.put("/api/profile", PROFILE)).status).toBe(200);
  if (!CII_XSD_DIR) console.warn(CII_XSD_MISSING);
});

afterAll(async () => {
  await app?.stop();
  await smtp?.close();
  await db?.drop();
});

const get = (path: string) =>
  fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${token}` } });

/** A sent EURC invoice (19 % and 7 % lines) with these extra fields; its owner view. */
async function sentInvoice(extra: Record<string, unknown> = {}) {
  const created = await api.post("/api/invoices", {
    title: "Engine design",
    currency: "EURC",
    ...CLIENT,
    lineItems: LINES_19_7,
    ...extra,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const sent = await api.post(`/api/invoices/${created.body.id}/send`);
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return (await api.get(`/api/invoices/${created.body.id}/owner`)).body;
}

// EINVOICE_DUMP_DIR=/tmp/cii-api writes every document the API answered there, to run the
// official EN 16931 Schematron on them by hand (docs/decisions.md, E-invoices).
let dumped = 0;
function dump(xml: string) {
  const dir = process.env.EINVOICE_DUMP_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `api-${++dumped}.xml`), xml);
}

/** The XML passes the schema and our EN 16931 rules, and owes what the API says. */
async function expectValid(
  xml: string,
  invoice: { total: string; taxAmount: string; lineItems: unknown[] },
) {
  dump(xml);
  if (CII_XSD_DIR) expect((await ciiSchemaErrors([{ name: "doc", xml }]))[0]).toEqual([]);
  expect(en16931Violations(xml)).toEqual([]);
  const root: El = parseCii(xml);
  // The API's amounts to the cent (EN 16931 states cents; docs/decisions.md, E-invoices).
  const cents = (v: string) => new Big(v).round(2, Big.roundHalfUp).toFixed(2);
  expect(text(root, `${SUMS}/ram:GrandTotalAmount`)).toBe(cents(invoice.total));
  expect(text(root, `${SUMS}/ram:DuePayableAmount`)).toBe(cents(invoice.total));
  expect(text(root, `${SUMS}/ram:TaxTotalAmount`)).toBe(cents(invoice.taxAmount));
  expect(texts(root, `${LINES}/ram:SpecifiedTradeProduct/ram:Name`)).toEqual(
    LINES_19_7.map((l) => l.description),
  );
  expect(text(root, SELLER_VAT)).toBe("DE136695976");
  return root;
}

describe("GET /api/invoices/:id/einvoice", () => {
  it("answers the EN 16931 CII of a sent invoice: schema-valid, the API's totals, as a download", async () => {
    const invoice = await sentInvoice();
    // 12 × 85.50 = 1026.00 at 19 % (194.94), 3 × 19.99 = 59.97 at 7 % (4.1979, to the stroop).
    expect(invoice).toMatchObject({ taxAmount: "199.1379000", total: "1285.1079000" });
    const res = await get(`/api/invoices/${invoice.id}/einvoice?format=cii`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/xml/);
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="${invoice.invoiceNumber}.xml"`,
    );
    const xml = await res.text();
    await expectValid(xml, invoice);
    // The format defaults to cii.
    expect(await (await get(`/api/invoices/${invoice.id}/einvoice`)).text()).toBe(xml);
  });

  it("writes the texts it adds (the Stellar payment instructions) in the invoice's language", async () => {
    const invoice = await sentInvoice({ language: "de" });
    const xml = await (await get(`/api/invoices/${invoice.id}/einvoice?format=cii`)).text();
    await expectValid(xml, invoice);
    expect(xml).toContain("Zahlung im Stellar-Netzwerk");
    expect(xml).not.toContain("Payment on the Stellar network");
  });

  it("refuses an XRechnung without the buyer reference and the seller's phone, naming both", async () => {
    const invoice = await sentInvoice();
    const res = await api.get(`/api/invoices/${invoice.id}/einvoice?format=xrechnung`);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details).sort()).toEqual(["buyerReference", "profile.phone"]);
    expect(res.body.error).toBe(
      "This invoice cannot become an e-invoice (XRechnung) yet: add buyerReference, profile.phone",
    );
    const bad = await api.get(`/api/invoices/${invoice.id}/einvoice?format=ubl`);
    expect(bad.status).toBe(400);
    expect(bad.body.details.format).toBeDefined();
  });

  it("answers the XRechnung once the profile has a phone and the saved client a Leitweg-ID", async () => {
    expect((await api.put("/api/profile", { ...PROFILE, phone: "+49 30 1234567" })).status).toBe(
      200,
    );
    expect((await api.get("/api/profile")).body.phone).toBe("+49 30 1234567");
    const badPhone = await api.put("/api/profile", { ...PROFILE, phone: "call me" });
    expect(badPhone.status).toBe(400);
    expect(badPhone.body.details.phone).toBeDefined();
    expect((await api.put("/api/profile", { ...PROFILE, phone: "+49 30 1234567" })).status).toBe(
      200,
    );

    const saved = await api.post("/api/clients", {
      name: CLIENT.clientName,
      email: CLIENT.clientEmail,
      company: CLIENT.clientCompany,
      postalAddress: CLIENT.clientPostalAddress,
      buyerReference: "991-01234-56",
    });
    expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300);
    expect(saved.body.buyerReference).toBe("991-01234-56");
    // The saved client's reference is the invoice's default.
    const invoice = await sentInvoice({
      clientId: saved.body.id,
      clientName: undefined,
      clientEmail: undefined,
      clientCompany: undefined,
      clientPostalAddress: undefined,
    });
    expect(invoice.buyerReference).toBe("991-01234-56");
    const res = await get(`/api/invoices/${invoice.id}/einvoice?format=xrechnung`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="${invoice.invoiceNumber}-xrechnung.xml"`,
    );
    const root = await expectValid(await res.text(), invoice);
    expect(text(root, `${AGREEMENT}/ram:BuyerReference`)).toBe("991-01234-56");
    expect(
      text(
        root,
        `${AGREEMENT}/ram:SellerTradeParty/ram:DefinedTradeContact/ram:TelephoneUniversalCommunication/ram:CompleteNumber`,
      ),
    ).toBe("+49 30 1234567");

    // An invoice's own reference wins over the client's.
    const own = await sentInvoice({ buyerReference: "04011000-1234512345-06" });
    const ownXml = await (await get(`/api/invoices/${own.id}/einvoice?format=xrechnung`)).text();
    expect(text(parseCii(ownXml), `${AGREEMENT}/ram:BuyerReference`)).toBe(
      "04011000-1234512345-06",
    );
  });

  it("refuses a draft (issueDate) and another wallet's invoice (403)", async () => {
    const draft = await api.post("/api/invoices", {
      title: "Draft",
      currency: "EURC",
      ...CLIENT,
      lineItems: LINES_19_7,
    });
    const res = await api.get(`/api/invoices/${draft.body.id}/einvoice`);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details)).toEqual(["issueDate"]);
    const other = client(app.url, (await signIn(app.url)).token);
    expect((await other.get(`/api/invoices/${draft.body.id}/einvoice`)).status).toBe(403);
  });
});

describe("the Factur-X PDF", () => {
  it("embeds factur-x.xml (the EN 16931 XML) in a PDF/A-3B with the Factur-X XMP", async () => {
    const invoice = await sentInvoice();
    const res = await get(`/api/invoices/${invoice.id}/pdf`);
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const { files, xmp, header } = await pdfEmbedded(bytes);
    expect(header).toBe("%PDF-1.7");
    expect(Object.keys(files)).toEqual(["factur-x.xml"]);
    const xml = files["factur-x.xml"];
    await expectValid(xml, invoice);
    // The same document the endpoint answers.
    expect(xml).toBe(await (await get(`/api/invoices/${invoice.id}/einvoice?format=cii`)).text());
    // An independent Factur-X reader (factur-x-kit) finds the same invoice in the API's PDF.
    const fx = await FacturX.fromPDF(new Uint8Array(bytes));
    expect(fx.validate().valid).toBe(true);
    const read = fx.object as {
      document: { id: string };
      totals: { grossTotal: number; taxTotal: { amount: number }[] };
      seller: { taxIdentification?: { vatId?: string } };
      invoiceLines: { productDescription: { name: string } }[];
    };
    expect(read.document.id).toBe(invoice.invoiceNumber);
    const cents = (v: string) => new Big(v).round(2, Big.roundHalfUp);
    expect(cents(invoice.total).eq(read.totals.grossTotal)).toBe(true);
    expect(cents(invoice.taxAmount).eq(read.totals.taxTotal[0].amount)).toBe(true);
    expect(read.seller.taxIdentification?.vatId).toBe("DE136695976");
    expect(read.invoiceLines.map((l) => l.productDescription.name)).toEqual(
      LINES_19_7.map((l) => l.description),
    );

    expect(xmp).toMatch(/<pdfaid:part>3<\/pdfaid:part>/);
    expect(xmp).toMatch(/<pdfaid:conformance>B<\/pdfaid:conformance>/);
    expect(xmp).toContain("<fx:DocumentType>INVOICE</fx:DocumentType>");
    expect(xmp).toContain("<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>");
    expect(xmp).toContain("<fx:Version>1.0</fx:Version>");
    expect(xmp).toContain("<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>");
    expect(xmp).toContain(
      "<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>",
    );
    // The XMP is well-formed XML (a title with & would break it if pasted as is).
    expect(() => parseCii(xmp?.replace(/<\?xpacket[^>]*\?>/g, "") ?? "")).not.toThrow();
    // Structure PDF/A-3 asks for (veraPDF is not available offline): the file's relationship,
    // its MIME type, the catalog's /AF and the sRGB output intent, every font embedded.
    const raw = Buffer.from(bytes).toString("latin1");
    expect(raw).toContain("/AFRelationship /Alternative");
    expect(raw).toContain("/Subtype /text#2Fxml");
    expect(raw).toMatch(/\/AF \[\d+ 0 R\]/);
    expect(raw).toMatch(/\/OutputIntents \[\d+ 0 R\]/);
    expect(raw).toContain("/S /GTS_PDFA1");
    expect(raw).toContain("(sRGB IEC61966-2.1)");
    expect(raw).not.toMatch(/\/BaseFont \/Helvetica/);
    const fonts = raw.match(/\/Type \/FontDescriptor/g)?.length ?? 0;
    expect(fonts).toBeGreaterThan(0);
    expect(raw.match(/\/FontFile2 /g)?.length).toBe(fonts);
    expect(raw).toMatch(/\/ID \[<[0-9a-f]+> <[0-9a-f]+>\]/);
  });

  it("stays a plain PDF for an invoice that cannot become an e-invoice (a draft)", async () => {
    const draft = await api.post("/api/invoices", {
      title: "Draft",
      currency: "EURC",
      ...CLIENT,
      lineItems: LINES_19_7,
    });
    const bytes = new Uint8Array(
      await (await get(`/api/invoices/${draft.body.id}/pdf`)).arrayBuffer(),
    );
    const { files, xmp, header } = await pdfEmbedded(bytes);
    expect(files).toEqual({});
    expect(xmp).toBeNull();
    expect(header).toBe("%PDF-1.3");
  });

  it("is what the invoice email attaches", async () => {
    const invoice = await sentInvoice({ clientEmail: "factur-x@buyer.example" });
    // Each cron pass delivers what is due (the earlier tests' invoice emails too).
    await expect
      .poll(
        async () => {
          const pass = await fetch(`${app.url}/api/cron/emails`, {
            headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
          });
          expect(pass.status).toBe(200);
          return smtp.to("factur-x@buyer.example").length;
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(1);
    const [mail] = smtp.to("factur-x@buyer.example");
    const pdf = mail.parsed.attachments.find((a) => a.filename === `${invoice.invoiceNumber}.pdf`);
    expect(pdf?.contentType).toBe("application/pdf");
    const { files } = await pdfEmbedded(new Uint8Array(pdf?.content ?? []));
    const root = await expectValid(files["factur-x.xml"], invoice);
    expect(text(root, "rsm:ExchangedDocument/ram:ID")).toBe(invoice.invoiceNumber);
  });
});

describe("a credit note's e-invoice", () => {
  it("is CII type 381 naming its invoice (BT-25, BT-26), schema-valid, with the credit note's own totals; its PDF is Factur-X", async () => {
    const invoice = await sentInvoice();
    // One of the twelve hours of design is credited: 85.50 at 19 %.
    const created = await api.post(`/api/invoices/${invoice.id}/credit-notes`, {
      reason: "One hour not worked",
      lines: [{ lineIndex: 0, quantity: "1" }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const note = created.body;
    expect(note).toMatchObject({ taxAmount: "16.2450000", total: "101.7450000" });

    const res = await get(`/api/credit-notes/${note.id}/einvoice?format=cii`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/xml/);
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="${note.number}.xml"`,
    );
    const xml = await res.text();
    dump(xml);
    if (CII_XSD_DIR) expect((await ciiSchemaErrors([{ name: "cn", xml }]))[0]).toEqual([]);
    expect(en16931Violations(xml)).toEqual([]);
    const root: El = parseCii(xml);
    expect(text(root, "rsm:ExchangedDocument/ram:TypeCode")).toBe("381");
    expect(text(root, "rsm:ExchangedDocument/ram:ID")).toBe(note.number);
    const settlement = "rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement";
    expect(text(root, `${settlement}/ram:InvoiceReferencedDocument/ram:IssuerAssignedID`)).toBe(
      invoice.invoiceNumber,
    );
    // The credit note's amounts, to the cent, as the API states them.
    const cents = (v: string) => new Big(v).round(2, Big.roundHalfUp).toFixed(2);
    expect(text(root, `${SUMS}/ram:GrandTotalAmount`)).toBe(cents(note.total));
    expect(text(root, `${SUMS}/ram:TaxTotalAmount`)).toBe(cents(note.taxAmount));
    expect(texts(root, `${LINES}/ram:SpecifiedTradeProduct/ram:Name`)).toEqual(["Design & build"]);
    expect(text(root, SELLER_VAT)).toBe("DE136695976");

    const pdf = await get(`/api/credit-notes/${note.id}/pdf`);
    expect(pdf.status).toBe(200);
    const { files, xmp } = await pdfEmbedded(new Uint8Array(await pdf.arrayBuffer()));
    expect(files["factur-x.xml"]).toBe(xml);
    expect(xmp).toMatch(/<pdfaid:part>3<\/pdfaid:part>/);

    // Another wallet's credit note is not answered.
    const other = client(app.url, (await signIn(app.url)).token);
    expect((await other.get(`/api/credit-notes/${note.id}/einvoice`)).status).toBe(403);
  });
});
