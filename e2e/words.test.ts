import { TransactionBuilder } from "@stellar/stellar-sdk";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { client } from "@/tests/helpers/api";
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
 * Issue 28, items 15, 16 and 18: the freelancer's pages speak the user's language. The audit
 * trail is sentences with amounts in their unit and the actor named (you, your API key by its
 * name, the service, the client); the invoice form shows the profile's defaults (the due date
 * of its terms, "From you"); every page writes amounts grouped ("2,040.00") and states in
 * sentence case ("Paid"), never "2040.00" or "PAID". Real server, real ledger, real payments.
 */
let env: E2eEnv;
let browser: Browser;
let freelancer: Freelancer;
const contexts: GuardedContext[] = [];
let paid: { id: string; invoiceNumber: string };
let byKey: { id: string; invoiceNumber: string };
let payerAddress = "";

const squash = (s: string | null) => (s ?? "").replace(/\s+/g, " ").trim();
const short = (w: string) => `${w.slice(0, 4)}…${w.slice(-4)}`;

beforeAll(async () => {
  [env, browser] = await Promise.all([startEnv(), launchBrowser()]);
  freelancer = await apiFreelancer(env);
  const profile = await freelancer.api.put("/api/profile", {
    displayName: "Studio Sam",
    company: "Sam & Co",
    email: "sam@studio.example",
    address: "1 Quay Street, Dublin",
    paymentTermsDays: 30,
  });
  if (profile.status !== 200) throw new Error(`profile: ${JSON.stringify(profile.body)}`);

  // 2,040 XLM paid in full, then 50 XLM more after it was paid (not applied), then 25 XLM
  // refunded by the freelancer.
  paid = await sentInvoice(freelancer, {
    clientName: "Ada Client",
    clientEmail: "ada@example.com",
    title: "Brand book",
    currency: "XLM",
    lineItems: [{ description: "Brand book", quantity: "1", rate: "2040" }],
  });
  const payer = await funded(env.testnet);
  payerAddress = payer.publicKey();
  await payThroughApi(env, paid.id, payer);
  const late = await send(
    env.testnet,
    await pay(
      env.testnet,
      payer,
      freelancer.wallet,
      Asset.native(),
      "50",
      Memo.text(paid.invoiceNumber),
    ),
  );
  const confirmed = await client(env.app.url).post("/api/payments/confirm", {
    invoiceId: paid.id,
    transactionHash: late,
  });
  if (confirmed.status >= 500) throw new Error(`confirm: ${JSON.stringify(confirmed.body)}`);
  const owner = (await freelancer.api.get(`/api/invoices/${paid.id}/owner`)).body;
  const lateRow = owner.payments.find((p: { applied: boolean }) => !p.applied);
  if (!lateRow) throw new Error("the late payment was not recorded");
  const built = await freelancer.api.post(
    `/api/invoices/${paid.id}/payments/${lateRow.id}/refund`,
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

  // An invoice created and sent with an API key named "Accounting sync".
  const key = await freelancer.api.post("/api/keys", {
    name: "Accounting sync",
    scopes: ["invoices:read", "invoices:write"],
  });
  if (key.status !== 201) throw new Error(`key: ${JSON.stringify(key.body)}`);
  const withKey = client(env.app.url, key.body.secret);
  const created = await withKey.post("/api/invoices", {
    clientName: "Bo Client",
    clientEmail: "bo@example.com",
    currency: "XLM",
    lineItems: [{ description: "Sync", quantity: "1", rate: "10" }],
  });
  if (created.status !== 201) throw new Error(`create: ${JSON.stringify(created.body)}`);
  const sent = await withKey.post(`/api/invoices/${created.body.id}/send`);
  if (sent.status !== 200) throw new Error(`send: ${JSON.stringify(sent.body)}`);
  byKey = created.body;
}, 180_000);

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => saveFailureShots(task.name, contexts));
});

afterAll(async () => {
  for (const c of contexts) await c.context.close().catch(() => {});
  await browser?.close();
  await env?.stop();
});

async function signedInPage(): Promise<Page> {
  const c = await newContext(browser);
  contexts.push(c);
  await storeSession(c.context, freelancer);
  return c.newPage();
}

/** The visible text of the page's main content, once `ready` shows. */
async function mainText(page: Page, path: string, ready: RegExp | string): Promise<string> {
  await page.goto(`${env.app.url}${path}`);
  await visible(page.getByText(ready).filter({ visible: true }).first(), 20_000);
  // biome-ignore lint/performance/useDomNodeTextContent: the text as shown (hidden cards and layouts left out)
  return page.locator("main").innerText();
}

