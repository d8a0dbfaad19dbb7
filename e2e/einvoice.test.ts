import fs from "node:fs";
import Big from "big.js";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MailCatcher, startMailCatcher } from "@/scripts/mail-catcher";
import { parseCii, text } from "@/tests/helpers/cii-read";
import { en16931Violations, SUMS } from "@/tests/helpers/cii-rules";
import { CII_XSD_DIR, CII_XSD_MISSING, ciiSchemaErrors } from "@/tests/helpers/cii-xsd";
import { pdfEmbedded } from "@/tests/helpers/pdf";
import {
  type GuardedContext,
  launchBrowser,
  newContext,
  saveArtifact,
  saveFailureShots,
  until,
  visible,
} from "./helpers/browser";
import { apiFreelancer, type E2eEnv, type Freelancer, sentInvoice, startEnv } from "./helpers/env";
import { storeSession } from "./helpers/ui";

/**
 * Issue 30 (items 3-5): a freelancer in Germany bills a German public buyer. The invoice page
 * says what an XRechnung still lacks (the seller's phone), the freelancer adds it on the
 * profile page and downloads the XRechnung from the invoice page; the file passes the CII
 * schema and the EN 16931 rules and owes the API's total. The client's invoice email, read in
 * the mail catcher, carries the Factur-X PDF with factur-x.xml inside. Real server, real
 * browser, real ledger.
 */
let env: E2eEnv;
let browser: Browser;
let catcher: MailCatcher;
let freelancer: Freelancer;
const contexts: GuardedContext[] = [];

const CLIENT_EMAIL = "rechnung@bund.example";

beforeAll(async () => {
  catcher = await startMailCatcher();
  [env, browser] = await Promise.all([startEnv({ SMTP_URL: catcher.smtpUrl }), launchBrowser()]);
  freelancer = await apiFreelancer(env);
  const put = await freelancer.api.put("/api/profile", {
    displayName: "Grete Design",
    company: "Grete Design GmbH",
    email: "grete@design.example",
    taxId: "DE136695976",
    taxScheme: "eu_vat",
    postalAddress: {
      line1: "Unter den Linden 1",
      city: "Berlin",
      postcode: "10117",
      country: "DE",
    },
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  if (!CII_XSD_DIR) console.warn(CII_XSD_MISSING);
});

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => saveFailureShots(task.name, contexts));
});

afterAll(async () => {
  for (const c of contexts) await c.context.close().catch(() => {});
  await browser?.close();
  await env?.stop();
  await catcher?.stop();
});

async function signedInPage(): Promise<Page> {
  const c = await newContext(browser);
  contexts.push(c);
  await storeSession(c.context, freelancer);
  return c.newPage();
}

async function expectValid(xml: string, total: string) {
  if (CII_XSD_DIR) expect((await ciiSchemaErrors([{ name: "doc", xml }]))[0]).toEqual([]);
  expect(en16931Violations(xml)).toEqual([]);
  const root = parseCii(xml);
  // The API's total to the cent (EN 16931 states cents; docs/decisions.md, E-invoices).
  expect(text(root, `${SUMS}/ram:GrandTotalAmount`)).toBe(
    new Big(total).round(2, Big.roundHalfUp).toFixed(2),
  );
  return root;
}

