import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { flatPdfText } from "@/tests/helpers/pdf";
import {
  type GuardedContext,
  launchBrowser,
  newContext,
  saveArtifact,
  saveFailureShots,
  visible,
} from "./helpers/browser";
import { apiFreelancer, type E2eEnv, type Freelancer, startEnv } from "./helpers/env";
import { storeSession } from "./helpers/ui";

/**
 * Issue 29, the client's language (docs/decisions.md, Languages): a freelancer picks German in
 * the invoice form's collapsed client section, the invoice stores it, its PDF is German, and
 * the client's checkout page in Chromium reads German labels with German amounts and dates.
 * A saved client's language is set in the client form and fills the invoice form's picker.
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

describe("an invoice in the client's language", () => {
  it("German chosen in the form: German PDF and a German checkout page", async () => {
    const page = await signedInPage();
    await page.goto(`${env.app.url}/invoices/new`);
    await page.getByLabel("Client name").fill("Klaus Kunde");
    await page.getByLabel("Client email").fill("klaus@example.de");
    // Closed by default: the form is no longer for someone who needs no language.
    expect(await page.getByLabel("Invoice language").isVisible()).toBe(false);
    await page.getByText("Client's tax registration, address and language").click();
    await page.getByLabel("Invoice language").selectOption("de");
    await page.getByLabel("Description, item 1").fill("Beratung");
    await page.getByLabel("Quantity, item 1").fill("3");
    await page.getByLabel("Rate, item 1").fill("409.5");
    await page.getByLabel("Currency", { exact: true }).selectOption("XLM");
    await page.getByRole("button", { name: "Create invoice" }).click();
    await page.waitForURL(/\/invoices\/(?!new)[a-z0-9]+$/);
    const id = page.url().split("/").pop() as string;

    const invoice = (await freelancer.api.get(`/api/invoices/${id}/owner`)).body;
    expect(invoice.language).toBe("de");
    const sent = await freelancer.api.post(`/api/invoices/${id}/send`);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);

    const res = await fetch(`${env.app.url}/api/invoices/${id}/pdf`, {
      headers: { authorization: `Bearer ${freelancer.token}` },
    });
    const pdf = await flatPdfText(await res.arrayBuffer());
    expect(pdf).toContain("RECHNUNG");
    expect(pdf).toContain("RECHNUNG AN");
    expect(pdf).toContain("Gesamtbetrag 1.228,50 XLM");
    expect(pdf).not.toContain("Subtotal");

    const payer = await newContext(browser);
    contexts.push(payer);
    const checkout = await payer.newPage();
    await checkout.goto(`${env.app.url}/pay/${id}`);
    await visible(checkout.getByRole("heading", { name: "Rechnungsdetails" }));
    await visible(checkout.getByText("Offener Betrag"));
    await visible(checkout.getByText("1.228,50 XLM").first());
    await visible(checkout.getByRole("link", { name: "Rechnung herunterladen (PDF)" }));
    expect(await checkout.locator("[lang=de]").count()).toBeGreaterThan(0);
    expect(await checkout.getByText("Invoice details").count()).toBe(0);
    // Server and browser wrote the same German words: no hydration error.
    expect(payer.errors).toEqual([]);
    await saveArtifact(checkout, "language-checkout-de");
  });

  it("a saved client's language fills the invoice form's picker", async () => {
    const saved = await freelancer.api.post("/api/clients", {
      name: "Marie Cliente",
      email: "marie@example.fr",
      language: "fr",
    });
    expect(saved.status).toBe(201);
    const page = await signedInPage();
    await page.goto(`${env.app.url}/invoices/new`);
    await page.getByLabel("Saved client").selectOption(saved.body.id);
    await page.getByText("Client's tax registration, address and language").click();
    await expect.poll(() => page.getByLabel("Invoice language").inputValue()).toBe("fr");
  });
});
