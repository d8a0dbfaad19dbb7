import fs from "node:fs";
import { Keypair } from "@stellar/stellar-sdk";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MailCatcher, startMailCatcher } from "@/scripts/mail-catcher";
import { flatPdfText } from "@/tests/helpers/pdf";
import { funded } from "@/tests/helpers/stellar";
import { seriousViolations } from "./helpers/axe";
import {
  type GuardedContext,
  launchBrowser,
  newContext,
  saveFailureShots,
  until,
  visible,
} from "./helpers/browser";
import { apiFreelancer, type E2eEnv, type Freelancer, startEnv } from "./helpers/env";
import { installFreighter } from "./helpers/freighter";
import { signInWithFreighter } from "./helpers/ui";

/**
 * Issue 32 item 2 in the browser (docs/decisions.md, Client portal): the freelancer sends a
 * quote; the client accepts it from the emailed link by typing their name, and the invoice made
 * from it is sent and emailed; on a 375 px phone the client asks /portal for a sign-in link,
 * opens it from the mail catcher, pays the invoice from the portal's Pay button with the demo
 * wallet, sees it paid, and downloads the statement PDF; then the freelancer's accountant signs
 * in with its own wallet, exports the payments CSV with that payment in it, and cannot refund it
 * (the whole journey in one test; e2e/team.test.ts has the Team page's side).
 */
let env: E2eEnv;
let catcher: MailCatcher;
let browser: Browser;
let freelancer: Freelancer;
const contexts: GuardedContext[] = [];
const PHONE = { width: 375, height: 740 };
const DEMO = "Demo wallet (local ledger only)";

beforeAll(async () => {
  catcher = await startMailCatcher();
  [env, browser] = await Promise.all([
    startEnv({ SMTP_URL: catcher.smtpUrl, DEMO_WALLET: "on" }),
    launchBrowser(),
  ]);
  freelancer = await apiFreelancer(env);
  const profile = await freelancer.api.put("/api/profile", { company: "Garden Studio" });
  expect(profile.status).toBe(200);
});

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => saveFailureShots(task.name, contexts));
});

afterAll(async () => {
  for (const c of contexts) await c.context.close().catch(() => {});
  await browser?.close();
  await env?.stop();
  await catcher?.stop();
});

const scrollWidth = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth);

/** Opens the catcher's newest message whose subject matches, and answers its HTML part. */
async function openMail(inbox: Page, subject: RegExp) {
  await inbox.goto(catcher.url);
  const link = inbox.getByRole("link", { name: subject }).first();
  await until(
    async () => {
      if ((await link.count()) > 0) return true;
      await inbox.reload();
      return false;
    },
    { timeout: 45_000, interval: 500, message: `an email "${subject}" in the catcher` },
  );
  await link.click();
  return inbox.frameLocator('iframe[title="HTML part"]');
}

