import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { trust } from "@/tests/helpers/stellar";
import {
  type GuardedContext,
  launchBrowser,
  newContext,
  saveArtifact,
  saveFailureShots,
  visible,
} from "./helpers/browser";
import { apiFreelancer, type E2eEnv, type Freelancer, sentInvoice, startEnv } from "./helpers/env";

/**
 * Issue 31, item 3: the checkout pays with a smart wallet. The demo smart wallet (the local
 * stand-in for a smart wallet, docs/decisions.md, Smart-wallet payers) is a local smart wallet
 * (C...) for the page's demo key: the payer adds USDC to the demo wallet, picks "Pay with Demo
 * smart wallet", and the page moves the USDC into the smart wallet, asks pay-intent for the
 * asset contract transfer (simulated through the ledger's Stellar RPC), signs its Soroban
 * authorization entry (SDK `authorizeEntry`) and the envelope (the demo account pays the fee),
 * submits it, and shows the receipt naming the C address.
 *
 * The payment is matched by the invoice's muxed address (a Soroban transaction carries no
 * memo): this test needs the per-invoice muxed addresses of issue 31, item 2
 * (lib/domain/muxed.ts), and runs once they are in.
 */
let env: E2eEnv;
let browser: Browser;
let freelancer: Freelancer;
const contexts: GuardedContext[] = [];
const SMART = "Demo smart wallet (local ledger only)";

beforeAll(async () => {
  [env, browser] = await Promise.all([startEnv({ DEMO_WALLET: "on" }), launchBrowser()]);
  freelancer = await apiFreelancer(env);
  await trust(env.testnet, freelancer.keypair, env.testnet.usdc);
});

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => saveFailureShots(task.name, contexts));
});

afterAll(async () => {
  for (const c of contexts) await c.context.close().catch(() => {});
  await browser?.close();
  await env?.stop();
});

describe("the checkout with a smart wallet (issue 31, item 3)", () => {
  it("pays a USDC invoice from the demo smart wallet's C address and shows the receipt", async () => {
    const invoice = await sentInvoice(freelancer, {
      clientName: "Ada Client",
      clientEmail: "ada@example.com",
      title: "Smart wallet work",
      currency: "USDC",
      lineItems: [{ description: "Work", quantity: "1", rate: "12.5" }],
    });
    const c = await newContext(browser);
    contexts.push(c);
    const page = await c.newPage();
    await page.goto(`${env.app.url}/pay/${invoice.id}`);
    // The picker offers the smart wallet beside the demo wallet.
    const wallets = await visible(page.getByRole("list", { name: "Browser wallets" }));
    await visible(wallets.getByRole("button", { name: `Pay with ${SMART}` }));

    await page.getByRole("button", { name: "Add 100 USDC to the demo wallet" }).click();
    await visible(page.getByText("The demo wallet holds 100 more USDC."), 30_000);
    await page.getByRole("button", { name: `Pay with ${SMART}` }).click();
    await visible(page.getByRole("heading", { name: "Payment received" }), 60_000);

    const smart = await page.evaluate(() =>
      JSON.parse(localStorage.getItem("stellar-invoicing.demo-smart-wallet") ?? "{}"),
    );
    const wallet = smart.testnet as string;
    expect(wallet).toMatch(/^C[A-Z2-7]{55}$/);
    // The receipt names the smart wallet's C address.
    await visible(page.getByText(wallet, { exact: true }));
    const status = await (await fetch(`${env.app.url}/api/payments/${invoice.id}/status`)).json();
    expect(status).toMatchObject({ status: "PAID", payerWallet: wallet });
    expect(status.payments).toEqual([
      expect.objectContaining({ fromWallet: wallet, amount: "12.5000000", applied: true }),
    ]);
    // A smart wallet's transaction: one asset contract transfer, no memo.
    const verified = await (
      await fetch(`${env.app.url}/api/payments/verify-tx`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ transactionHash: status.transactionHash, network: "testnet" }),
      })
    ).json();
    expect(verified).toMatchObject({ memoType: "none" });
    expect(verified.payments).toEqual([
      expect.objectContaining({ type: "contract_transfer", from: wallet, amount: "12.5000000" }),
    ]);
    await saveArtifact(page, "checkout-smart-wallet-receipt");
    expect(c.blocked).toEqual([]);
  });
});