describe("e-invoices", () => {
  it("the page says what an XRechnung lacks; with the phone added it downloads, valid", async () => {
    const sent = await sentInvoice(freelancer, {
      title: "Corporate design",
      clientName: "Bundesamt für Gestaltung",
      clientEmail: CLIENT_EMAIL,
      clientPostalAddress: { line1: "Platz 1", city: "Bonn", postcode: "53113", country: "DE" },
      buyerReference: "991-01234-56",
      priceCurrency: "EUR",
      currency: "XLM",
      lineItems: [
        { description: "Logo", quantity: "1", rate: "1200", taxRate: "19" },
        { description: "Printed guide", quantity: "2", rate: "45.5", taxRate: "7" },
      ],
    });
    const invoice = (await freelancer.api.get(`/api/invoices/${sent.id}/owner`)).body;
    const page = await signedInPage();
    await page.goto(`${env.app.url}/invoices/${sent.id}`);
    // The CII can be made; the XRechnung lacks the seller's phone, linked to the profile.
    await visible(page.getByRole("button", { name: "Download e-invoice (CII)" }));
    const missing = await visible(page.getByTestId("einvoice-missing-xrechnung"));
    await visible(missing.getByText(/seller's contact phone/));
    expect(await page.getByRole("button", { name: "Download e-invoice (XRechnung)" }).count()).toBe(
      0,
    );
    await saveArtifact(page, "einvoice-missing-phone");
    await missing.getByRole("link", { name: "in your profile" }).click();
    await page.waitForURL(/\/settings\/profile$/);

    await visible(page.getByTestId("einvoice-profile-hint"));
    await page.getByLabel("Phone").fill("+49 30 1234567");
    await page.getByRole("button", { name: "Save profile" }).click();
    await visible(page.getByText("Profile saved."));
    expect((await freelancer.api.get("/api/profile")).body.phone).toBe("+49 30 1234567");

    await page.goto(`${env.app.url}/invoices/${sent.id}`);
    const button = await visible(
      page.getByRole("button", { name: "Download e-invoice (XRechnung)" }),
    );
    await saveArtifact(page, "einvoice-offer");
    const download = page.waitForEvent("download");
    await button.click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${invoice.invoiceNumber}-xrechnung.xml`);
    const xml = fs.readFileSync(await file.path(), "utf8");
    const root = await expectValid(xml, invoice.total);
    expect(
      text(
        root,
        "rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement/ram:BuyerReference",
      ),
    ).toBe("991-01234-56");

    // A credit note for the printed guides: its e-invoice (type 381, naming the invoice) from
    // the credit notes' list on the same page.
    const credited = await freelancer.api.post(`/api/invoices/${sent.id}/credit-notes`, {
      reason: "Guides not printed",
      lines: [{ lineIndex: 1 }],
    });
    expect(credited.status, JSON.stringify(credited.body)).toBe(201);
    await page.reload();
    const list = page.getByRole("list", { name: "Credit notes" });
    const xmlButton = await visible(
      list.getByRole("button", { name: `E-invoice ${credited.body.number}` }),
    );
    const noteDownload = page.waitForEvent("download");
    await xmlButton.click();
    const noteFile = await noteDownload;
    expect(noteFile.suggestedFilename()).toBe(`${credited.body.number}.xml`);
    const noteRoot = await expectValid(
      fs.readFileSync(await noteFile.path(), "utf8"),
      credited.body.total,
    );
    expect(text(noteRoot, "rsm:ExchangedDocument/ram:TypeCode")).toBe("381");
  });

  it("a saved client's Leitweg-ID fills the invoice form's buyer reference", async () => {
    const page = await signedInPage();
    await page.goto(`${env.app.url}/clients`);
    await page.getByLabel("Name", { exact: true }).fill("Stadt Köln");
    await page.getByLabel(/^Email/).fill("e-rechnung@stadt-koeln.example");
    await page.getByText("Tax registration, address and language").click();
    await visible(page.getByTestId("einvoice-client-hint"));
    await page.getByLabel("Street", { exact: true }).fill("Willy-Brandt-Platz 2");
    await page.getByLabel("Postcode").fill("50679");
    await page.getByLabel("City").fill("Köln");
    await page.getByLabel("Country code").fill("DE");
    await page.getByLabel(/^Buyer reference/).fill("05315000-12345-67");
    await page.getByRole("button", { name: "Add client" }).click();
    const table = page.getByRole("table", { name: /Saved clients/ });
    await visible(table.getByRole("row").filter({ hasText: "Stadt Köln" }));
    const clients = (await freelancer.api.get("/api/clients")).body;
    expect(clients.find((c: { name: string }) => c.name === "Stadt Köln")).toMatchObject({
      buyerReference: "05315000-12345-67",
    });

    await page.goto(`${env.app.url}/invoices/new`);
    const saved = page.getByLabel("Saved client");
    await until(
      async () => (await saved.isEnabled()) && (await saved.locator("option").count()) > 1,
      { message: "saved clients to load" },
    );
    await saved.selectOption({ label: "Stadt Köln (e-rechnung@stadt-koeln.example)" });
    expect(await page.getByLabel(/^Buyer reference/).inputValue()).toBe("05315000-12345-67");
  });

  it("the invoice email in the mail catcher attaches the Factur-X PDF", async () => {
    const sent = await sentInvoice(freelancer, {
      title: "Brand workshop",
      clientName: "Rivoli SARL",
      clientEmail: "compta@rivoli.example",
      clientPostalAddress: {
        line1: "8 rue de Rivoli",
        city: "Paris",
        postcode: "75004",
        country: "FR",
      },
      priceCurrency: "EUR",
      currency: "XLM",
      lineItems: [{ description: "Workshop", quantity: "1", rate: "900", taxRate: "19" }],
    });
    const invoice = (await freelancer.api.get(`/api/invoices/${sent.id}/owner`)).body;
    const page = await signedInPage();
    await page.goto(catcher.url);
    const link = page.getByRole("link", { name: new RegExp(`^Invoice ${invoice.invoiceNumber} `) });
    await until(
      async () => {
        if ((await link.count()) > 0) return true;
        await page.reload();
        return false;
      },
      { timeout: 45_000, interval: 500, message: "the invoice email in the catcher" },
    );
    await link.click();
    const attachment = await visible(page.getByRole("link", { name: "Download" }).first());
    const href = (await attachment.getAttribute("href")) as string;
    const res = await fetch(new URL(href, catcher.url));
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const { files, xmp } = await pdfEmbedded(new Uint8Array(await res.arrayBuffer()));
    expect(Object.keys(files)).toEqual(["factur-x.xml"]);
    expect(xmp).toContain("<pdfaid:part>3</pdfaid:part>");
    const root = await expectValid(files["factur-x.xml"], invoice.total);
    expect(text(root, "rsm:ExchangedDocument/ram:ID")).toBe(invoice.invoiceNumber);
  });
});
