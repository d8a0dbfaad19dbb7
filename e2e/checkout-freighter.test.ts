import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
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
import { installFreighter } from "./helpers/freighter";
import { signInWithFreighter } from "./helpers/ui";

/** Journey b: a client pays an invoice from the checkout with Freighter; the freelancer sees it. */
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

async function context(...args: Parameters<typeof newContext>[1][]) {
  const c = await newContext(browser, args[0]);
  contexts.push(c);
  return c;
}

describe("payer journey with Freighter", () => {
  it("shows the invoice, pays it with visible progress, and turns into a receipt", async () => {
    const invoice = await sentInvoice(freelancer, {
      clientName: "Ada Client",
      clientEmail: "ada@example.com",
      freelancerName: "Grace Hopper",
      freelancerCompany: "Hopper Studio",
      title: "Website redesign",
      description: "Design and build of the new marketing site.",
      currency: "XLM",
      taxRate: "10",
      discount: "1.1",
      dueDate: "2099-12-31",
      lineItems: [
        { description: "Design", quantity: "2", rate: "150.5" },
        { description: "Build", quantity: "1", rate: "700" },
      ],
    });
    expect(invoice.total).toBe("1100.0000000");

    const payer = await funded(env.testnet);
    const c = await context();
    const wallet = await installFreighter(c.context, { keypair: payer, signDelayMs: 800 });
    const page = await c.newPage();
    const response = await page.goto(`${env.app.url}/pay/${invoice.id}`);
    expect(response?.status()).toBe(200);

    // Who is paid, what for, and how much: all in the server-rendered HTML.
    await visible(page.getByRole("heading", { level: 1, name: "Website redesign" }));
    const details = page.getByRole("region", { name: "Invoice details" });
    expect(await details.textContent()).toContain("Grace Hopper");
    expect(await details.textContent()).toContain("Hopper Studio");
    expect(await details.textContent()).toContain(freelancer.wallet);
    expect(await details.textContent()).toContain("Ada Client");
    expect(await details.textContent()).toContain("Design and build of the new marketing site.");
    const rows = page.getByRole("table", { name: "Line items" }).getByRole("row");
    expect(await rows.count()).toBe(3);
    const totals = page.getByRole("region", { name: "Totals" });
    const totalsText = (await totals.textContent())?.replace(/\s+/g, " ");
    expect(totalsText).toContain("Subtotal1,001.00 XLM");
    expect(totalsText).toContain("Tax (10%)100.10 XLM");
    expect(totalsText).toContain("Discount−1.10 XLM");
    expect(totalsText).toContain("Total1,100.00 XLM");
    const payment = page.getByRole("region", { name: "Payment", exact: true });
    expect(await payment.textContent()).toContain("Amount due");
    expect(await payment.textContent()).toContain("Due 31 Dec 2099");
    expect(await payment.textContent()).toContain("Pending");
    // The USD estimate from GET /api/prices/xlm (stub source: 0.125 USD per XLM).
    await visible(page.getByText("≈ $137.50 USD"));

    await page.getByRole("button", { name: "Pay with Freighter" }).click();
    const progress = page.getByRole("list", { name: "Payment progress" });
    const signing = progress
      .getByRole("listitem")
      .filter({ hasText: "Waiting for your signature" });
    await until(async () => (await signing.getAttribute("aria-current")) === "step", {
      message: "the signature step to be current",
    });
    expect(
      await progress
        .getByRole("listitem")
        .filter({ hasText: "Connecting to Freighter" })
        .getAttribute("data-state"),
    ).toBe("done");
    expect(
      await progress
        .getByRole("listitem")
        .filter({ hasText: "Preparing transaction" })
        .getAttribute("data-state"),
    ).toBe("done");
    await saveArtifact(page, "checkout-signing");

    await visible(page.getByRole("heading", { name: "Payment received" }));
    const status = await (await fetch(`${env.app.url}/api/payments/${invoice.id}/status`)).json();
    expect(status).toMatchObject({ status: "PAID", payerWallet: payer.publicKey() });
    const receipt = page.getByRole("region", { name: "Payment received" });
    const receiptText = (await receipt.textContent()) ?? "";
    expect(receiptText).toContain(status.transactionHash);
    expect(receiptText).toContain(String(status.ledgerNumber));
    expect(receiptText).toContain(payer.publicKey());
    expect(receiptText).toMatch(/Paid\d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC/);
    const explorer = receipt.getByRole("link", { name: /View the transaction/ });
    expect(await explorer.getAttribute("href")).toBe(
      `https://stellar.expert/explorer/testnet/tx/${status.transactionHash}`,
    );
    for (const step of await progress.getByRole("listitem").all()) {
      expect(await step.getAttribute("data-state")).toBe("done");
    }
    // The receipt took the focus, so a screen reader announces it.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Payment received");
    expect(await payment.getByRole("button", { name: "Pay with Freighter" }).count()).toBe(0);
    await saveArtifact(page, "checkout-paid");

    // The stand-in answered the library's real requests.
    expect(wallet.calls).toEqual(
      expect.arrayContaining([
        "REQUEST_CONNECTION_STATUS",
        "REQUEST_ACCESS",
        "REQUEST_NETWORK_DETAILS",
        "SUBMIT_TRANSACTION",
      ]),
    );
    expect(c.blocked).toEqual([]);
    expect(c.errors).toEqual([]);

    // A reload shows the receipt straight from the server.
    await page.reload();
    await visible(page.getByRole("heading", { name: "Payment received" }));
    expect(await page.getByRole("button", { name: "Pay with Freighter" }).count()).toBe(0);

    // The freelancer's dashboard: the invoice is PAID and counted in the XLM revenue.
    const fc = await context();
    await installFreighter(fc.context, { keypair: freelancer.keypair });
    const dash = await fc.newPage();
    await signInWithFreighter(dash, env.app.url, "/dashboard");
    const revenue = dash.getByRole("region", { name: "XLM revenue" });
    await until(async () => /1,?100\.00/.test((await revenue.textContent()) ?? ""), {
      message: "the XLM revenue to show 1,100",
    });
    const activity = dash.locator("section", {
      has: dash.getByRole("heading", { name: "Recent activity" }),
    });
    expect(await activity.textContent()).toContain("Paid");
    expect(await activity.textContent()).toContain(invoice.invoiceNumber);
    await saveArtifact(dash, "dashboard-after-payment");
    expect(fc.blocked).toEqual([]);
  });

  it("pays a payment link the same way", async () => {
    const link = await freelancer.api.post("/api/links", {
      amount: "42.5",
      asset: "XLM",
      title: "Coffee chat",
      reference: "ORDER-77",
    });
    expect(link.status).toBe(201);
    const payer = await funded(env.testnet);
    const c = await context();
    await installFreighter(c.context, { keypair: payer });
    const page = await c.newPage();
    await page.goto(link.body.checkoutUrl);
    await visible(page.getByRole("heading", { level: 1, name: "Coffee chat" }));
    const details = page.getByRole("region", { name: "Payment details" });
    expect(await details.textContent()).toContain("ORDER-77");
    expect(await page.getByRole("table").count()).toBe(0);
    expect(
      await page.getByRole("region", { name: "Payment", exact: true }).textContent(),
    ).toContain("42.50 XLM");
    await page.getByRole("button", { name: "Pay with Freighter" }).click();
    await visible(page.getByRole("heading", { name: "Payment received" }));
    const status = await (await fetch(`${env.app.url}/api/links/${link.body.id}/status`)).json();
    expect(status).toMatchObject({ status: "PAID", payerWallet: payer.publicKey() });
  });
});
