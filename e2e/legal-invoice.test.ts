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
 * Issue 29, done when: a freelancer in Germany fills the profile's VAT number, creates a
 * German-language invoice with two tax rates for a French business client (the design work
 * reverse charged, a Berlin workshop ticket at German VAT), sends it, and issues a partial
 * credit note for the ticket; the invoice and credit note PDFs (text read with pdfjs) show both
 * VAT numbers, the breakdown and the legal notes in German. Real server, browser and ledger.
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

async function pdf(path: string): Promise<string> {
  const res = await fetch(`${env.app.url}${path}`, {
    headers: { authorization: `Bearer ${freelancer.token}` },
  });
  expect(res.status).toBe(200);
  return flatPdfText(await res.arrayBuffer());
}

describe("a German invoice with two VAT rates to a French business, then a credit note", () => {
  it("profile VAT id, German invoice, reverse charge on one line, sent, partly credited; German PDFs", async () => {
    const page = await signedInPage();
    await page.goto(`${env.app.url}/settings/profile`);
    await page.getByLabel("Display name").fill("Grete Design");
    await page.getByText("Tax registration, postal address").click();
    await page.getByLabel("Tax number type").selectOption("eu_vat");
    await page.getByLabel("Tax ID", { exact: true }).fill("DE 136 695 976");
    await page.getByLabel("Street", { exact: true }).fill("Torstraße 1");
    await page.getByLabel("Postcode").fill("10119");
    await page.getByLabel("City").fill("Berlin");
    await page.getByLabel("Country code", { exact: true }).fill("DE");
    await page.getByRole("button", { name: "Save profile" }).click();
    await visible(page.getByText("Profile saved."));

    await page.goto(`${env.app.url}/invoices/new`);
    await page.getByLabel("Client name").fill("Rivoli SARL");
    await page.getByLabel("Client email").fill("compta@rivoli.example");
    await page.getByText("Client's tax registration, address and language").click();
    await page.getByLabel("Client tax number type").selectOption("eu_vat");
    await page.getByLabel("Client tax ID").fill("FR40303265045");
    await page.getByLabel("The client is a business").check();
    await page.getByLabel("Street", { exact: true }).fill("8 rue de Rivoli");
    await page.getByLabel("Postcode").fill("75004");
    await page.getByLabel("City").fill("Paris");
    await page.getByLabel("Country code").fill("FR");
    await page.getByLabel("Invoice language").selectOption("de");
    await page.getByLabel("Currency", { exact: true }).selectOption("XLM");
    await page.getByLabel("Description, item 1").fill("Markendesign");
    await page.getByLabel("Rate, item 1").fill("800");
    await page.getByRole("button", { name: "Add line item" }).click();
    await page.getByLabel("Description, item 2").fill("Workshop-Ticket Berlin");
    await page.getByLabel("Rate, item 2").fill("100");
    await page.getByRole("button", { name: "Apply reverse charge" }).click();
    await visible(page.getByText(/Reverse charge applied/));
    // The ticket to an event in Berlin is taxed where the event is: German VAT on that line.
    await page.getByLabel("Tax per line").check();
    await page.getByLabel("VAT category, item 2").selectOption("S");
    await page.getByLabel("VAT rate, item 2").fill("19");
    await saveArtifact(page, "legal-invoice-form");
    await page.getByRole("button", { name: "Create invoice" }).click();
    await page.waitForURL(/\/invoices\/(?!new)[a-z0-9]+$/);
    const id = page.url().split("/").pop() as string;

    const invoice = (await freelancer.api.get(`/api/invoices/${id}/owner`)).body;
    expect(invoice).toMatchObject({
      language: "de",
      clientTaxId: "FR40303265045",
      subtotal: "900.0000000",
      taxAmount: "19.0000000",
      total: "919.0000000",
    });
    expect(
      invoice.taxBreakdown.map((r: Record<string, string>) => [
        r.category,
        r.rate,
        r.taxableAmount,
        r.taxAmount,
      ]),
    ).toEqual([
      ["AE", "0.00", "800.0000000", "0.0000000"],
      ["S", "19.00", "100.0000000", "19.0000000"],
    ]);

    await page.getByRole("button", { name: "Send invoice" }).click();
    await visible(page.getByTestId("invoice-status").getByText("PENDING"));

    const text = await pdf(`/api/invoices/${id}/pdf`);
    expect(text).toContain("RECHNUNG");
    expect(text).toContain("USt-IdNr.: DE136695976");
    expect(text).toContain("USt-IdNr.: FR40303265045");
    expect(text).toContain("75004 Paris");
    expect(text).toContain("Umkehrung der Steuerschuldnerschaft (AE) auf 800,00 XLM");
    expect(text).toContain("USt. 19 % auf 100,00 XLM");
    expect(text).toContain("Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge)");
    expect(text).toContain("Gesamtbetrag 919,00 XLM");
    expect(text).not.toContain("Subtotal");

    // A partial credit note: the workshop was cancelled.
    await page.getByRole("button", { name: "Issue credit note" }).click();
    const form = page.getByRole("form", { name: "Issue credit note" });
    await form.getByLabel("Chosen lines and quantities").check();
    await form.getByLabel("Workshop-Ticket Berlin (of 1)").fill("1");
    await form.getByLabel("Reason").fill("Workshop abgesagt");
    await form.getByRole("button", { name: "Issue credit note" }).click();
    await visible(page.getByText(/Credit note CN-\d{4} issued\./));
    const notes = (await freelancer.api.get(`/api/credit-notes?invoiceId=${id}`)).body;
    const [note] = notes.creditNotes;
    expect(note).toMatchObject({ taxAmount: "19.0000000", total: "119.0000000" });
    await until(
      async () =>
        (await freelancer.api.get(`/api/invoices/${id}/owner`)).body.amountDue === "800.0000000",
      {
        message: "the amount due lowered by the credit",
      },
    );

    const credit = await pdf(`/api/credit-notes/${note.id}/pdf`);
    expect(credit).toContain("Gutschrift");
    expect(credit).toContain(note.number);
    expect(credit).toContain(invoice.invoiceNumber);
    expect(credit).toContain("USt-IdNr.: FR40303265045");
    expect(credit).toContain("Workshop abgesagt");
    expect(credit).toContain("119,00 XLM");
    expect(credit).not.toMatch(/Credit note|Reason/);
    await saveArtifact(page, "legal-invoice-credited");
  });
});
