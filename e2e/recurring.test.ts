import { Keypair } from "@stellar/stellar-sdk";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Decimal } from "@/lib/domain/money";
import { TEST_CRON_SECRET } from "@/tests/helpers/app";
import { funded } from "@/tests/helpers/stellar";
import { seriousViolations } from "./helpers/axe";
import {
  type GuardedContext,
  launchBrowser,
  newContext,
  saveArtifact,
  saveFailureShots,
  until,
  visible,
} from "./helpers/browser";
import { type E2eEnv, startEnv } from "./helpers/env";
import { installFreighter } from "./helpers/freighter";
import { countRequests, fieldError, type StoredSession, signInWithFreighter } from "./helpers/ui";

/**
 * Recurring invoices in the browser (docs/decisions.md, Recurring invoices): the freelancer
 * creates a monthly one starting today on the Recurring page, the cron makes today's invoice,
 * the page lists it, and "Duplicate" on that invoice opens a new draft in the editor.
 */
let env: E2eEnv;
let browser: Browser;
const contexts: GuardedContext[] = [];
const freelancer = Keypair.random();
let page: Page;
let session: StoredSession;

beforeAll(async () => {
  [env, browser] = await Promise.all([startEnv(), launchBrowser()]);
  await funded(env.testnet, freelancer);
  const c = await newContext(browser);
  contexts.push(c);
  await installFreighter(c.context, { keypair: freelancer });
  page = await c.newPage();
});

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => saveFailureShots(task.name, contexts));
});

afterAll(async () => {
  for (const x of contexts) await x.context.close().catch(() => {});
  await browser?.close();
  await env?.stop();
});

