import { Keypair, Networks } from "@stellar/stellar-sdk";
import type { Browser, Page } from "playwright-core";
import postgres from "postgres";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TEST_CRON_SECRET } from "@/tests/helpers/app";
import { funded } from "@/tests/helpers/stellar";
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
import { type FreighterOptions, installFreighter } from "./helpers/freighter";

/**
 * Journey d: what goes wrong, and what the payer sees. Every failure ends in a clear message
 * and a way forward; nothing stays spinning.
 */
let env: E2eEnv;
let browser: Browser;
let sql: postgres.Sql;
let freelancer: Freelancer;
const contexts: GuardedContext[] = [];

const SMALL_INVOICE = {
  clientName: "Ada Client",
  clientEmail: "ada@example.com",
  freelancerName: "Grace Hopper",
  title: "Consulting",
  currency: "XLM",
  lineItems: [{ description: "Call", quantity: "1", rate: "25" }],
};

beforeAll(async () => {
  [env, browser] = await Promise.all([startEnv(), launchBrowser()]);
  sql = postgres(env.databaseUrl, { max: 2, onnotice: () => {} });
  freelancer = await apiFreelancer(env);
});

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => saveFailureShots(task.name, contexts));
});

afterAll(async () => {
  for (const c of contexts) await c.context.close().catch(() => {});
  await browser?.close();
  await sql?.end();
  await env?.stop();
});

/** A fresh browser context (with the stand-in unless `wallet` is null) on the checkout. */
async function openCheckout(
  id: string,
  wallet: (Omit<FreighterOptions, "keypair"> & { keypair?: Keypair }) | null,
): Promise<{ page: Page; c: GuardedContext; response: number | undefined }> {
  const c = await newContext(browser);
  contexts.push(c);
  if (wallet) await installFreighter(c.context, { keypair: Keypair.random(), ...wallet });
  const page = await c.newPage();
  const response = await page.goto(`${env.app.url}/pay/${id}`);
  return { page, c, response: response?.status() };
}

const alertIn = (page: Page) =>
  page.getByRole("region", { name: "Payment", exact: true }).getByRole("alert");

