import { Keypair } from "@stellar/stellar-sdk";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formatDate } from "@/lib/format";
import { type MailCatcher, startMailCatcher } from "@/scripts/mail-catcher";
import { TEST_CRON_SECRET } from "@/tests/helpers/app";
import { funded } from "@/tests/helpers/stellar";
import {
  type GuardedContext,
  launchBrowser,
  newContext,
  saveArtifact,
  saveFailureShots,
  until,
  visible,
} from "./helpers/browser";
import { type E2eEnv, startEnv } from "./helpers/env";
import { installFreighter } from "./helpers/freighter";
import { signInWithFreighter } from "./helpers/ui";

/**
 * The billing journey of issue 17 in the browser (docs/decisions.md: Profile, Email, Reminders
 * and receipts, Recurring invoices): the freelancer sets up the profile, creates a monthly
 * recurring invoice that is sent and emailed on creation; the client reads the invoice email in
 * the project's mail catcher (scripts/mail-catcher.ts, a real SMTP server the app's SMTP_URL
 * points at), follows its "Pay now" link, pays with Freighter on the local ledger, sees the
 * receipt on the page and then the receipt email; the freelancer gets the payment notice.
 */
let env: E2eEnv;
let catcher: MailCatcher;
let browser: Browser;
const contexts: GuardedContext[] = [];

const NAME = "Grace Hopper";
const COMPANY = "Hopper Consulting";
const FREELANCER_EMAIL = "grace@example.com";
const CLIENT_EMAIL = "ada@example.com";

