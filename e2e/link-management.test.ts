import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { shortAddress } from "@/lib/format";
import { funded, Keypair } from "@/tests/helpers/stellar";
import { seriousViolations } from "./helpers/axe";
import {
  DESKTOP,
  type GuardedContext,
  launchBrowser,
  newContext,
  PHONE,
  saveFailureShots,
  until,
  visible,
} from "./helpers/browser";
import { type E2eEnv, startEnv } from "./helpers/env";
import { installFreighter } from "./helpers/freighter";
import { signInWithFreighter } from "./helpers/ui";

/**
 * Managing a reusable link (docs/decisions.md, Payment links, Managing a link): a payer pays
 * it, the freelancer opens the link's page, sees who paid, and deactivates it; the payer's
 * page then says it is no longer accepting payments, and the dashboard counts the money.
 */
let env: E2eEnv;
let browser: Browser;
const contexts: GuardedContext[] = [];

beforeAll(async () => {
  [env, browser] = await Promise.all([startEnv(), launchBrowser()]);
});

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => saveFailureShots(task.name, contexts));
});

afterAll(async () => {
  for (const c of contexts) await c.context.close().catch(() => {});
  await browser?.close();
  await env?.stop();
});

async function context() {
  const c = await newContext(browser);
  contexts.push(c);
  return c;
}

describe("managing a payment link", () => {
  it("the freelancer sees who paid a checkout, deactivates the link, and payers are told", async () => {
    const freelancer = await funded(env.testnet, Keypair.random());
    const owner = await context();
    await installFreighter(owner.context, { keypair: freelancer });
    const page = await owner.newPage();
    await signInWithFreighter(page, env.app.url, "/links");

    const form = page.getByRole("form", { name: "New payment link" });
    await form.getByLabel("Amount", { exact: true }).fill("4");
    await form.getByLabel("Reusable").check();
    await form.getByLabel("Title").fill("Yoga class");
    await form.getByRole("button", { name: "Create payment link" }).click();
    // A reusable link does not expire unless asked.
    await visible(page.getByText(/Link created: 4(\.00)? XLM on Testnet\./i));
    const checkoutUrl = await page.getByLabel("Checkout URL").inputValue();

    // A payer pays one checkout from the link's page.
    const payer = await funded(env.testnet);
    const c = await context();
    await installFreighter(c.context, { keypair: payer });
    const pay = await c.newPage();
    await pay.goto(checkoutUrl);
    await pay.getByRole("button", { name: "Continue to payment" }).click();
    await pay.waitForURL((url) => url.toString() !== checkoutUrl);
    await pay.getByRole("button", { name: "Pay with Freighter" }).click();
    await visible(pay.getByRole("heading", { name: "Payment received" }));

    // The freelancer opens the link from the list and sees who paid.
    await page.reload();
    const table = page.getByRole("table", { name: "Your payment links, newest first" });
    await table.getByRole("link", { name: "Yoga class", exact: true }).click();
    await visible(page.getByRole("heading", { level: 1, name: "Yoga class" }));
    const paid = page.getByRole("table", { name: "Payments through this link, newest first" });
    const row = paid.getByRole("row", { name: new RegExp(shortAddress(payer.publicKey())) });
    await until(async () => (await row.count()) === 1, { message: "the payer's row" });
    expect(await row.textContent()).toMatch(/-1.*4(\.0+)? XLM.*paid/i);

    // Deactivate, confirmed in a dialog.
    await page.getByRole("button", { name: "Deactivate link" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Deactivate" }).click();
    await visible(page.getByText("Link deactivated: it accepts no new payments."));
    await visible(page.getByRole("button", { name: "Reactivate link" }));
    // The link's page reads well to assistive technology and fits a phone.
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
      ),
    ).toBe(true);
    await page.setViewportSize(DESKTOP);

    // The payer's page: no amount, no pay button, a clear sentence.
    await pay.goto(checkoutUrl);
    await visible(pay.getByText("This link is no longer accepting payments."));
    expect(await pay.getByRole("button", { name: "Continue to payment" }).count()).toBe(0);
    expect(await seriousViolations(pay)).toEqual([]);

    // The money counts on the dashboard, as link revenue.
    await page.goto(`${env.app.url}/dashboard`);
    const links = page.getByRole("region", { name: "Payment link revenue" });
    await visible(links);
    expect(await links.getByTestId("link-revenue-XLM").textContent()).toMatch(/^4(\.0+)? XLM$/);
    expect(owner.errors).toEqual([]);
    expect(c.errors).toEqual([]);
  });
});