describe("checkout errors", () => {
  it("without the Freighter extension: a clear message, nothing stuck, the mobile way still works", async () => {
    const invoice = await sentInvoice(freelancer, SMALL_INVOICE);
    const { page, c } = await openCheckout(invoice.id, null);
    const started = Date.now();
    await page.getByRole("button", { name: "Pay with Freighter" }).click();
    const alert = await visible(alertIn(page), 10_000);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(await alert.textContent()).toBe(
      "Freighter was not found. Install the Freighter browser extension, then reload this page.",
    );
    const step = page.getByRole("listitem").filter({ hasText: "Connecting to Freighter" });
    expect(await step.getAttribute("data-state")).toBe("failed");
    expect(await page.getByRole("button", { name: "Try again" }).isEnabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Pay with Freighter" }).isEnabled()).toBe(true);
    await saveArtifact(page, "checkout-no-freighter");
    // The other way to pay is right there.
    await page.getByRole("button", { name: "Pay with a mobile wallet" }).click();
    await visible(page.getByRole("img", { name: "Payment QR code" }));
    expect(c.blocked).toEqual([]);
  });

  it("the payer rejects the signature, then tries again and pays", async () => {
    const invoice = await sentInvoice(freelancer, SMALL_INVOICE);
    const payer = await funded(env.testnet);
    const c = await newContext(browser);
    contexts.push(c);
    const wallet = await installFreighter(c.context, { keypair: payer, reject: "sign" });
    const page = await c.newPage();
    await page.goto(`${env.app.url}/pay/${invoice.id}`);
    await page.getByRole("button", { name: "Pay with Freighter" }).click();
    const alert = await visible(alertIn(page));
    expect(await alert.textContent()).toBe("The request was cancelled in Freighter.");
    expect(
      await page
        .getByRole("listitem")
        .filter({ hasText: "Waiting for your signature" })
        .getAttribute("data-state"),
    ).toBe("failed");
    // Nothing was sent.
    const status = await (await fetch(`${env.app.url}/api/payments/${invoice.id}/status`)).json();
    expect(status.transactionHash).toBeNull();

    wallet.set({ reject: null });
    await page.getByRole("button", { name: "Try again" }).click();
    await visible(page.getByRole("heading", { name: "Payment received" }));
    expect(await alertIn(page).count()).toBe(0);
  });

  it("the price feed is down: no USD estimate, the rest of the page unchanged", async () => {
    const invoice = await sentInvoice(freelancer, SMALL_INVOICE);
    const c = await newContext(browser);
    contexts.push(c);
    await c.context.route("**/api/prices/xlm", (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ error: "Price feed temporarily unavailable" }),
      }),
    );
    const page = await c.newPage();
    const priced = page.waitForResponse("**/api/prices/xlm");
    await page.goto(`${env.app.url}/pay/${invoice.id}`);
    expect((await priced).status()).toBe(503);
    const payment = page.getByRole("region", { name: "Payment", exact: true });
    expect(await payment.textContent()).toContain("25.00 XLM");
    expect(await page.getByText(/≈ \$/).count()).toBe(0);
    expect(await payment.getByRole("alert").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Pay with Freighter" }).isEnabled()).toBe(true);
  });

  it("an underfunded payer sees the spec's insufficient balance message", async () => {
    const invoice = await sentInvoice(freelancer, {
      ...SMALL_INVOICE,
      lineItems: [{ description: "A large job", quantity: "1", rate: "50000" }],
    });
    const payer = await funded(env.testnet); // friendbot gives 10,000 XLM
    const { page } = await openCheckout(invoice.id, { keypair: payer });
    await page.getByRole("button", { name: "Pay with Freighter" }).click();
    const alert = await visible(alertIn(page));
    expect(await alert.textContent()).toBe(
      "Insufficient balance. Make sure the wallet has enough XLM for amount, reserve, and fees.",
    );
    expect(await page.getByRole("button", { name: "Try again" }).isVisible()).toBe(true);
    await saveArtifact(page, "checkout-underfunded");
  });

  it("Freighter on the wrong network: the payer is told to switch", async () => {
    const invoice = await sentInvoice(freelancer, SMALL_INVOICE);
    const payer = await funded(env.testnet);
    const { page } = await openCheckout(invoice.id, {
      keypair: payer,
      networkPassphrase: Networks.PUBLIC,
    });
    await page.getByRole("button", { name: "Pay with Freighter" }).click();
    const alert = await visible(alertIn(page));
    expect(await alert.textContent()).toBe(
      `Freighter is set to "${Networks.PUBLIC}". Switch it to "${Networks.TESTNET}" and try again.`,
    );
  });

  it("an expired invoice shows that it is past due and can still be paid", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const invoice = await sentInvoice(freelancer, { ...SMALL_INVOICE, dueDate: today });
    await sql`update invoices set due_date = due_date - interval '3 days' where id = ${invoice.id}`;
    const expire = await fetch(`${env.app.url}/api/cron/expire`, {
      headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
    });
    expect(expire.status).toBe(200);
    const [row] = await sql`select status from invoices where id = ${invoice.id}`;
    expect(row.status).toBe("EXPIRED");

    const payer = await funded(env.testnet);
    const { page } = await openCheckout(invoice.id, { keypair: payer });
    const payment = page.getByRole("region", { name: "Payment", exact: true });
    await visible(payment.getByText("This invoice is past due"));
    expect(await payment.textContent()).toContain("Expired");
    await saveArtifact(page, "checkout-expired");
    await page.getByRole("button", { name: "Pay with Freighter" }).click();
    await visible(page.getByRole("heading", { name: "Payment received" }));
  });

  it("an expired payment link is not found", async () => {
    const created = await freelancer.api.post("/api/links", {
      amount: "5",
      asset: "XLM",
      title: "Coffee",
    });
    expect(created.status).toBe(201);
    const active = await openCheckout(created.body.id, null);
    expect(active.response).toBe(200);
    await visible(active.page.getByRole("heading", { level: 1, name: "Coffee" }));
    expect(await active.page.getByRole("button", { name: "Pay with Freighter" }).count()).toBe(1);

    await sql`update invoices set link_expires_at = now() - interval '1 minute' where id = ${created.body.id}`;
    const { page, response } = await openCheckout(created.body.id, null);
    expect(response).toBe(404);
    await visible(page.getByRole("heading", { level: 1, name: "Invoice not found" }));
    expect(await page.getByRole("button", { name: "Pay with Freighter" }).count()).toBe(0);

    const unknown = await openCheckout("does-not-exist", null);
    expect(unknown.response).toBe(404);
    await visible(unknown.page.getByRole("heading", { level: 1, name: "Invoice not found" }));
    await saveArtifact(unknown.page, "checkout-not-found");
  });

  it("a cancelled invoice says so and offers no way to pay; a draft is not payable yet", async () => {
    const invoice = await sentInvoice(freelancer, SMALL_INVOICE);
    expect((await freelancer.api.post(`/api/invoices/${invoice.id}/cancel`, {})).status).toBe(200);
    const { page } = await openCheckout(invoice.id, null);
    await visible(page.getByText("This invoice was cancelled"));
    expect(await page.getByRole("button", { name: /^Pay with/ }).count()).toBe(0);
    await saveArtifact(page, "checkout-cancelled");

    const draft = await sentInvoice(freelancer, SMALL_INVOICE, { send: false });
    const d = await openCheckout(draft.id, null);
    await visible(d.page.getByText("This invoice has not been sent yet"));
    expect(await d.page.getByRole("button", { name: /^Pay with/ }).count()).toBe(0);

    // Sent while the page is open: the page offers payment without a reload.
    expect((await freelancer.api.post(`/api/invoices/${draft.id}/send`)).status).toBe(200);
    await until(() => d.page.getByRole("button", { name: "Pay with Freighter" }).isVisible(), {
      timeout: 10_000,
      message: "the draft to become payable",
    });
  });
});
