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
 * Issue 13's journey: a client pays a 25 XLM invoice in two parts. The first 10 XLM are sent
 * straight to the ledger with the invoice's memo (as any wallet could) and the watcher records
 * them; the checkout then shows "10.00 XLM paid, 15.00 XLM remaining", and Freighter pays the
 * remainder. The receipt and the freelancer's invoice page list both payments.
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

async function context() {
  const c = await newContext(browser);
  contexts.push(c);
  return c;
}

const statusOf = async (id: string) =>
  (await fetch(`${env.app.url}/api/payments/${id}/status`)).json();

describe("paying an invoice in two parts", () => {
  it("shows what is paid and what remains, pays the rest, and lists both payments", async () => {
    const invoice = await sentInvoice(freelancer, {
      clientName: "Ada Client",
      clientEmail: "ada@example.com",
      freelancerName: "Grace Hopper",
      title: "Logo design",
      currency: "XLM",
      lineItems: [{ description: "Logo", quantity: "1", rate: "25" }],
    });
    expect(invoice.total).toBe("25.0000000");

    // The first part, straight on the ledger with the invoice's memo: the watcher records it.
    const first = await funded(env.testnet);
    const firstHash = await send(
      env.testnet,
      await pay(
        env.testnet,
        first,
        freelancer.wallet,
        Asset.native(),
        "10",
        Memo.text(invoice.invoiceNumber),
      ),
    );
    const partly = await until(
      async () => {
        const s = await statusOf(invoice.id);
        return s.amountPaid === "10.0000000" ? s : null;
      },
      { message: "the watcher to record the first 10 XLM", timeout: 30_000 },
    );
    expect(partly).toMatchObject({ amountDue: "15.0000000", payments: [{ applied: true }] });
    expect(partly.status).not.toBe("PAID");

    // The checkout, straight from the server: paid so far, what remains, the payment received.
    const payer = await funded(env.testnet);
    const c = await context();
    await installFreighter(c.context, { keypair: payer });
    const page = await c.newPage();
    await page.goto(`${env.app.url}/pay/${invoice.id}`);
    const panel = page.getByRole("region", { name: "Payment", exact: true });
    const remaining = await visible(page.getByTestId("paid-remaining"));
    expect(await remaining.textContent()).toContain("10.00 XLM paid, 15.00 XLM remaining");
    expect(await panel.textContent()).toContain("Amount due15.00 XLM");
    // The USD estimate is for what remains (stub source: 0.125 USD per XLM).
    await visible(page.getByText("≈ $1.88 USD"));
    const received = page.getByTestId("received-payment");
    expect(await received.count()).toBe(1);
    expect(await received.first().getAttribute("data-applied")).toBe("true");
    await saveArtifact(page, "checkout-partly-paid");

    // Freighter pays the remainder: the pay-intent asks for the amount due.
    await page.getByRole("button", { name: "Pay with Freighter" }).click();
    await visible(page.getByRole("heading", { name: "Payment received" }));
    const paid = await statusOf(invoice.id);
    expect(paid).toMatchObject({
      status: "PAID",
      amountPaid: "25.0000000",
      amountDue: "0.0000000",
    });
    expect(paid.payments).toHaveLength(2);
    expect(paid.payments.map((p: { amount: string }) => p.amount)).toEqual([
      "10.0000000",
      "15.0000000",
    ]);
    expect(paid.payments[0].transactionHash).toBe(firstHash);
    expect(paid.payments[1].fromWallet).toBe(payer.publicKey());

    const receipt = page.getByRole("region", { name: "Payment received" });
    await until(async () => (await receipt.getByTestId("received-payment").count()) === 2, {
      message: "the receipt to list both payments",
    });
    const receiptText = (await receipt.textContent()) ?? "";
    expect(receiptText).toContain("10.00 XLM");
    expect(receiptText).toContain("15.00 XLM");
    expect(receiptText).toContain(String(paid.payments[0].ledgerNumber));
    await saveArtifact(page, "checkout-paid-in-two-parts");
    expect(c.blocked).toEqual([]);
    expect(c.errors).toEqual([]);

    // A reload shows the same receipt from the server.
    await page.reload();
    await visible(page.getByRole("heading", { name: "Payment received" }));
    expect(await page.getByTestId("received-payment").count()).toBe(2);

    // The freelancer's invoice page: both payments, applied, and the amounts.
    const fc = await context();
    await installFreighter(fc.context, { keypair: freelancer.keypair });
    const mine = await fc.newPage();
    await signInWithFreighter(mine, env.app.url, `/invoices/${invoice.id}`);
    await visible(mine.getByTestId("invoice-status").getByText("PAID"));
    const rows = mine.getByTestId("payment-row");
    expect(await rows.count()).toBe(2);
    for (const row of await rows.all()) {
      expect(await row.getAttribute("data-applied")).toBe("true");
      expect(await row.textContent()).toContain("Applied");
    }
    const table = mine.getByRole("table", { name: "Payments received" });
    const tableText = (await table.textContent()) ?? "";
    expect(tableText).toContain("10.00 XLM");
    expect(tableText).toContain("15.00 XLM");
    const summary = (await mine.getByRole("region", { name: "Summary" }).textContent()) ?? "";
    expect(summary).toContain("Paid25.0000000 XLM");
    expect(summary).toContain("Due0.0000000 XLM");
    await saveArtifact(mine, "invoice-paid-in-two-parts");
    expect(fc.blocked).toEqual([]);
  });
});
