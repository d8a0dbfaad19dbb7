import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Asset, funded, Memo, pay, send } from "@/tests/helpers/stellar";
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
import { installFreighter } from "./helpers/freighter";
import { signInWithFreighter } from "./helpers/ui";

/**
 * Issue 28, item 4: the freelancer has the invoice page open while the client pays. The page
 * follows the same status stream as the checkout: each payment shows within seconds, without
 * a reload, with a toast (role=status); a list left open refetches when its window comes back
 * into focus. Real signed payments on the local ledger, confirmed as the checkout does.
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

/** A client pays `amount` XLM with the invoice's memo and the checkout confirms it. */
async function clientPays(invoice: { id: string; invoiceNumber: string }, amount: string) {
  const payer = await funded(env.testnet);
  const hash = await send(
    env.testnet,
    await pay(
      env.testnet,
      payer,
      freelancer.wallet,
      Asset.native(),
      amount,
      Memo.text(invoice.invoiceNumber),
    ),
  );
  await fetch(`${env.app.url}/api/payments/confirm`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ invoiceId: invoice.id, transactionHash: hash }),
  });
  return hash;
}

describe("the freelancer's pages update themselves", () => {
  it("the open invoice page shows each payment within seconds, with a toast, and no reload", async () => {
    const invoice = await sentInvoice(freelancer, {
      clientName: "Ada Client",
      clientEmail: "ada@example.com",
      title: "Logo design",
      currency: "XLM",
      lineItems: [{ description: "Logo", quantity: "1", rate: "25" }],
    });
    const c = await newContext(browser);
    contexts.push(c);
    await installFreighter(c.context, { keypair: freelancer.keypair });
    const page = await c.newPage();
    await signInWithFreighter(page, env.app.url, `/invoices/${invoice.id}`);
    await visible(page.getByText("No payment yet"));
    // A mark that a reload would wipe.
    await page.evaluate(() => {
      (window as unknown as { stillHere: boolean }).stillHere = true;
    });

    const firstHash = await clientPays(invoice, "10");
    const rows = page.getByTestId("payment-row");
    await until(async () => (await rows.count()) === 1, {
      message: "the first payment on the open page",
      timeout: 8_000,
    });
    const toast = page.getByRole("status").getByTestId("toast");
    await visible(toast.filter({ hasText: "10.00 XLM" }), 5_000);
    expect(await toast.first().textContent()).toContain(
      `Payment received on ${invoice.invoiceNumber}: 10.00 XLM`,
    );
    expect(await rows.first().textContent()).toContain("10.00 XLM");
    const summary = page.getByRole("region", { name: "Summary" });
    await until(async () => (await summary.textContent())?.includes("Due15.0000000 XLM"), {
      message: "the amount due to follow",
      timeout: 5_000,
    });
    await saveArtifact(page, "invoice-live-partly-paid");

    await clientPays(invoice, "15");
    await until(async () => (await rows.count()) === 2, {
      message: "the second payment on the open page",
      timeout: 8_000,
    });
    await visible(page.getByTestId("invoice-status").getByText(/paid/i), 5_000);
    await visible(toast.filter({ hasText: "15.00 XLM" }), 5_000);
    expect(await page.getByRole("table", { name: "Payments received" }).textContent()).toContain(
      firstHash.slice(0, 8),
    );
    expect(
      await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere),
    ).toBe(true);
    await saveArtifact(page, "invoice-live-paid");
    expect(c.errors).toEqual([]);

    // The list, left open while another invoice is paid, shows it once the window is back.
    const other = await sentInvoice(freelancer, {
      clientName: "Bob Client",
      clientEmail: "bob@example.com",
      title: "Icons",
      currency: "XLM",
      lineItems: [{ description: "Icons", quantity: "1", rate: "5" }],
    });
    await page.goto(`${env.app.url}/invoices`);
    const row = page.getByRole("row").filter({ hasText: other.invoiceNumber });
    await visible(row);
    expect(await row.textContent()).toMatch(/pending/i);
    await clientPays(other, "5");
    await page.waitForTimeout(2_100);
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    await until(async () => /paid/i.test((await row.textContent()) ?? ""), {
      message: "the list to refetch on focus",
      timeout: 5_000,
    });
    expect(await row.textContent()).not.toMatch(/pending/i);
  });
});
