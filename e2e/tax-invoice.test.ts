import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { flatPdfText } from "@/tests/helpers/pdf";
import {
  type GuardedContext,
  launchBrowser,
  newContext,
  saveArtifact,
  saveFailureShots,
  until,
  visible,
} from "./helpers/browser";
import { apiFreelancer, type E2eEnv, type Freelancer, startEnv } from "./helpers/env";
import { storeSession } from "./helpers/ui";

/**
 * Issue 29 (started): a freelancer in Germany fills the profile's VAT number, bills a French
 * business client with its VAT number, is offered reverse charge and applies it; the invoice
 * the service stores is AE at 0 % with the legal note, and the PDF (read with pdfjs) prints both
 * parties' VAT numbers and the note. A wrong VAT number is refused on the profile page, naming
 * the field. Real server, real browser.
 */
let env: E2eEnv;
let browser: Browser;
let freelancer: Freelancer;
const contexts: GuardedContext[] = [];

beforeAll(async () => {
  [env, browser] = await Promise.all([startEnv(), launchBrowser()]);
  freelancer = await apiFreelancer(env);
});

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => saveFailureShots(task.name, contexts));
});

afterAll(async () => {
  for (const c of contexts) await c.context.close().catch(() => {});
  await browser?.close();
  await env?.stop();
});

async function signedInPage(): Promise<Page> {
  const c = await newContext(browser);
  contexts.push(c);
  await storeSession(c.context, freelancer);
  return c.newPage();
}

async function pdfText(id: string): Promise<string> {
  const res = await fetch(`${env.app.url}/api/invoices/${id}/pdf`, {
    headers: { authorization: `Bearer ${freelancer.token}` },
  });
  expect(res.status).toBe(200);
  return flatPdfText(await res.arrayBuffer());
}

