import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Asset, funded, Memo, pay, send } from "@/tests/helpers/stellar";
import {
  type GuardedContext,
  launchBrowser,
  newContext,
  saveFailureShots,
  until,
  visible,
} from "./helpers/browser";
import { apiFreelancer, type E2eEnv, type Freelancer, sentInvoice, startEnv } from "./helpers/env";
import { storeSession } from "./helpers/ui";

/**
 * Issue 28: the dashboard left open in a tab while a client pays. Nothing on the dashboard
 * polls; when the tab comes back into focus it asks for the statistics again
 * (`useResource(..., { refreshOnFocus: true })`, components/dashboard/dashboard-view.tsx) and
 * shows the payment: counts, revenue and the activity. A real signed payment on the local
 * ledger, recorded by the watcher.
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

describe("the dashboard refreshes when its tab comes back", () => {
  it("a payment that arrived while the tab was blurred shows on focus", async () => {
    const invoice = await sentInvoice(freelancer, {
      clientName: "Ada Client",
      clientEmail: "ada@example.com",
      title: "Logo design",
      currency: "XLM",
      lineItems: [{ description: "Logo", quantity: "1", rate: "42" }],
    });
    const c = await newContext(browser);
    contexts.push(c);
    await storeSession(c.context, freelancer);
    const page = await c.newPage();
    await page.goto(`${env.app.url}/dashboard`);
    const counts = page.getByRole("region", { name: "Invoice counts" });
    await visible(counts);
    const countsText = async () => ((await counts.textContent()) ?? "").replace(/\s+/g, "");
    expect(await countsText()).toContain("Paid0");
    expect(await countsText()).toContain("Awaitingpayment1");

    // The tab loses focus; the client pays meanwhile; the watcher records it.
    await page.evaluate(() => window.dispatchEvent(new Event("blur")));
    const payer = await funded(env.testnet);
    await send(
      env.testnet,
      await pay(
        env.testnet,
        payer,
        freelancer.wallet,
        Asset.native(),
        "42",
        Memo.text(invoice.invoiceNumber),
      ),
    );
    await until(
      async () => {
        const s = await (await fetch(`${env.app.url}/api/payments/${invoice.id}/status`)).json();
        return s.status === "PAID";
      },
      { message: "the watcher to record the payment", timeout: 30_000 },
    );
    // Still the old figures: nothing refreshes a dashboard on its own.
    await page.waitForTimeout(2_100);
    expect(await countsText()).toContain("Paid0");

    // The tab comes back.
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    await until(async () => (await countsText()).includes("Paid1"), {
      message: "the dashboard to refetch on focus",
      timeout: 5_000,
    });
    expect(await countsText()).toContain("Awaitingpayment0");
    const activity = page.getByRole("listitem").filter({ hasText: invoice.invoiceNumber });
    await visible(activity.filter({ hasText: /^Paid/ }));
    expect(c.errors).toEqual([]);
    expect(c.blocked).toEqual([]);
  });
});
