import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MailCatcher, startMailCatcher } from "@/scripts/mail-catcher";
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
import { storeSession } from "./helpers/ui";

/**
 * Issue 32 item 1 in the browser (docs/decisions.md, Quotes): the freelancer creates a quote on
 * the Quotes page (the invoice form as a template) and sends it; the client reads the email in
 * the mail catcher, opens its link on a 375 px phone, reads the quote in its language and
 * accepts it by typing their name; the invoice made from it appears on the freelancer's page.
 */
let env: E2eEnv;
let catcher: MailCatcher;
let browser: Browser;
let freelancer: Freelancer;
const contexts: GuardedContext[] = [];
const PHONE = { width: 375, height: 740 };

beforeAll(async () => {
  catcher = await startMailCatcher();
  [env, browser] = await Promise.all([startEnv({ SMTP_URL: catcher.smtpUrl }), launchBrowser()]);
  freelancer = await apiFreelancer(env);
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

describe("a quote accepted online", () => {
  it("is created and sent from the Quotes page, accepted from the emailed link, and becomes an invoice", async () => {
    const owner = await newContext(browser);
    contexts.push(owner);
    await storeSession(owner.context, freelancer);
    const page = await owner.newPage();
    await page.goto(`${env.app.url}/invoices`);
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Quotes" })
      .click();
    await visible(page.getByRole("heading", { name: "Quotes", level: 1 }));
    await page.getByRole("link", { name: "New quote" }).click();
    const form = page.getByRole("form", { name: "New quote" });
    await form.getByLabel("Client name").fill("Ada Lovelace");
    await form.getByLabel("Client email").fill("ada@example.com");
    await form.getByLabel("Title", { exact: true }).fill("Garden design");
    await form.getByLabel("Description, item 1").fill("Design");
    await form.getByLabel("Rate, item 1").fill("120");
    await form.getByLabel("Currency", { exact: true }).selectOption("XLM");
    await form.getByText("Client's tax registration, address and language").click();
    await form.getByLabel("Invoice language").selectOption("fr");
    await form.getByRole("button", { name: "Create quote" }).click();
    await visible(page.getByRole("heading", { name: /^Quote QT-0001$/, level: 1 }));
    await page.getByRole("button", { name: "Send quote" }).click();
    await visible(page.getByText("Sent: the client has the link to accept it."));

    // The client's email, in French, with the link to the quote's page.
    const client = await newContext(browser, { viewport: PHONE });
    contexts.push(client);
    const inbox = await client.newPage();
    await inbox.goto(catcher.url);
    const subject = /^Devis QT-0001 de /;
    const link = inbox.getByRole("link", { name: subject });
    await until(
      async () => {
        if ((await link.count()) > 0) return true;
        await inbox.reload();
        return false;
      },
      { timeout: 45_000, interval: 500, message: "the quote email in the catcher" },
    );
    await link.click();
    const html = inbox.frameLocator('iframe[title="HTML part"]');
    const view = html.getByRole("link", { name: "Voir le devis" });
    await visible(view);
    const quoteUrl = (await view.getAttribute("href")) ?? "";
    expect(quoteUrl).toMatch(new RegExp(`^${env.app.url}/quote/[a-z0-9]+$`));

    // The quote's page on a phone, in French: no sideways scroll, no serious axe finding.
    await inbox.goto(quoteUrl);
    await visible(inbox.getByRole("heading", { name: "Garden design", level: 1 }));
    await visible(inbox.getByText("En attente de votre réponse"));
    await visible(inbox.getByRole("link", { name: "Télécharger le PDF" }));
    expect(await scrollWidth(inbox)).toBeLessThanOrEqual(PHONE.width);
    expect(await seriousViolations(inbox)).toEqual([]);
    await inbox.getByLabel("Votre nom complet").fill("Ada Lovelace");
    await inbox.getByRole("button", { name: "Accepter le devis" }).click();
    await visible(inbox.getByText(/^Accepté par Ada Lovelace le /));

    // The freelancer's quote shows the acceptance and opens the invoice made from it.
    await page.reload();
    await visible(page.getByText(/Accepted by/));
    await page.getByRole("link", { name: "Open the invoice made from it" }).click();
    await visible(page.getByRole("heading", { name: /INV-0001/, level: 1 }));
  });
});