describe("recurring invoices", () => {
  it("creates a monthly invoice, sees the first one made, and duplicates it", async () => {
    session = await signInWithFreighter(page, env.app.url, "/dashboard");
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Recurring" })
      .click();
    await visible(page.getByRole("heading", { name: "Recurring invoices", level: 1 }));
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("link", { name: "New recurring invoice" }).click();
    const form = page.getByRole("form", { name: "Recurring invoice" });
    await visible(form);
    // The API's rules, checked in the page: each error beside its field, nothing sent.
    const posts = countRequests(page, "POST", "/api/recurring");
    await form.getByLabel("Client name").fill("Ada Lovelace");
    await form.getByLabel("Client email").fill("ada@example");
    await form.getByRole("button", { name: "Create recurring invoice" }).click();
    expect(await fieldError(form.getByLabel("Client email"))).toContain("Invalid email");
    expect(await fieldError(form.getByLabel("Rate, item 1"))).toContain("Rate must be");
    expect(posts()).toBe(0);
    await form.getByLabel("Client email").fill("ada@example.com");
    await form.getByLabel("Title", { exact: true }).fill("Monthly retainer");
    await form.getByLabel("Description, item 1").fill("Retainer");
    await form.getByLabel("Rate, item 1").fill("250");
    await form.getByLabel("Currency", { exact: true }).selectOption("XLM");
    await form.getByLabel(/^Number of invoices/).fill("12");
    await form.getByRole("button", { name: "Create recurring invoice" }).click();
    await visible(page.getByText(/Created: the first invoice is made on/));
    expect(posts()).toBe(1);
    const table = page.getByRole("table", { name: /Recurring invoices/ });
    const row = table.getByRole("row").filter({ hasText: "Ada Lovelace" });
    await visible(row);
    expect(await row.textContent()).toContain("12 in all");

    const cron = await fetch(`${env.app.url}/api/cron/recurring`, {
      headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
    });
    expect(await cron.json()).toMatchObject({ created: 1, sent: 1 });

    await page.reload();
    await row.getByRole("button", { name: "Invoices" }).click();
    const made = page.getByRole("region", { name: "Invoices made for Ada Lovelace" });
    const link = made.getByRole("link", { name: "INV-0001" });
    await visible(link);
    expect(await made.textContent()).toContain("Pending");
    await saveArtifact(page, "recurring");

    await link.click();
    await visible(page.getByRole("heading", { name: /INV-0001/ }));
    await page.getByRole("button", { name: "Duplicate" }).click();
    await page.waitForURL(/\/invoices\/[a-z0-9]+\/edit$/);
    expect(page.url()).not.toContain("INV-0001");
    await visible(page.getByRole("heading", { level: 1 }));
  });

  it("shows why the job refused a period on the Recurring page (issue 27, item 15)", async () => {
    await page.goto(`${env.app.url}/recurring`);
    await visible(page.getByRole("heading", { name: "Recurring invoices", level: 1 }));
    // USDC, which the freelancer's wallet has no trustline for: the invoice cannot be sent.
    await page.getByRole("link", { name: "New recurring invoice" }).click();
    const form = page.getByRole("form", { name: "Recurring invoice" });
    await form.getByLabel("Client name").fill("Grace Hopper");
    await form.getByLabel("Client email").fill("grace@example.com");
    await form.getByLabel("Title", { exact: true }).fill("Weekly support");
    await form.getByLabel("Description, item 1").fill("Support");
    await form.getByLabel("Rate, item 1").fill("40");
    await form.getByLabel("Currency", { exact: true }).selectOption("USDC");
    await form.getByLabel(/^Number of invoices/).fill("4");
    await form.getByRole("button", { name: "Create recurring invoice" }).click();
    await visible(page.getByText(/Created: the first invoice is made on/));

    const cron = await fetch(`${env.app.url}/api/cron/recurring`, {
      headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
    });
    expect(await cron.json()).toMatchObject({ created: 1, sent: 0, unsent: 1 });

    await page.reload();
    const table = page.getByRole("table", { name: /Recurring invoices/ });
    const row = table.getByRole("row").filter({ hasText: "Grace Hopper" });
    await visible(row.getByText("Refused: see Invoices"));
    await row.getByRole("button", { name: "Invoices" }).click();
    const made = page.getByRole("region", { name: "Invoices made for Grace Hopper" });
    const alert = made.getByRole("alert");
    await visible(alert);
    expect(await alert.textContent()).toMatch(
      /Invoice 1 on \d{1,2} [A-Z][a-z]{2} \d{4}: INV-\d{4} was kept as a draft: Your wallet cannot receive USDC on Testnet yet: it has no trustline to USDC/,
    );
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("a multi-line, taxed, EUR-priced recurring invoice for a saved client: made by the job, then its template edited (issue 28, item 14)", async () => {
    // A saved client, as the Clients list keeps one.
    const saved = await fetch(`${env.app.url}/api/clients`, {
      method: "POST",
      headers: { authorization: `Bearer ${session.token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Erin Client", email: "erin@example.com", company: "Erin Ltd" }),
    });
    expect(saved.status).toBeLessThan(300);

    await page.goto(`${env.app.url}/recurring`);
    await page.getByRole("link", { name: "New recurring invoice" }).click();
    const form = page.getByRole("form", { name: "Recurring invoice" });
    await visible(form);
    await form.getByLabel("Saved client").selectOption({ label: "Erin Client (erin@example.com)" });
    // Linked: each invoice takes the saved client's details when it is made.
    await until(async () => (await form.getByLabel("Client name").inputValue()) === "Erin Client", {
      message: "the saved client's name in the form",
    });
    expect(await form.getByLabel("Client name").getAttribute("readonly")).not.toBeNull();
    await form.getByLabel("Title", { exact: true }).fill("Monthly retainer");
    await form.getByLabel("Currency", { exact: true }).selectOption("XLM");
    await form.getByLabel("Price in").selectOption("EUR");
    await form.getByLabel("Description, item 1").fill("Retainer");
    await form.getByLabel("Rate, item 1").fill("1000");
    await form.getByRole("button", { name: "Add line item" }).click();
    await form.getByLabel("Description, item 2").fill("Hosting");
    await form.getByLabel("Quantity, item 2").fill("2");
    await form.getByLabel("Rate, item 2").fill("12.50");
    await form.getByLabel("Tax rate (%)").fill("10");
    const totals = form.getByRole("region", { name: "Totals" });
    await until(async () => (await totals.textContent())?.includes("1,127.50") ?? false, {
      message: "the live total 1,127.50",
    });
    await form.getByLabel(/^Number of invoices/).fill("6");
    expect(await seriousViolations(page)).toEqual([]);
    await saveArtifact(page, "recurring-template");
    await form.getByRole("button", { name: "Create recurring invoice" }).click();
    await visible(page.getByText(/Created: the first invoice is made on/));
    const row = page
      .getByRole("table", { name: /Recurring invoices/ })
      .getByRole("row")
      .filter({ hasText: "Erin Client" });
    await visible(row);
    expect(await row.textContent()).toContain("6 in all");

    const cron = await fetch(`${env.app.url}/api/cron/recurring`, {
      headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
    });
    expect(await cron.json()).toMatchObject({ created: 1, sent: 1 });

    await page.reload();
    await row.getByRole("button", { name: "Invoices" }).click();
    const made = page.getByRole("region", { name: "Invoices made for Erin Client" });
    const link = made.getByRole("link", { name: /^INV-/ });
    await visible(link);
    const number = (await link.textContent()) ?? "";
    await link.click();
    await visible(page.getByRole("heading", { name: new RegExp(number) }));
    const main = page.locator("main");
    await until(async () => (await main.textContent())?.includes("Hosting") ?? false, {
      message: "the invoice's lines",
    });
    const shown = (await main.textContent()) ?? "";
    for (const text of ["Retainer", "Hosting", "Erin Client", "Erin Ltd", "1,127.50", "EUR"]) {
      expect(shown).toContain(text);
    }

    // Edit the template: a new rate from the next invoice; the one made stays as it is.
    await page.goto(`${env.app.url}/recurring`);
    await row.getByRole("link", { name: /^Edit/ }).click();
    const edit = page.getByRole("form", { name: "Edit recurring invoice" });
    await visible(edit);
    expect(await edit.getByLabel("Rate, item 1").inputValue()).toBe("1000");
    expect(await edit.getByLabel("Description, item 2").inputValue()).toBe("Hosting");
    expect(await edit.getByLabel("Price in").inputValue()).toBe("EUR");
    await until(async () => (await edit.getByLabel("Client name").inputValue()) === "Erin Client", {
      message: "the linked client's name on the edit page",
    });
    await edit.getByLabel("Rate, item 1").fill("1100");
    await edit.getByRole("button", { name: "Save changes" }).click();
    await visible(page.getByText(/Saved: the changes apply from the next invoice/));
    const api = (path: string) =>
      fetch(`${env.app.url}${path}`, {
        headers: { authorization: `Bearer ${session.token}` },
      }).then((r) => r.json());
    const list = await api("/api/recurring");
    const schedule = list.find(
      (r: { template: { title?: string } }) => r.template.title === "Monthly retainer",
    );
    expect(schedule.template).toMatchObject({ priceCurrency: "EUR", taxRate: "10" });
    expect(schedule.template.clientId).toBeTruthy();
    expect(schedule.template.lineItems.map((l: { rate: string }) => l.rate)).toEqual([
      "1100",
      "12.50",
    ]);
    const detail = await api(`/api/recurring/${schedule.id}`);
    expect(detail.invoices).toHaveLength(1);
    expect(new Decimal(detail.invoices[0].total).toFixed(2)).toBe("1127.50");
  });
});
