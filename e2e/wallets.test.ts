import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { client } from "@/tests/helpers/api";
import { funded } from "@/tests/helpers/stellar";
import {
  type GuardedContext,
  launchBrowser,
  newContext,
  saveArtifact,
  saveFailureShots,
  visible,
} from "./helpers/browser";
import { apiFreelancer, type E2eEnv, type Freelancer, sentInvoice, startEnv } from "./helpers/env";
import { installHana } from "./helpers/hana";
import { signInWith } from "./helpers/ui";

/**
 * Stellar Wallets Kit with a second wallet: the kit's real Hana module runs in the page
 * against the Hana stand-in (e2e/helpers/hana.ts), which signs with a real keypair. Sign-in
 * (SEP-53 through the kit's signMessage) and payment (signTransaction) go through it; the
 * pickers list every wallet and keep the ones that cannot sign a message out of sign-in.
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

const XLM_INVOICE = {
  clientName: "Ada Client",
  clientEmail: "ada@example.com",
  title: "Logo",
  currency: "XLM",
  dueDate: "2099-12-31",
  lineItems: [{ description: "Logo", quantity: "1", rate: "12.5" }],
};

describe("wallets through Stellar Wallets Kit", () => {
  it("the sign-in picker lists every wallet; Albedo and Rabet can pay, not sign in", async () => {
    const c = await context();
    const page = await c.newPage();
    await page.goto(`${env.app.url}/dashboard`);
    await visible(page.getByRole("button", { name: "Connect Freighter" }));
    const wallets = page.getByRole("list", { name: "Wallets" });
    const names = await wallets.getByRole("button").allTextContents();
    expect(names).toEqual([
      "Connect Freighter",
      "Connect xBull",
      "Connect LOBSTR",
      "Connect Hana",
      "Connect Albedo",
      "Connect Rabet",
    ]);
    for (const name of ["Albedo", "Rabet"]) {
      const button = wallets.getByRole("button", { name: `Connect ${name}` });
      expect(await button.isDisabled()).toBe(true);
      const note = await button.getAttribute("aria-describedby");
      expect(await page.locator(`#${note}`).textContent()).toBe(
        `Not available for sign-in: ${name} cannot sign the login message. It can still pay invoices.`,
      );
    }
    for (const name of ["Freighter", "xBull", "LOBSTR", "Hana"]) {
      expect(await wallets.getByRole("button", { name: `Connect ${name}` }).isEnabled()).toBe(true);
    }
    // No WalletConnect without WALLETCONNECT_PROJECT_ID, no demo wallet without DEMO_WALLET.
    expect(await page.getByText(/WalletConnect|Demo wallet/).count()).toBe(0);
    await saveArtifact(page, "sign-in-picker");
  });

  it("a freelancer signs in with Hana (SEP-53 through the kit), and a payer pays with Hana", async () => {
    const keypair = await funded(env.testnet);
    const fc = await context();
    const hana = await installHana(fc.context, { keypair });
    const dash = await fc.newPage();
    const session = await signInWith("Hana", dash, env.app.url, "/dashboard");
    expect(session.wallet).toBe(keypair.publicKey());
    expect(hana.calls).toEqual(["getPublicKey", "signMessage"]);
    const me = await client(env.app.url, session.token).get("/api/auth/session");
    expect(me.body.walletAddress).toBe(keypair.publicKey());

    // A payer whose only wallet is Hana pays an invoice from the checkout.
    const invoice = await sentInvoice(freelancer, XLM_INVOICE);
    const payer = await funded(env.testnet);
    const pc = await context();
    const payerHana = await installHana(pc.context, { keypair: payer });
    const page = await pc.newPage();
    await page.goto(`${env.app.url}/pay/${invoice.id}`);
    await page.getByRole("button", { name: "Pay with Hana" }).click();
    await visible(page.getByRole("heading", { name: "Payment received" }), 30_000);
    expect(payerHana.calls).toEqual(["getPublicKey", "signTransaction"]);
    const status = await (await fetch(`${env.app.url}/api/payments/${invoice.id}/status`)).json();
    expect(status.status).toBe("PAID");
    expect(status.payerWallet).toBe(payer.publicKey());
    const paid = await env.testnet.server.transactions().transaction(status.transactionHash).call();
    expect(paid.source_account).toBe(payer.publicKey());
    expect(pc.blocked).toEqual([]);
  });

  it("the checkout names the wallet the payer picked: Hana rejecting, Rabet missing", async () => {
    const invoice = await sentInvoice(freelancer, XLM_INVOICE);
    const c = await context();
    await installHana(c.context, { keypair: await funded(env.testnet), reject: "sign" });
    const page = await c.newPage();
    await page.goto(`${env.app.url}/pay/${invoice.id}`);
    const payment = page.getByRole("region", { name: "Payment", exact: true });
    await page.getByRole("button", { name: "Pay with Hana" }).click();
    const alert = await visible(payment.getByRole("alert"));
    expect(await alert.textContent()).toBe("The request was cancelled in Hana.");
    await page.getByRole("button", { name: "Pay with Rabet" }).click();
    await visible(payment.getByRole("alert").filter({ hasText: "Rabet was not found" }));
    expect(await payment.getByRole("alert").textContent()).toBe(
      "Rabet was not found. Install the Rabet browser extension, then reload this page.",
    );
    const step = page.getByRole("listitem").filter({ hasText: "Connecting to Rabet" });
    expect(await step.getAttribute("data-state")).toBe("failed");
    expect(await page.getByText("Freighter was not found").count()).toBe(0);
    const status = await (await fetch(`${env.app.url}/api/payments/${invoice.id}/status`)).json();
    expect(status.transactionHash).toBeNull();
  });
});