describe("a VAT invoice to a business in another EU country", () => {
  it("profile VAT number checked, reverse charge offered and applied, both ids and the note on the PDF", async () => {
    const page = await signedInPage();
    await page.goto(`${env.app.url}/settings/profile`);
    await page.getByLabel("Display name").fill("Grete Design");
    await page.getByText("Tax registration, postal address").click();
    await page.getByLabel("Tax number type").selectOption("eu_vat");
    await page.getByLabel("Tax ID", { exact: true }).fill("DE136695977");
    await page.getByRole("button", { name: "Save profile" }).click();
    // The wrong check digit is refused, naming the field.
    await visible(page.getByText("taxId is not a valid DE VAT number (wrong check digit)").first());
    await page.getByLabel("Tax ID", { exact: true }).fill("DE 136 695 976");
    await page.getByLabel("Country code", { exact: true }).fill("DE");
    await page.getByLabel("City", { exact: true }).fill("Berlin");
    await page.getByRole("button", { name: "Save profile" }).click();
    await visible(page.getByText("Profile saved."));
    const profile = (await freelancer.api.get("/api/profile")).body;
    expect(profile).toMatchObject({ taxId: "DE136695976", taxScheme: "eu_vat", taxCountry: "DE" });
    await saveArtifact(page, "tax-profile");

    await page.goto(`${env.app.url}/invoices/new`);
    await page.getByLabel("Client name").fill("Rivoli SARL");
    await page.getByLabel("Client email").fill("compta@rivoli.example");
    await page.getByText("Client's tax registration").click();
    await page.getByLabel("Client tax number type").selectOption("eu_vat");
    await page.getByLabel("Client tax ID").fill("FR40303265045");
    // The buyer's structured address (art. 226 (5)), in the same section.
    await page.getByLabel("Street", { exact: true }).fill("8 rue de Rivoli");
    await page.getByLabel("Postcode").fill("75004");
    await page.getByLabel("City").fill("Paris");
    await page.getByLabel("Country code").fill("FR");
    // Not offered until the client is said to be a business.
    expect(await page.getByTestId("reverse-charge").count()).toBe(0);
    await page.getByLabel("The client is a business").check();
    await visible(page.getByRole("button", { name: "Apply reverse charge" }));
    await page.getByLabel("Description, item 1").fill("Brand design");
    await page.getByLabel("Rate, item 1").fill("800");
    await page.getByLabel("Currency", { exact: true }).selectOption("XLM");
    await page.getByLabel("Tax rate (%)").fill("19");
    await page.getByRole("button", { name: "Apply reverse charge" }).click();
    await visible(page.getByText(/Reverse charge applied/));
    await saveArtifact(page, "tax-reverse-charge-form");
    await page.getByRole("button", { name: "Create invoice" }).click();
    await page.waitForURL(/\/invoices\/(?!new)[a-z0-9]+$/);
    const id = page.url().split("/").pop() as string;

    const invoice = (await freelancer.api.get(`/api/invoices/${id}/owner`)).body;
    expect(invoice).toMatchObject({
      clientTaxId: "FR40303265045",
      clientTaxScheme: "eu_vat",
      clientIsBusiness: true,
      clientPostalAddress: {
        line1: "8 rue de Rivoli",
        line2: null,
        line3: null,
        postcode: "75004",
        city: "Paris",
        region: null,
        country: "FR",
      },
      taxAmount: "0.0000000",
      total: "800.0000000",
    });
    expect(invoice.taxBreakdown).toEqual([
      {
        category: "AE",
        rate: "0.00",
        taxableAmount: "800.0000000",
        taxAmount: "0.0000000",
        exemptionReason: "Reverse charge: VAT to be accounted for by the recipient",
        exemptionReasonCode: null,
      },
    ]);
    await until(async () => (await pdfText(id)).includes("VAT: FR40303265045"), {
      message: "the PDF",
    });
    const text = await pdfText(id);
    expect(text).toContain("75004 Paris");
    expect(text).toContain("VAT: DE136695976");
    expect(text).toContain("Reverse charge (AE) on 800");
    expect(text).toContain("Reverse charge: VAT to be accounted for by the recipient");

    // Sent: the client's checkout names both parties' VAT numbers too.
    const sent = await freelancer.api.post(`/api/invoices/${id}/send`);
    expect(sent.status).toBe(200);
    await page.goto(`${env.app.url}/pay/${id}`);
    await visible(page.getByText("VAT: DE136695976"));
    await visible(page.getByText("VAT: FR40303265045"));
    await saveArtifact(page, "tax-checkout");
  });

  it("tax per line from the form: two rates give two breakdown rows, as the service computes them", async () => {
    const page = await signedInPage();
    await page.goto(`${env.app.url}/invoices/new`);
    await page.getByLabel("Client name").fill("Ada Client");
    await page.getByLabel("Client email").fill("ada@example.com");
    await page.getByLabel("Currency", { exact: true }).selectOption("USDC");
    await page.getByLabel("Description, item 1").fill("Design");
    await page.getByLabel("Rate, item 1").fill("100");
    await page.getByRole("button", { name: "Add line item" }).click();
    await page.getByLabel("Description, item 2").fill("Books");
    await page.getByLabel("Rate, item 2").fill("50");
    expect(await page.getByTestId("line-tax").count()).toBe(0);
    await page.getByLabel("Tax per line").check();
    await page.getByLabel("VAT rate, item 1").fill("19");
    await page.getByLabel("VAT rate, item 2").fill("7");
    await saveArtifact(page, "tax-per-line-form");
    await page.getByRole("button", { name: "Create invoice" }).click();
    await page.waitForURL(/\/invoices\/(?!new)[a-z0-9]+$/);
    const id = page.url().split("/").pop() as string;
    const invoice = (await freelancer.api.get(`/api/invoices/${id}/owner`)).body;
    expect(
      invoice.taxBreakdown.map((r: { rate: string; taxAmount: string }) => [r.rate, r.taxAmount]),
    ).toEqual([
      ["19.00", "19.0000000"],
      ["7.00", "3.5000000"],
    ]);
    expect(invoice.total).toBe("172.5000000");
    // The invoice page shows each line's rate and the breakdown the PDF prints.
    const breakdown = page.getByRole("table", { name: "Tax breakdown" });
    await visible(breakdown);
    const rows = await breakdown.getByRole("row").allInnerTexts();
    expect(rows.slice(1).map((r) => r.replace(/\s+/g, " ").trim())).toEqual([
      "Standard rate 19 % 100.00 USDC 19.00 USDC",
      "Standard rate 7 % 50.00 USDC 3.50 USDC",
    ]);
  });

  it("a saved client's structured address and tax id fill the invoice form and print on the invoice page", async () => {
    const page = await signedInPage();
    await page.goto(`${env.app.url}/clients`);
    const form = page.getByRole("form", { name: "Client" });
    await form.getByLabel("Name").fill("Hanse Handel GmbH");
    await form.getByLabel("Email").fill("ap@hanse.example");
    await form.getByText("Tax registration, address and language").click();
    await form.getByLabel("Tax number type").selectOption("eu_vat");
    await form.getByLabel("Tax ID").fill("DE136695976");
    await form.getByLabel("Street", { exact: true }).fill("Mönckebergstraße 7");
    await form.getByLabel("Postcode").fill("20095");
    await form.getByLabel("City").fill("Hamburg");
    await form.getByLabel("Country code").fill("DE");
    await form.getByRole("button", { name: "Add client" }).click();
    await until(
      async () =>
        ((await freelancer.api.get("/api/clients")).body as { email: string }[]).some(
          (c) => c.email === "ap@hanse.example",
        ),
      { message: "the client saved" },
    );
    const saved = (
      (await freelancer.api.get("/api/clients")).body as Record<string, unknown>[]
    ).find((c) => c.email === "ap@hanse.example");
    expect(saved?.postalAddress).toMatchObject({
      line1: "Mönckebergstraße 7",
      city: "Hamburg",
      country: "DE",
    });

    await page.goto(`${env.app.url}/invoices/new`);
    const option = page.locator("#savedClient option", { hasText: "Hanse Handel GmbH" });
    await until(async () => (await option.count()) === 1, { message: "the saved clients" });
    await page
      .locator("#savedClient")
      .selectOption({ label: "Hanse Handel GmbH (ap@hanse.example)" });
    await page.getByText("Client's tax registration").click();
    expect(await page.getByLabel("City").inputValue()).toBe("Hamburg");
    expect(await page.getByLabel("Client tax ID").inputValue()).toBe("DE136695976");
    await page.getByLabel("Description, item 1").fill("Consulting");
    await page.getByLabel("Rate, item 1").fill("10");
    await page.getByRole("button", { name: "Create invoice" }).click();
    await page.waitForURL(/\/invoices\/(?!new)[a-z0-9]+$/);
    await visible(page.getByText("20095 Hamburg", { exact: false }));
    await visible(page.getByText("VAT: DE136695976"));
  });
});
