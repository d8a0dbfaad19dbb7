import { TransactionBuilder } from "@stellar/stellar-sdk";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Asset, funded, Memo, pay, send } from "@/tests/helpers/stellar";
import {
  type GuardedContext,
  launchBrowser,
  newContext,
  PHONE,
  saveArtifact,
  saveFailureShots,
  until,
  visible,
} from "./helpers/browser";
import {
  apiFreelancer,
  type E2eEnv,
  type Freelancer,
  payThroughApi,
  sentInvoice,
  startEnv,
} from "./helpers/env";
import { storeSession } from "./helpers/ui";

/**
 * Issue 28, item 1: a EUR-priced invoice paid in XLM is written in EUR outside its own page
 * too: the invoice list (table and 375 px card), the dashboard (its own "priced in EUR"
 * figures, never on the XLM card) and the activity feed (a refund in the XLM it sent back).
 * docs/decisions.md, Fiat pricing.
 */
let env: E2eEnv;
let browser: Browser;
let freelancer: Freelancer;
const contexts: GuardedContext[] = [];
let partly: { id: string; invoiceNumber: string };
let paid: { id: string; invoiceNumber: string };

const squash = (s: string | null) => (s ?? "").replace(/\s+/g, " ").trim();

beforeAll(async () => {
  [env, browser] = await Promise.all([startEnv(), launchBrowser()]);
  freelancer = await apiFreelancer(env);
  const body = (title: string, rate: string) => ({
    clientName: "Ada Client",
    clientEmail: "ada@example.com",
    title,
    currency: "XLM",
    priceCurrency: "EUR",
    lineItems: [{ description: "Work", quantity: "1", rate }],
  });
  // 200 EUR, 500 XLM paid at the quote's 0.1157 EUR: 57.85 EUR paid, 142.15 EUR due.
  partly = await sentInvoice(freelancer, body("Partly paid in XLM", "200"));
  const anon = (path: string, json: unknown) =>
    fetch(env.app.url + path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(json),
    });
  await anon(`/api/payments/${partly.id}/pay-intent`, {
    networkPassphrase: env.testnet.passphrase,
  });
  const payer = await funded(env.testnet);
  const hash = await send(
    env.testnet,
    await pay(
      env.testnet,
      payer,
      freelancer.wallet,
      Asset.native(),
      "500",
      Memo.text(partly.invoiceNumber),
    ),
  );
  await anon("/api/payments/confirm", { invoiceId: partly.id, transactionHash: hash });

  // 100 EUR paid in full in XLM, then 25 XLM refunded by the freelancer.
  paid = await sentInvoice(freelancer, body("Paid in XLM", "100"));
  await payThroughApi(env, paid.id, await funded(env.testnet));
  const owner = (await freelancer.api.get(`/api/invoices/${paid.id}/owner`)).body;
  const built = await freelancer.api.post(
    `/api/invoices/${paid.id}/payments/${owner.payments[0].id}/refund`,
    { amount: "25" },
  );
  if (built.status !== 201) throw new Error(`refund: ${JSON.stringify(built.body)}`);
  const tx = TransactionBuilder.fromXDR(built.body.transactionXdr, env.testnet.passphrase);
  tx.sign(freelancer.keypair);
  const submitted = await freelancer.api.post("/api/refunds/submit", {
    refundId: built.body.refundId,
    signedTransactionXdr: tx.toXDR(),
  });
  if (submitted.status !== 200) throw new Error(`refund: ${JSON.stringify(submitted.body)}`);
}, 120_000);

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => saveFailureShots(task.name, contexts));
});

afterAll(async () => {
  for (const c of contexts) await c.context.close().catch(() => {});
  await browser?.close();
  await env?.stop();
});

async function signedInPage(phone = false): Promise<Page> {
  const c = await newContext(
    browser,
    phone ? { viewport: PHONE, isMobile: true, hasTouch: true } : {},
  );
  contexts.push(c);
  await storeSession(c.context, freelancer);
  return c.newPage();
}

describe("a EUR-priced invoice paid in XLM, outside its own page", () => {
  it("the list (1280 px) and its card (375 px) write its amounts in EUR", async () => {
    const page = await signedInPage();
    await page.goto(`${env.app.url}/invoices`);
    const row = page.getByRole("row").filter({ hasText: partly.invoiceNumber });
    await visible(row);
    const text = squash(await row.textContent());
    expect(text).toContain("200.00 EUR, paid in XLM");
    expect(text).toContain("57.85 EUR paid · 142.15 EUR due");
    expect(text).not.toMatch(/\d XLM paid|200\.00 XLM/);
    const paidRow = squash(
      await page.getByRole("row").filter({ hasText: paid.invoiceNumber }).textContent(),
    );
    expect(paidRow).toContain("100.00 EUR, paid in XLM");
    await saveArtifact(page, "fiat-units-list");

    const phone = await signedInPage(true);
    await phone.goto(`${env.app.url}/invoices`);
    const card = phone.getByRole("article", { name: `Invoice ${partly.invoiceNumber}` });
    await visible(card);
    expect(squash(await card.getByTestId("invoice-card-total").textContent())).toBe(
      "200.00 EUR, paid in XLM57.85 EUR paid · 142.15 EUR due",
    );
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    await saveArtifact(phone, "fiat-units-phone-list");
  });

  it("the dashboard keeps EUR figures on their own card and the activity names each unit", async () => {
    const page = await signedInPage();
    await page.goto(`${env.app.url}/dashboard`);
    const eur = await visible(page.getByRole("region", { name: "Invoices priced in EUR" }));
    await until(async () => squash(await eur.textContent()).includes("142.15 EUR"), {
      message: "the EUR pending amount",
    });
    const eurText = squash(await eur.textContent());
    expect(eurText).toContain("Pending142.15 EUR");
    expect(eurText).toContain("Average paid100.00 EUR");
    // The XLM card: the XLM received, and nothing priced in EUR in its pending or average.
    const xlm = squash(await page.getByRole("region", { name: "XLM revenue" }).textContent());
    expect(xlm).not.toContain("142.15");
    expect(xlm).not.toContain("200.00");
    expect(xlm).toContain("Pending0.00");
    expect(xlm).toContain("Average paid0.00");

    const activity = page
      .getByRole("listitem")
      .filter({ hasText: `Refunded ${paid.invoiceNumber}` });
    await visible(activity.first());
    expect(squash(await activity.first().textContent())).toContain(
      `Refunded ${paid.invoiceNumber} 25.00 XLM`,
    );
    const sent = page.getByRole("listitem").filter({ hasText: `Sent ${partly.invoiceNumber}` });
    expect(squash(await sent.first().textContent())).toContain("200.00 EUR");
    await saveArtifact(page, "fiat-units-dashboard");

    const phone = await signedInPage(true);
    await phone.goto(`${env.app.url}/dashboard`);
    await visible(phone.getByRole("region", { name: "Invoices priced in EUR" }));
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
  });
});
