import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { toStroops } from "@/lib/domain/money";
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
 * Issue 13's refund journey: a 25 XLM invoice overpaid with 30 XLM (seen by the watcher); the
 * freelancer opens the invoice page, refunds the overpaid 5 with the wallet stand-in, and the
 * payer gets exactly 5 XLM back (docs/decisions.md, Refunds).
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

const xlmBalance = async (account: string) =>
  toStroops(
    (await env.testnet.server.loadAccount(account)).balances.find((b) => b.asset_type === "native")
      ?.balance ?? "0",
  );

describe("refunding an overpayment from the invoice page", () => {
  it("signs the refund with the wallet and sends the overpaid 5 XLM back", async () => {
    const invoice = await sentInvoice(freelancer, {
      clientName: "Ada Client",
      clientEmail: "ada@example.com",
      title: "Logo design",
      currency: "XLM",
      lineItems: [{ description: "Logo", quantity: "1", rate: "25" }],
    });
    const payer = await funded(env.testnet);
    await send(
      env.testnet,
      await pay(
        env.testnet,
        payer,
        freelancer.wallet,
        Asset.native(),
        "30",
        Memo.text(invoice.invoiceNumber),
      ),
    );
    await until(
      async () => {
        const s = await (await fetch(`${env.app.url}/api/payments/${invoice.id}/status`)).json();
        return s.status === "PAID";
      },
      { message: "the watcher to record the 30 XLM", timeout: 30_000 },
    );
    const before = await xlmBalance(payer.publicKey());

    const c = await newContext(browser);
    contexts.push(c);
    await installFreighter(c.context, { keypair: freelancer.keypair });
    const page = await c.newPage();
    await signInWithFreighter(page, env.app.url, `/invoices/${invoice.id}`);
    const row = page.getByTestId("payment-row");
    await visible(row);
    await row.getByRole("button", { name: "Refund" }).click();
    // The form opens below the table, not inside the row (issue 28 item 17).
    const form = page.getByTestId("refund-panel");
    expect(await row.getByRole("textbox").count()).toBe(0);
    await form.getByRole("button", { name: "Sign and refund" }).click();
    await visible(form.getByText(/^Refunded 5(\.00)? XLM\.$/), 30_000);
    await saveArtifact(page, "invoice-refunded");

    expect((await xlmBalance(payer.publicKey())) - before).toBe(50_000_000n);
    await until(async () => ((await row.textContent()) ?? "").includes("refunded"), {
      message: "the payments list to show the amount refunded",
    });
    await visible(page.getByTestId("invoice-status").getByText("PAID"));
    expect(c.blocked).toEqual([]);
    expect(c.errors).toEqual([]);
  });
});
