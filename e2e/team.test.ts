import fs from "node:fs";
import { Keypair } from "@stellar/stellar-sdk";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { funded } from "@/tests/helpers/stellar";
import { seriousViolations } from "./helpers/axe";
import {
  type GuardedContext,
  launchBrowser,
  newContext,
  PHONE,
  saveFailureShots,
  until,
  visible,
} from "./helpers/browser";
import {
  apiFreelancer,
  type E2eEnv,
  type Freelancer,
  payThroughApi,
  sentInvoice,
  startEnv,
} from "./helpers/env";
import { installFreighter } from "./helpers/freighter";
import { signInWithFreighter, storeSession } from "./helpers/ui";

/**
 * Team access in the browser (docs/decisions.md, Team access): the freelancer invites an
 * accountant's wallet on the Team page (on a phone); the accountant signs in with its own
 * wallet, picks the freelancer's books, downloads the payments CSV with the payment in it, and
 * is offered no refund (a refund through the API with its token is 403).
 */
let env: E2eEnv;
let browser: Browser;
let freelancer: Freelancer;
const contexts: GuardedContext[] = [];
const accountant = Keypair.random();

beforeAll(async () => {
  [env, browser] = await Promise.all([startEnv(), launchBrowser()]);
  freelancer = await apiFreelancer(env);
  await funded(env.testnet, accountant);
  expect(
    (await freelancer.api.put("/api/profile", { company: "Ada Studio", displayName: "Ada" }))
      .status,
  ).toBe(200);
});

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => saveFailureShots(task.name, contexts));
});

afterAll(async () => {
  for (const c of contexts) await c.context.close().catch(() => {});
  await browser?.close();
  await env?.stop();
});

/** No element makes the page wider than the screen. */
const overflow = (page: import("playwright-core").Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe("an accountant on the freelancer's books", () => {
  it("is invited on the Team page, picks the books, exports the payments and cannot refund", async () => {
    const invoice = await sentInvoice(freelancer, {
      clientName: "Ada Client",
      clientEmail: "ada@example.com",
      title: "Logo design",
      currency: "XLM",
      lineItems: [{ description: "Logo", quantity: "1", rate: "25" }],
    });
    const payer = await funded(env.testnet);
    const paid = await payThroughApi(env, invoice.id, payer);
    const hash: string = paid.transactionHash;
    expect(hash, JSON.stringify(paid)).toMatch(/^[0-9a-f]{64}$/);

    // The freelancer, on a phone: Settings > Team, invite the accountant's wallet.
    const owner = await newContext(browser, { viewport: PHONE });
    contexts.push(owner);
    await storeSession(owner.context, freelancer);
    const ownerPage = await owner.newPage();
    await ownerPage.goto(`${env.app.url}/settings/team`);
    await visible(ownerPage.getByRole("heading", { name: "Team", level: 1 }));
    expect(await seriousViolations(ownerPage)).toEqual([]);
    const form = ownerPage.getByRole("form", { name: "Invite a wallet" });
    await form.getByLabel("Wallet address").fill("GNOTAWALLET");
    await form.getByRole("button", { name: "Invite" }).click();
    await visible(form.getByText(/wallet must be a Stellar account address/));
    await form.getByLabel("Wallet address").fill(accountant.publicKey());
    await form.getByLabel("Role").selectOption("accountant");
    await form.getByRole("button", { name: "Invite" }).click();
    const row = ownerPage.getByTestId("team-member");
    await visible(row.getByText("Invited, not yet accepted"));
    await visible(row.getByText(accountant.publicKey()));
    expect(await seriousViolations(ownerPage)).toEqual([]);
    expect(await overflow(ownerPage)).toBeLessThanOrEqual(0);

    // The accountant signs in as itself and picks the freelancer's books.
    const acc = await newContext(browser);
    contexts.push(acc);
    await installFreighter(acc.context, { keypair: accountant });
    const page = await acc.newPage();
    await signInWithFreighter(page, env.app.url, "/dashboard");
    const picker = await visible(page.getByLabel("Books", { exact: true }));
    expect(await picker.locator("option").allTextContents()).toEqual([
      "Your books",
      "Ada Studio (accountant)",
    ]);
    await picker.selectOption(freelancer.wallet);
    await visible(page.getByTestId("books-banner").getByText(/Ada Studio .* accountant/));
    // The owner's settings are not in the accountant's menu, nor "New invoice".
    const nav = page.getByRole("navigation", { name: "Main" });
    await visible(nav.getByRole("link", { name: "Invoices" }));
    for (const hidden of ["API keys", "Webhooks", "Profile", "Team"]) {
      expect(await nav.getByRole("link", { name: hidden }).count(), hidden).toBe(0);
    }
    await visible(page.getByRole("heading", { name: "Dashboard", level: 1 }));
    expect(await page.getByRole("button", { name: "New invoice" }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    // The payments CSV of the freelancer's books.
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export payments (CSV)" }).click();
    const csv = fs.readFileSync(await (await download).path(), "utf8");
    expect(csv).toContain(hash);
    expect(csv).toContain(invoice.invoiceNumber);

    // The paid invoice: its payment listed, no refund offered.
    await page.goto(`${env.app.url}/invoices/${invoice.id}`);
    await visible(page.getByRole("heading", { name: new RegExp(invoice.invoiceNumber) }));
    await visible(page.getByTitle(hash).first());
    expect(await page.getByRole("button", { name: "Refund" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Cancel invoice" }).count()).toBe(0);

    // Nor does the API refund with the accountant's token.
    const token = await page.evaluate(
      () => JSON.parse(localStorage.getItem("stellar-invoicing.session") ?? "{}").token,
    );
    const owned = await fetch(`${env.app.url}/api/invoices/${invoice.id}/owner`, {
      headers: { authorization: `Bearer ${token}` },
    }).then((r) => r.json());
    const refund = await fetch(
      `${env.app.url}/api/invoices/${invoice.id}/payments/${owned.payments[0].id}/refund`,
      {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: "{}",
      },
    );
    expect(refund.status).toBe(403);
    expect((await refund.json()).error).toMatch(/^Your role \(accountant\)/);

    // The freelancer's Team page now shows the accountant active; back to its own books.
    await ownerPage.reload();
    await visible(ownerPage.getByTestId("team-member").getByText("Active"));
    await page.getByRole("button", { name: "Back to my books" }).click();
    await until(async () => (await page.getByTestId("books-banner").count()) === 0, {
      message: "the banner gone",
    });
  });
});
