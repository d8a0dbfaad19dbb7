import { Keypair } from "@stellar/stellar-sdk";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TEST_CRON_SECRET } from "@/tests/helpers/app";
import { funded } from "@/tests/helpers/stellar";
import { seriousViolations } from "./helpers/axe";
import {
  type GuardedContext,
  launchBrowser,
  newContext,
  saveArtifact,
  saveFailureShots,
  visible,
} from "./helpers/browser";
import { type E2eEnv, startEnv } from "./helpers/env";
import { installFreighter } from "./helpers/freighter";
import { countRequests, fieldError, signInWithFreighter } from "./helpers/ui";

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
    await signInWithFreighter(page, env.app.url, "/dashboard");
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Recurring" })
      .click();
    await visible(page.getByRole("heading", { name: "Recurring invoices", level: 1 }));
    expect(await seriousViolations(page)).toEqual([]);

    const form = page.getByRole("form", { name: "Recurring invoice" });
    // The API's rules, checked in the page: each error beside its field, nothing sent.
    const posts = countRequests(page, "POST", "/api/recurring");
    await form.getByLabel("Client name").fill("Ada Lovelace");
    await form.getByLabel("Client email").fill("ada@example");
    await form.getByRole("button", { name: "Create recurring invoice" }).click();
    expect(await fieldError(form.getByLabel("Client email"))).toContain("Invalid email");
    expect(await fieldError(form.getByLabel("Rate"))).toContain("Rate must be a decimal number");
    expect(posts()).toBe(0);
    await form.getByLabel("Client email").fill("ada@example.com");
    await form.getByLabel("Title").fill("Monthly retainer");
    await form.getByLabel("Line item").fill("Retainer");
    await form.getByLabel("Rate").fill("250");
    await form.getByLabel("Currency").selectOption("XLM");
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
    const form = page.getByRole("form", { name: "Recurring invoice" });
    await form.getByLabel("Client name").fill("Grace Hopper");
    await form.getByLabel("Client email").fill("grace@example.com");
    await form.getByLabel("Title").fill("Weekly support");
    await form.getByLabel("Line item").fill("Support");
    await form.getByLabel("Rate").fill("40");
    await form.getByLabel("Currency").selectOption("USDC");
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
});
