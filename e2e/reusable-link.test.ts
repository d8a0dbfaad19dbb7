import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { funded, Keypair } from "@/tests/helpers/stellar";
import {
  type GuardedContext,
  launchBrowser,
  newContext,
  saveFailureShots,
  until,
  visible,
} from "./helpers/browser";
import { type E2eEnv, startEnv } from "./helpers/env";
import { installFreighter } from "./helpers/freighter";
import { countRequests, fieldError, signInWithFreighter } from "./helpers/ui";

/**
 * A reusable open-amount link (docs/decisions.md, Payment links): the freelancer makes it on
 * the links page, two payers each choose an amount and pay from the checkout, and the links
 * page shows both payments.
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

describe("reusable open-amount link", () => {
  it("two payers pay the amounts they choose; the links page shows both", async () => {
    // The freelancer: funded (the recipient must exist), signed in with Freighter.
    const freelancer = await funded(env.testnet, Keypair.random());
    const owner = await context();
    await installFreighter(owner.context, { keypair: freelancer });
    const page = await owner.newPage();
    await signInWithFreighter(page, env.app.url, "/links");

    const form = page.getByRole("form", { name: "New payment link" });
    // The API's rules, checked in the page: the error beside its field, nothing sent.
    const posts = countRequests(page, "POST", "/api/links");
    await form.getByLabel("Amount", { exact: true }).fill("0");
    await form.getByRole("button", { name: "Create payment link" }).click();
    expect(await fieldError(form.getByLabel("Amount", { exact: true }))).toContain(
      "Amount must be greater than 0",
    );
    expect(posts()).toBe(0);
    // An open amount has no amount: the box goes, and what it held is not checked.
    await form.getByLabel("Let the payer choose the amount").check();
    await form.getByLabel("Minimum amount").fill("2");
    await form.getByLabel("Reusable").check();
    await form.getByLabel("Title").fill("Tip jar");
    await form.getByRole("button", { name: "Create payment link" }).click();
    await visible(page.getByText(/Link created: Payer chooses, at least 2(\.00)? XLM/));
    expect(posts()).toBe(1);
    const checkoutUrl = await page.getByLabel("Checkout URL").inputValue();

    const amounts = ["3.5", "12"];
    for (const amount of amounts) {
      const payer = await funded(env.testnet);
      const c = await context();
      await installFreighter(c.context, { keypair: payer });
      const pay = await c.newPage();
      await pay.goto(checkoutUrl);
      await visible(pay.getByRole("heading", { level: 1, name: "Tip jar" }));
      const choose = pay.getByRole("form", { name: "Choose the amount" });
      // Below the minimum: a clear message, and no checkout is made.
      await choose.getByLabel("Amount (XLM)").fill("1");
      await choose.getByRole("button", { name: "Continue to payment" }).click();
      await visible(choose.getByText("Amount must be at least 2"));
      await choose.getByLabel("Amount (XLM)").fill(amount);
      await choose.getByRole("button", { name: "Continue to payment" }).click();
      await pay.waitForURL((url) => url.toString() !== checkoutUrl);
      await visible(pay.getByRole("button", { name: "Pay with Freighter" }));
      expect(await pay.getByRole("region", { name: "Payment", exact: true }).textContent()).toMatch(
        new RegExp(`${amount.replace(".", "\\.")}(\\.?0*)? XLM`),
      );
      await pay.getByRole("button", { name: "Pay with Freighter" }).click();
      await visible(pay.getByRole("heading", { name: "Payment received" }));
      expect(c.errors).toEqual([]);
    }

    await page.reload();
    const table = page.getByRole("table", { name: "Your payment links, newest first" });
    const row = table.getByRole("row", { name: /Tip jar/ });
    await until(async () => /2 \(unlimited\)/.test((await row.textContent()) ?? ""), {
      message: "the link to show 2 payments",
    });
    expect(await row.textContent()).toMatch(/15\.50* XLM received/);
    expect(owner.errors).toEqual([]);
  });
});
