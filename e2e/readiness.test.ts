import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { client } from "@/tests/helpers/api";
import { holder, trust } from "@/tests/helpers/stellar";
import {
  type GuardedContext,
  launchBrowser,
  newContext,
  saveArtifact,
  saveFailureShots,
  until,
  visible,
} from "./helpers/browser";
import { apiFreelancer, type E2eEnv, sentInvoice, startEnv } from "./helpers/env";
import { installFreighter } from "./helpers/freighter";
import { signInWithFreighter } from "./helpers/ui";

/**
 * Recipient readiness in the browser (docs/decisions.md, Recipient readiness): a freelancer
 * whose wallet cannot receive USDC is told so while drafting and at send, and "Add trustline"
 * (built by the service, signed by the wallet stand-in, relayed to the local ledger) fixes it;
 * a payer whose payment the ledger refuses with op_no_trust reads that it is the recipient's.
 */
let env: E2eEnv;
let browser: Browser;
const contexts: GuardedContext[] = [];

const USDC_INVOICE = {
  clientName: "Ada Client",
  clientEmail: "ada@example.com",
  freelancerName: "Grace Hopper",
  title: "Consulting",
  currency: "USDC",
  lineItems: [{ description: "Call", quantity: "1", rate: "25" }],
};

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

const usdcLines = async (wallet: string) =>
  (await env.testnet.server.loadAccount(wallet)).balances.filter(
    (b) => "asset_code" in b && b.asset_code === "USDC",
  );

describe("a recipient that can receive", () => {
  it("send is refused without a USDC trustline; Add trustline (signed in the wallet) fixes it", async () => {
    const freelancer = await apiFreelancer(env);
    const c = await newContext(browser);
    contexts.push(c);
    const wallet = await installFreighter(c.context, { keypair: freelancer.keypair });
    const page = await c.newPage();
    await signInWithFreighter(page, env.app.url, "/dashboard");
    const draft = await sentInvoice(freelancer, USDC_INVOICE, { send: false });
    await page.goto(`${env.app.url}/invoices/${draft.id}`);

    const issuer = env.testnet.ledger.issuers.USDC.issuer;
    const message = `Your wallet cannot receive USDC on Testnet yet: it has no trustline to USDC issued by ${issuer}`;
    // The drafting warning, before anything is tried.
    const warning = await visible(page.getByRole("region", { name: "Recipient readiness" }));
    expect(await warning.textContent()).toContain(message);

    // Send anyway: the service refuses with the same message.
    await page.getByRole("button", { name: "Send invoice" }).click();
    await visible(page.locator("main").getByRole("alert").filter({ hasText: message }));
    expect((await freelancer.api.get(`/api/invoices/${draft.id}/owner`)).body.status).toBe("DRAFT");
    await saveArtifact(page, "readiness-send-refused");

    // One click: the service builds the change_trust, the wallet signs it, the ledger has it.
    await warning.getByRole("button", { name: "Add trustline" }).click();
    await until(async () => (await warning.count()) === 0, {
      message: "the warning to go",
      timeout: 20_000,
    });
    expect(wallet.calls).toContain("SUBMIT_TRANSACTION");
    expect(await usdcLines(freelancer.wallet)).toEqual([
      expect.objectContaining({ asset_issuer: issuer, limit: "922337203685.4775807" }),
    ]);

    await page.getByRole("button", { name: "Send invoice" }).click();
    await visible(page.getByText("Invoice sent. It can now be paid from its payment link."));
    expect((await freelancer.api.get(`/api/invoices/${draft.id}/owner`)).body.status).toBe(
      "PENDING",
    );
    expect(c.blocked).toEqual([]);
  });

  it("the checkout: a payment the ledger refuses for the recipient's trustline is explained as the recipient's", async () => {
    const freelancer = await apiFreelancer(env);
    await trust(env.testnet, freelancer.keypair, env.testnet.usdc);
    const invoice = await sentInvoice(freelancer, USDC_INVOICE);
    const payer = await holder(env.testnet, env.testnet.usdc, "100");
    const c = await newContext(browser);
    contexts.push(c);
    // The payer takes a while to approve: meanwhile the freelancer removes the trustline.
    const wallet = await installFreighter(c.context, { keypair: payer, signDelayMs: 3000 });
    const page = await c.newPage();
    await page.goto(`${env.app.url}/pay/${invoice.id}`);
    await page.getByRole("button", { name: "Pay with Freighter" }).click();
    // The payer pays in the invoice's asset (the default of the checkout's choice).
    const choice = await visible(page.getByRole("group", { name: "Pay with" }));
    await choice.getByRole("button", { name: "Continue with USDC" }).click();
    await until(async () => wallet.calls.includes("SUBMIT_TRANSACTION"), {
      message: "the signature request",
    });
    await trust(env.testnet, freelancer.keypair, env.testnet.usdc, "0");

    const region = page.getByRole("region", { name: "Payment", exact: true });
    const alert = await visible(region.getByRole("alert"), 20_000);
    expect(await alert.textContent()).toBe(
      "The recipient's wallet cannot receive this asset (it has no trustline for it, or it was removed). Nothing was paid. Ask the sender of this invoice to add a trustline, then try again.",
    );
    await saveArtifact(page, "readiness-checkout-no-trust");

    // Trying again now: pay-options offers nothing the recipient cannot receive (no asset
    // choice is shown) and pay-intent refuses first, in the recipient's words too.
    await page.getByRole("button", { name: "Try again" }).click();
    await until(
      async () =>
        (await region.getByRole("alert").textContent()) ===
        "The recipient wallet cannot receive this asset yet. Ask the sender of this invoice to add a trustline.",
      { message: "pay-intent's refusal" },
    );
    // The API's own answer to submit stays the ledger's message (the contract).
    const status = await client(env.app.url).get(`/api/payments/${invoice.id}/status`);
    expect(status.body.status).toBe("FAILED");
  });
});