beforeAll(async () => {
  catcher = await startMailCatcher();
  [env, browser] = await Promise.all([startEnv({ SMTP_URL: catcher.smtpUrl }), launchBrowser()]);
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

async function walletContext(keypair: Keypair) {
  const c = await newContext(browser);
  contexts.push(c);
  await installFreighter(c.context, { keypair });
  return c;
}

/**
 * Opens the catcher's page and the message whose subject matches, reloading until the worker
 * has delivered it (bounded); returns the message page's recipient line.
 */
async function openEmail(page: Page, subject: RegExp): Promise<string> {
  await page.goto(catcher.url);
  await visible(page.getByRole("heading", { name: "Mail catcher", level: 1 }));
  const link = page.getByRole("link", { name: subject });
  await until(
    async () => {
      if ((await link.count()) > 0) return true;
      await page.reload();
      return false;
    },
    { timeout: 45_000, interval: 500, message: `an email matching ${subject} in the catcher` },
  );
  expect(await link.count()).toBe(1);
  await link.click();
  await visible(page.getByRole("heading", { name: subject, level: 1 }));
  return (await page.getByText(/^To /).textContent()) ?? "";
}

describe("billing journey", () => {
  it("profile, monthly recurring invoice emailed, paid from the email's link, receipt emailed", async () => {
    // The freelancer signs in and sets up the profile.
    const freelancer = await funded(env.testnet, Keypair.random());
    const owner = await walletContext(freelancer);
    const page = await owner.newPage();
    await signInWithFreighter(page, env.app.url, "/settings/profile");
    await visible(page.getByRole("heading", { name: "Profile", level: 1 }));
    const profile = page.getByRole("form", { name: "Profile" });
    await profile.getByLabel("Display name").fill(NAME);
    await profile.getByLabel("Company").fill(COMPANY);
    await profile.getByLabel("Email", { exact: true }).fill(FREELANCER_EMAIL);
    await profile.getByRole("button", { name: "Save profile" }).click();
    await visible(page.getByText("Profile saved."));
    await page.reload();
    await visible(profile.getByLabel("Display name"));
    expect(await profile.getByLabel("Display name").inputValue()).toBe(NAME);
    expect(await profile.getByLabel("Company").inputValue()).toBe(COMPANY);

    // A monthly recurring invoice starting today, sent and emailed on creation.
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Recurring" })
      .click();
    await visible(page.getByRole("heading", { name: "Recurring invoices", level: 1 }));
    await page.getByRole("link", { name: "New recurring invoice" }).click();
    const form = page.getByRole("form", { name: "Recurring invoice" });
    await form.getByLabel("Client name").fill("Ada Lovelace");
    await form.getByLabel("Client email").fill(CLIENT_EMAIL);
    await form.getByLabel("Title", { exact: true }).fill("Monthly retainer");
    await form.getByLabel("Description, item 1").fill("Retainer");
    await form.getByLabel("Rate, item 1").fill("250");
    await form.getByLabel("Currency", { exact: true }).selectOption("XLM");
    expect(await form.getByLabel("Repeats").inputValue()).toBe("month");
    const today = new Date().toISOString().slice(0, 10);
    expect(await form.getByLabel("First invoice on").inputValue()).toBe(today);
    expect(
      await form
        .getByLabel("Send each invoice and email the client when it is created")
        .isChecked(),
    ).toBe(true);
    await form.getByRole("button", { name: "Create recurring invoice" }).click();
    // Dates in words (docs/decisions.md, One number format): "27 Nov 2026".
    await visible(page.getByText(`Created: the first invoice is made on ${formatDate(today)}.`));

    // Today's period: the cron (or the worker, whichever runs first) makes and sends it.
    const cron = await fetch(`${env.app.url}/api/cron/recurring`, {
      headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
    });
    expect(cron.status).toBe(200);

    // The client reads the invoice email in the mail catcher (the worker delivers it).
    const payer = await funded(env.testnet, Keypair.random());
    const client = await walletContext(payer);
    const inbox = await client.newPage();
    const invoiceSubject = new RegExp(`^Invoice INV-0001 from ${NAME}: 250(\\.0+)? XLM$`);
    expect(await openEmail(inbox, invoiceSubject)).toContain(CLIENT_EMAIL);
    const html = inbox.frameLocator('iframe[title="HTML part"]');
    await visible(html.getByText(NAME).first());
    await visible(
      html.getByText(`You have a new invoice INV-0001 from ${NAME}: Monthly retainer.`),
    );
    await visible(html.getByText(/^250(\.0+)? XLM$/));
    const plain = (await inbox.locator("pre").first().textContent()) ?? "";
    expect(plain).toContain("Monthly retainer");
    const payNow = html.getByRole("link", { name: "Pay now" });
    await visible(payNow);
    const payUrl = (await payNow.getAttribute("href")) ?? "";
    expect(payUrl).toMatch(new RegExp(`^${env.app.url}/pay/[a-z0-9]+$`));
    expect(plain).toContain(payUrl);
    // Replies go to the profile's email, and the email can stop reminders.
    const headers = (await inbox.locator("pre").nth(1).textContent()) ?? "";
    expect(headers).toContain(`Reply-To: ${NAME} <${FREELANCER_EMAIL}>`);
    expect(headers).toMatch(/^List-Unsubscribe: <http:\/\/127\.0\.0\.1:\d+\/api\/unsubscribe\//m);
    await saveArtifact(inbox, "journey-invoice-email");

    // The link opens the checkout, with the profile's name and company; the client pays it.
    await inbox.goto(payUrl);
    await visible(inbox.getByRole("heading", { level: 1, name: "Monthly retainer" }));
    await visible(inbox.getByText(NAME).first());
    await visible(inbox.getByText(COMPANY).first());
    await inbox.getByRole("button", { name: "Pay with Freighter" }).click();
    await visible(inbox.getByRole("heading", { name: "Payment received" }), 30_000);
    const receipt = inbox.getByRole("region", { name: "Payment received" });
    expect(await receipt.textContent()).toContain(payer.publicKey());

    // The receipt email to the client...
    expect(await openEmail(inbox, /^Receipt for invoice INV-0001: paid in full$/)).toContain(
      CLIENT_EMAIL,
    );
    await visible(
      inbox
        .frameLocator('iframe[title="HTML part"]')
        .getByText(`Thank you: invoice INV-0001 from ${NAME} is paid in full.`),
    );
    await saveArtifact(inbox, "journey-receipt-email");

    // ...and the payment notice to the freelancer's profile email.
    expect(await openEmail(page, /^Invoice INV-0001: paid in full$/)).toContain(FREELANCER_EMAIL);
    await visible(
      page
        .frameLocator('iframe[title="HTML part"]')
        .getByText("Ada Lovelace paid invoice INV-0001 in full."),
    );

    expect(owner.errors).toEqual([]);
    expect(client.errors).toEqual([]);
    expect([...owner.blocked, ...client.blocked]).toEqual([]);
  });
});
