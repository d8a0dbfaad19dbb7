import Big from "big.js";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formatMoney } from "@/lib/format";
import { parseSep7PayUri } from "@/lib/stellar/sep7";
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
import { installFreighter } from "./helpers/freighter";
import { decodeQr } from "./helpers/qr";
import { signInWithFreighter } from "./helpers/ui";

/**
 * Issue 28, items 2 and 7: the checkout's quote box follows the amount due (a payment from
 * elsewhere replaces the quote and its QR code, on screen and after a reload), and a payer who
 * only opened the QR code does not make the freelancer's screens say PROCESSING.
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
  env.prices.reset();
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

const squash = (s: string | null) => (s ?? "").replace(/\s+/g, " ");
const statusOf = async (id: string) =>
  (await fetch(`${env.app.url}/api/payments/${id}/status`)).json();

describe("the checkout's quote after a partial payment (item 2)", () => {
  it("is replaced by a quote for what is left, with its QR code, and a reload keeps the new one", async () => {
    const invoice = await sentInvoice(freelancer, {
      clientName: "Ada Client",
      clientEmail: "ada@example.com",
      title: "Quote follows the amount due",
      currency: "XLM",
      priceCurrency: "EUR",
      lineItems: [{ description: "Workshop", quantity: "1", rate: "100.00" }],
    });
    const c = await context();
    const page = await c.newPage();
    await page.goto(`${env.app.url}/pay/${invoice.id}`);
    await page.getByRole("button", { name: "Pay with a mobile wallet" }).click();
    // 100.00 EUR at 0.1157 EUR per XLM, rounded up to the stroop.
    const quote = await visible(page.getByRole("region", { name: "Quote" }));
    expect(squash(await quote.textContent())).toContain("Pay 864.3042351 XLM");
    const qr = await visible(page.getByRole("img", { name: "Payment QR code" }));
    expect(parseSep7PayUri(await decodeQr(qr)).amount).toBe("864.3042351");

    // 400 XLM reach the freelancer from another wallet (46.28 EUR at the quote's rate).
    const other = await funded(env.testnet);
    const hash = await send(
      env.testnet,
      await pay(
        env.testnet,
        other,
        freelancer.wallet,
        Asset.native(),
        "400",
        Memo.text(invoice.invoiceNumber),
      ),
    );
    await fetch(`${env.app.url}/api/payments/confirm`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ invoiceId: invoice.id, transactionHash: hash }),
    });

    // The box now asks for what is left: 53.72 EUR, a new quote, never the old 864.30 XLM.
    await visible(page.getByTestId("paid-remaining"));
    const fresh = await until(
      async () => {
        const s = await statusOf(invoice.id);
        return s.quote && s.quote.fiatAmount === "53.72" ? s.quote : null;
      },
      { message: "a new quote for the 53.72 EUR left" },
    );
    const left = formatMoney(fresh.assetAmount, "XLM");
    await until(async () => squash(await quote.textContent()).includes(`Pay ${left}`), {
      message: `the quote box to say Pay ${left}`,
    });
    expect(squash(await quote.textContent())).not.toContain("864.3042351");
    // Worth the 53.72 EUR due at the new quote's rate (rounded up to the stroop).
    expect(new Big(fresh.assetAmount).times(fresh.rate).gte("53.72")).toBe(true);
    expect(new Big(fresh.assetAmount).lt("864.3042351")).toBe(true);
    const newQr = await visible(page.getByRole("img", { name: "Payment QR code" }));
    await until(
      async () =>
        parseSep7PayUri(await decodeQr(newQr)).amount === new Big(fresh.assetAmount).toString(),
      { message: "the QR code to carry the new quote's amount" },
    );

    // A reload shows the new quote, not the stale one.
    await page.reload();
    const reloaded = await visible(page.getByRole("region", { name: "Quote" }));
    expect(squash(await reloaded.textContent())).toContain(`Pay ${left}`);
    expect(c.errors).toEqual([]);
  });
});

describe("opening the QR code (item 7)", () => {
  it("does not make the freelancer's list, invoice page or dashboard say PROCESSING", async () => {
    const invoice = await sentInvoice(freelancer, {
      clientName: "Opened QR Client",
      clientEmail: "qr@example.com",
      title: "Only looked at the QR code",
      currency: "XLM",
      lineItems: [{ description: "Logo", quantity: "1", rate: "25" }],
    });
    const payerContext = await context();
    const payerPage = await payerContext.newPage();
    await payerPage.goto(`${env.app.url}/pay/${invoice.id}`);
    await payerPage.getByRole("button", { name: "Pay with a mobile wallet" }).click();
    await visible(payerPage.getByRole("img", { name: "Payment QR code" }));
    // The API keeps the spec's transition.
    expect((await statusOf(invoice.id)).status).toBe("PROCESSING");

    const fc = await context();
    await installFreighter(fc.context, { keypair: freelancer.keypair });
    const mine = await fc.newPage();
    await signInWithFreighter(mine, env.app.url, "/invoices");
    const row = await visible(
      mine.getByRole("row").filter({ hasText: invoice.invoiceNumber }).first(),
    );
    expect(squash(await row.textContent())).toContain("Pending");
    expect(squash(await row.textContent())).not.toMatch(/processing/i);

    await mine.goto(`${env.app.url}/invoices/${invoice.id}`);
    const badge = await visible(mine.getByTestId("invoice-status"));
    expect(squash(await badge.textContent())).toBe("Pending");
    await visible(mine.getByText("Payment started").first());

    await mine.goto(`${env.app.url}/dashboard`);
    const byStatus = await visible(mine.getByText("By status"));
    await visible(byStatus);
    expect(await mine.getByText("PROCESSING", { exact: true }).count()).toBe(0);
    expect(fc.errors).toEqual([]);
  });
});
