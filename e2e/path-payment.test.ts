import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { funded, holder, trust } from "@/tests/helpers/stellar";
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

/**
 * Paying with another asset (docs/decisions.md, Path payments): a payer holding only XLM pays
 * a USDC invoice from the checkout. After the wallet connects, the checkout lists what the
 * account can pay with (GET .../pay-options, priced by the local ledger's /paths/strict-receive);
 * the payer picks XLM, signs one path_payment_strict_receive, and the freelancer receives
 * exactly the total in USDC.
 */
let env: E2eEnv;
let browser: Browser;
let freelancer: Freelancer;
const contexts: GuardedContext[] = [];

beforeAll(async () => {
  [env, browser] = await Promise.all([startEnv(), launchBrowser()]);
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

async function context() {
  const c = await newContext(browser);
  contexts.push(c);
  return c;
}

const USDC_INVOICE = {
  clientName: "Ada Client",
  clientEmail: "ada@example.com",
  title: "Illustrations",
  currency: "USDC",
  dueDate: "2099-12-31",
  lineItems: [{ description: "Illustrations", quantity: "1", rate: "25" }],
};

const stroops = (s: string) => BigInt(s.replace(".", ""));

async function balance(account: string, code: "XLM" | "USDC") {
  const a = await env.testnet.server.loadAccount(account);
  const line = a.balances.find((b) =>
    code === "XLM"
      ? b.asset_type === "native"
      : "asset_code" in b &&
        b.asset_code === "USDC" &&
        b.asset_issuer === env.testnet.usdc.getIssuer(),
  );
  return line?.balance ?? "0";
}

const statusOf = async (id: string) =>
  (await fetch(`${env.app.url}/api/payments/${id}/status`)).json();

describe("pay with any asset you hold", () => {
  it("a USDC invoice paid with XLM through a path: the freelancer receives exactly the total", async () => {
    const invoice = await sentInvoice(freelancer, USDC_INVOICE);
    const payer = await funded(env.testnet); // XLM only
    const c = await context();
    await installFreighter(c.context, { keypair: payer });
    const page = await c.newPage();
    await page.goto(`${env.app.url}/pay/${invoice.id}`);
    const before = { payer: await balance(payer.publicKey(), "XLM") };

    await page.getByRole("button", { name: "Pay with Freighter" }).click();
    const choice = await visible(page.getByRole("group", { name: "Pay with" }));
    // The only balance that can pay: XLM, at the ledger's 0.1 USDC per XLM (+1 % at most).
    const xlm = choice.getByRole("radio", { name: /XLM/ });
    expect(await xlm.isChecked()).toBe(true);
    expect(await choice.textContent()).toContain("The recipient receives exactly 25 USDC");
    expect(await choice.textContent()).toContain("About 250 XLM (at most 252.5)");
    await saveArtifact(page, "pay-with-asset");
    await choice.getByRole("button", { name: "Continue with XLM" }).click();

    await visible(page.getByRole("heading", { name: "Payment received" }), 30_000);

    // On the ledger: exactly 25 USDC arrived; the payer spent 250 XLM and the fee.
    expect(await balance(freelancer.wallet, "USDC")).toBe("25.0000000");
    const spent = stroops(before.payer) - stroops(await balance(payer.publicKey(), "XLM"));
    expect(spent).toBe(2_500_000_100n);
    const status = await statusOf(invoice.id);
    expect(status).toMatchObject({ status: "PAID", amountPaid: invoice.total });
    expect(invoice.total).toBe("25.0000000");
    const ops = await env.testnet.server.operations().forTransaction(status.transactionHash).call();
    expect(ops.records.map((o) => o.type)).toEqual(["path_payment_strict_receive"]);
    expect(c.blocked).toEqual([]);
  });

  it("a payer holding the invoice's asset gets it as the default, and may cancel", async () => {
    const invoice = await sentInvoice(freelancer, USDC_INVOICE);
    const payer = await holder(env.testnet, env.testnet.usdc, "100");
    const c = await context();
    await installFreighter(c.context, { keypair: payer });
    const page = await c.newPage();
    await page.goto(`${env.app.url}/pay/${invoice.id}`);
    await page.getByRole("button", { name: "Pay with Freighter" }).click();
    const choice = await visible(page.getByRole("group", { name: "Pay with" }));
    const radios = choice.getByRole("radio");
    expect(await radios.count()).toBe(2);
    expect(await choice.getByRole("radio", { name: /USDC/ }).isChecked()).toBe(true);
    await choice.getByRole("button", { name: "Cancel" }).click();
    const payment = page.getByRole("region", { name: "Payment", exact: true });
    await visible(payment.getByRole("alert").filter({ hasText: "Payment cancelled" }));
    await until(async () => (await statusOf(invoice.id)).status === "PENDING");
    expect(await balance(freelancer.wallet, "USDC")).toBe("25.0000000"); // from the first test only
  });
});