describe("the audit trail in words (item 15)", () => {
  it("says what happened, with amounts in their unit and who did it", async () => {
    const page = await signedInPage();
    await page.goto(`${env.app.url}/invoices/${paid.id}`);
    const trail = page.getByRole("list", { name: "Audit trail" });
    await visible(trail.getByText(/^Refund of/));
    const entries = (await trail.getByTestId("audit-entry").allInnerTexts()).map(squash);
    const line = (start: string) => entries.find((e) => e.startsWith(start)) ?? entries.join(" | ");
    expect(line("Invoice created")).toMatch(/^Invoice created as a draft by you/);
    expect(line("Invoice sent")).toMatch(/^Invoice sent to ada@example\.com by you/);
    expect(line("Payment started")).toMatch(/^Payment started \(2,040\.00 XLM\) by the client/);
    expect(line("Payment of 2,040")).toMatch(
      /^Payment of 2,040\.00 XLM received: invoice paid in full by the client/,
    );
    expect(line("Payment of 50")).toMatch(
      /^Payment of 50\.00 XLM received after the invoice was paid: not applied by the client/,
    );
    expect(line("Refund")).toMatch(
      new RegExp(`^Refund of 25\\.00 XLM sent to ${short(payerAddress)} by you`),
    );
    // Never the stored JSON, never a raw action name.
    const all = entries.join("\n");
    expect(all).not.toMatch(/[{}]|PAYMENT_RECEIVED|REFUNDED|"status"/);
    await saveArtifact(page, "words-audit-trail");

    // The API key's entries name the key.
    await page.goto(`${env.app.url}/invoices/${byKey.id}`);
    const keyTrail = page.getByRole("list", { name: "Audit trail" });
    await visible(keyTrail.getByText(/Invoice sent to bo@example\.com/));
    await until(
      async () =>
        // biome-ignore lint/performance/useDomNodeTextContent: the text as shown (hidden cards and layouts left out)
        squash(await keyTrail.innerText()).includes(
          "Invoice sent to bo@example.com by your API key “Accounting sync”",
        ),
      { message: "the key's name in the trail" },
    );
  });
});

describe("the invoice form shows the profile's defaults (item 16)", () => {
  it("prefills From you and the due date of the payment terms, and says where they come from", async () => {
    const page = await signedInPage();
    await page.goto(`${env.app.url}/invoices/new`);
    const name = page.getByLabel("Your name");
    await until(async () => (await name.inputValue()) === "Studio Sam", {
      message: "the profile's name in From you",
    });
    expect(await page.getByLabel("Your email").inputValue()).toBe("sam@studio.example");
    expect(await page.getByLabel("Your company").inputValue()).toBe("Sam & Co");
    const due = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    expect(await page.getByLabel("Due date").inputValue()).toBe(due);
    await visible(page.getByText(/Due in 30 days: your profile's payment terms/));
    const fromYou = page.getByTestId("from-you");
    expect(squash(await fromYou.textContent())).toContain("1 Quay Street, Dublin");
    await saveArtifact(page, "words-invoice-form-defaults");

    // What the form shows is what the invoice gets.
    await page.getByLabel("Client name").fill("Cy Client");
    await page.getByLabel("Client email").fill("cy@example.com");
    await page.getByLabel("Description, item 1").fill("Work");
    await page.getByLabel("Rate, item 1").fill("12");
    await page.getByRole("button", { name: "Create invoice" }).click();
    await page.waitForURL(/\/invoices\/(?!new)[a-z0-9]+$/);
    const id = page.url().split("/").pop();
    const created = (await freelancer.api.get(`/api/invoices/${id}/owner`)).body;
    expect(created.freelancerName).toBe("Studio Sam");
    expect(created.dueDate.slice(0, 10)).toBe(due);
  });
});

describe("one number format, states in words (item 18)", () => {
  it("no page writes a 4-digit amount without grouping or a state in capitals", async () => {
    const page = await signedInPage();
    const pages: [string, RegExp | string][] = [
      ["/dashboard", "Recent activity"],
      ["/invoices", paid.invoiceNumber],
      [`/invoices/${paid.id}`, "History"],
      ["/links", /payment link/i],
      ["/recurring", /recurring/i],
      ["/clients", /client/i],
      ["/settings/profile", "Display name"],
      ["/settings/keys", "Accounting sync"],
      ["/settings/webhooks", /endpoint/i],
    ];
    const raw = /(?<![\d,.])\d{4,}\.\d{2}(?!\d)/;
    const screaming =
      /\b(DRAFT|PENDING|PROCESSING|PAID|FAILED|EXPIRED|CANCELLED|PARTIALLY_PAID|CONFIRMED|REFUNDED|ACTIVE|PAUSED|DELIVERED)\b/;
    for (const [path, ready] of pages) {
      const text = await mainText(page, path, ready);
      expect(text.match(raw)?.[0], `${path}: an amount without grouping`).toBeUndefined();
      expect(text.match(screaming)?.[0], `${path}: a state in capitals`).toBeUndefined();
    }
    // The invoice page writes the 2,040 XLM grouped, and its state in words.
    const invoice = await mainText(page, `/invoices/${paid.id}`, "History");
    expect(invoice).toContain("2,040.00");
    expect(squash(await page.getByTestId("invoice-status").textContent())).toBe("Paid");

    // The client's checkout of the paid invoice too.
    await page.goto(`${env.app.url}/pay/${paid.id}`);
    await visible(page.getByText(/2,040/).first());
    // biome-ignore lint/performance/useDomNodeTextContent: the text as shown (hidden cards and layouts left out)
    const checkout = await page.locator("body").innerText();
    expect(checkout.match(raw)?.[0], "/pay: an amount without grouping").toBeUndefined();
    expect(checkout.match(screaming)?.[0], "/pay: a state in capitals").toBeUndefined();
  });
});