describe("the client portal", () => {
  it("a quote accepted by email becomes an invoice the client pays from the portal, then downloads the statement; the accountant exports that payment and cannot refund it", async () => {
    const created = await freelancer.api.post("/api/quotes", {
      clientName: "Ada Lovelace",
      clientEmail: "ada@example.com",
      title: "Garden design",
      currency: "XLM",
      lineItems: [{ description: "Design", quantity: "1", rate: "12" }],
      onAccept: "send",
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await freelancer.api.post(`/api/quotes/${created.body.id}/send`)).status).toBe(200);

    const client = await newContext(browser, { viewport: PHONE });
    contexts.push(client);
    const inbox = await client.newPage();

    // The quote's email and page: accepted by typing a name.
    const quoteMail = await openMail(inbox, /^Quote QT-0001 from /);
    const view = quoteMail.getByRole("link", { name: "View the quote" });
    await visible(view);
    await inbox.goto((await view.getAttribute("href")) ?? "");
    await inbox.getByLabel("Your full name").fill("Ada Lovelace");
    await inbox.getByRole("button", { name: "Accept quote" }).click();
    await visible(inbox.getByText(/^Accepted by Ada Lovelace on /));

    // The invoice made from it is sent, and emailed to the client.
    const quote = await freelancer.api.get(`/api/quotes/${created.body.id}/owner`);
    const invoice = (await freelancer.api.get(`/api/invoices/${quote.body.invoiceId}/owner`)).body;
    expect(invoice.status).toBe("PENDING");
    await openMail(inbox, new RegExp(`${invoice.invoiceNumber}`));

    // The portal: ask for a sign-in link.
    await inbox.goto(`${env.app.url}/portal`);
    await visible(inbox.getByRole("heading", { name: "Sign in to see your invoices", level: 1 }));
    expect(await scrollWidth(inbox)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousViolations(inbox)).toEqual([]);
    await inbox.getByLabel("Email address").fill("ada@example.com");
    await inbox.getByRole("button", { name: "Send me a sign-in link" }).click();
    await visible(inbox.getByText(/a sign-in link is on its way/));

    const signIn = (await openMail(inbox, /^Your sign-in link for /)).getByRole("link", {
      name: "Open Garden Studio",
    });
    await visible(signIn);
    const signInUrl = (await signIn.getAttribute("href")) ?? "";
    expect(signInUrl).toContain(`${env.app.url}/api/portal/sign-in?token=`);
    await inbox.goto(signInUrl);
    await visible(inbox.getByRole("heading", { name: "Garden Studio", level: 1 }));
    const row = inbox.getByTestId("portal-invoice").filter({ hasText: invoice.invoiceNumber });
    await visible(row);
    expect(await row.getByTestId("portal-invoice-status").textContent()).toBe("Awaiting payment");
    expect(await scrollWidth(inbox)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousViolations(inbox)).toEqual([]);

    // Pay from the portal with the demo wallet, then back to the portal: paid.
    await row.getByRole("link", { name: `Pay ${invoice.invoiceNumber}` }).click();
    await inbox.waitForURL(`${env.app.url}/pay/${invoice.id}`);
    await inbox.getByRole("button", { name: `Pay with ${DEMO}` }).click();
    await visible(inbox.getByRole("heading", { name: "Payment received" }), 45_000);
    await inbox.goto(`${env.app.url}/portal`);
    const paidRow = inbox.getByTestId("portal-invoice").filter({ hasText: invoice.invoiceNumber });
    await until(
      async () => (await paidRow.getByTestId("portal-invoice-status").textContent()) === "Paid",
      {
        timeout: 20_000,
        message: "the portal to show the invoice paid",
      },
    );
    await visible(inbox.getByTestId("portal-payment").filter({ hasText: invoice.invoiceNumber }));

    // The statement on screen, then its PDF.
    const figures = await visible(inbox.getByTestId("statement-figures"));
    expect(await figures.textContent()).toContain("Closing balance");
    const download = inbox.waitForEvent("download");
    await inbox.getByRole("link", { name: "Download PDF" }).click();
    const file = await download;
    const bytes = new Uint8Array(fs.readFileSync((await file.path()) as string));
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe("%PDF-");
    const text = await flatPdfText(bytes);
    expect(text).toContain(invoice.invoiceNumber);
    expect(text).toContain("Ada Lovelace");

    // The freelancer's accountant: invited by address, signs in as itself, picks the books.
    const accountant = Keypair.random();
    await funded(env.testnet, accountant);
    const invited = await freelancer.api.post("/api/team", {
      wallet: accountant.publicKey(),
      role: "accountant",
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    const acc = await newContext(browser);
    contexts.push(acc);
    await installFreighter(acc.context, { keypair: accountant });
    const books = await acc.newPage();
    await signInWithFreighter(books, env.app.url, "/dashboard");
    await (await visible(books.getByLabel("Books", { exact: true }))).selectOption(
      freelancer.wallet,
    );
    await visible(books.getByTestId("books-banner").getByText(/Garden Studio .* accountant/));

    // The payments CSV holds the payment the client made from the portal.
    const owned = (await freelancer.api.get(`/api/invoices/${invoice.id}/owner`)).body;
    const hash: string = owned.payments[0].transactionHash;
    const csvDownload = books.waitForEvent("download");
    await books.getByRole("button", { name: "Export payments (CSV)" }).click();
    const csv = fs.readFileSync(await (await csvDownload).path(), "utf8");
    expect(csv).toContain(hash);
    expect(csv).toContain(invoice.invoiceNumber);

    // No refund: not offered on the invoice, and refused by the API with the accountant's token.
    await books.goto(`${env.app.url}/invoices/${invoice.id}`);
    await visible(books.getByRole("heading", { name: new RegExp(invoice.invoiceNumber) }));
    await visible(books.getByTitle(hash).first());
    expect(await books.getByRole("button", { name: "Refund" }).count()).toBe(0);
    const token = await books.evaluate(
      () => JSON.parse(localStorage.getItem("stellar-invoicing.session") ?? "{}").token,
    );
    const refund = await fetch(
      `${env.app.url}/api/invoices/${invoice.id}/payments/${owned.payments[0].id}/refund`,
      {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: "{}",
      },
    );
    expect(refund.status).toBe(403);
    expect((await refund.json()).error).toMatch(/^Your role \(accountant\)/);
  });
});
