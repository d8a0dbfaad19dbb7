import fs from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { trust } from "@/tests/helpers/stellar";
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
 * Issue 28, items 11 and 20-22: the client's side of the checkout and the sign-in picker, with
 * the demo wallet offered (DEMO_WALLET on, loopback ledgers: as `npm run dev:offline` runs).
 * The client downloads the invoice PDF and, once paid, the receipt without signing in; the
 * picker puts the demo wallet first and shows the wallets that cannot sign in as disabled,
 * with the reason; the readiness banner names the issuer once, offers its button and confirms;
 * the checkout speaks the client's words (rates to 6 significant digits, the issuer behind
 * "Asset details", the state in words).
 */
let env: E2eEnv;
let browser: Browser;
let freelancer: Freelancer;
const contexts: GuardedContext[] = [];
const DEMO = "Demo wallet (local ledger only)";
/** XLM in EUR with more digits than a reader needs (the local price source). */
const XLM_EUR = 0.115740740741;

beforeAll(async () => {
  [env, browser] = await Promise.all([startEnv({ DEMO_WALLET: "on" }), launchBrowser()]);
  // Before any price is read, so the app's price cache holds this one.
  env.prices.set({ stellar: { eur: XLM_EUR } });
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

const squash = (s: string | null) => (s ?? "").replace(/\s+/g, " ");

const xlmInvoice = (title: string) =>
  sentInvoice(freelancer, {
    clientName: "Ada Client",
    clientEmail: "ada@example.com",
    freelancerName: "Grace Hopper",
    title,
    currency: "XLM",
    dueDate: "2099-12-31",
    lineItems: [{ description: "Logo", quantity: "1", rate: "12.5" }],
  });

describe("the client's words on the checkout (item 22)", () => {
  it("the quote's rate to 6 significant digits", async () => {
    const invoice = await sentInvoice(freelancer, {
      clientName: "Ada Client",
      clientEmail: "ada@example.com",
      title: "Workshop in EUR",
      currency: "XLM",
      priceCurrency: "EUR",
      lineItems: [{ description: "Workshop", quantity: "1", rate: "100.00" }],
    });
    const c = await context();
    const page = await c.newPage();
    await page.goto(`${env.app.url}/pay/${invoice.id}`);
    await page.getByRole("button", { name: "Pay with a mobile wallet" }).click();
    const quote = await visible(page.getByRole("region", { name: "Quote" }));
    const text = squash(await quote.textContent());
    expect(text).toContain("(1 XLM = 0.115741 EUR)");
    // The exact rate stays the quote's (what the amount was computed at).
    const status = await (await fetch(`${env.app.url}/api/payments/${invoice.id}/status`)).json();
    expect(status.quote.rate).toMatch(/^0\.1157407407/);
    await saveArtifact(page, "checkout-rate-words");
  });

  it("no issuer address unless asked; the state in words, 'being confirmed' while the network confirms", async () => {
    await trust(env.testnet, freelancer.keypair, env.testnet.usdc);
    const usdc = await sentInvoice(freelancer, {
      clientName: "Ada Client",
      clientEmail: "ada@example.com",
      title: "USDC work",
      currency: "USDC",
      lineItems: [{ description: "Work", quantity: "1", rate: "5" }],
    });
    const c = await context();
    const page = await c.newPage();
    await page.goto(`${env.app.url}/pay/${usdc.id}`);
    const issuer = env.testnet.ledger.issuers.USDC.issuer;
    const details = await visible(page.getByRole("region", { name: "Invoice details" }));
    await visible(details.getByText("USDC on the Stellar testnet"));
    // The issuer's address is there for whoever asks, not shown by default (the rendered
    // text, screen-reader-only text included, does not hold it).
    const shown = () =>
      // biome-ignore lint/performance/useDomNodeTextContent: what is rendered is the point
      page.evaluate((a) => document.body.innerText.includes(a), issuer);
    expect(await shown()).toBe(false);
    await details.getByText("Asset details").click();
    await visible(page.getByText(issuer, { exact: true }));
    expect(await shown()).toBe(true);

    // The state in words, never the state's name.
    const xlm = await xlmInvoice("Logo in XLM");
    await page.goto(`${env.app.url}/pay/${xlm.id}`);
    const payment = page.getByRole("region", { name: "Payment", exact: true });
    const badge = payment.getByTestId("checkout-status");
    expect(await (await visible(badge)).textContent()).toBe("Awaiting payment");
    expect(squash(await payment.textContent())).not.toMatch(/PENDING|PROCESSING/);
    // The payer's transaction is on its way (its submission held a few seconds here).
    await page.route("**/api/payments/submit", async (route) => {
      await new Promise((r) => setTimeout(r, 4000));
      await route.continue();
    });
    await page.getByRole("button", { name: `Pay with ${DEMO}` }).click();
    await until(async () => (await badge.textContent()) === "Your payment is being confirmed", {
      message: "the badge to say the payment is being confirmed",
      timeout: 30_000,
    });
    await saveArtifact(page, "checkout-being-confirmed");
    expect(squash(await payment.textContent())).not.toMatch(/PENDING|PROCESSING/);
    await visible(page.getByRole("heading", { name: "Payment received" }), 30_000);
    expect(await badge.textContent()).toBe("Paid");
    expect(c.blocked).toEqual([]);
  });
});

describe("the client's documents (item 11)", () => {
  it("downloads the invoice PDF, and once paid the receipt, without signing in", async () => {
    const invoice = await xlmInvoice("Logo with documents");
    const c = await context();
    const page = await c.newPage();
    await page.goto(`${env.app.url}/pay/${invoice.id}`);
    const documents = await visible(page.getByRole("navigation", { name: "Documents" }));
    // No receipt before anything is paid.
    expect(await documents.getByRole("link", { name: /Download receipt/ }).count()).toBe(0);

    const download = page.waitForEvent("download");
    await documents.getByRole("link", { name: "Download invoice (PDF)" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${invoice.invoiceNumber}.pdf`);
    const bytes = fs.readFileSync(await file.path());
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    // The very PDF the freelancer downloads.
    const owner = await fetch(`${env.app.url}/api/invoices/${invoice.id}/pdf`, {
      headers: { authorization: `Bearer ${freelancer.token}` },
    });
    expect(Buffer.from(await owner.arrayBuffer()).equals(bytes)).toBe(true);

    await page.getByRole("button", { name: `Pay with ${DEMO}` }).click();
    await visible(page.getByRole("heading", { name: "Payment received" }), 45_000);
    const receiptLink = await visible(
      documents.getByRole("link", { name: /Download receipt/ }),
      15_000,
    );
    const popup = page.waitForEvent("popup");
    await receiptLink.click();
    const receipt = await popup;
    await receipt.waitForLoadState();
    const status = await (await fetch(`${env.app.url}/api/payments/${invoice.id}/status`)).json();
    const text = squash(await receipt.locator("body").textContent());
    expect(text).toContain(`Receipt for invoice ${invoice.invoiceNumber}`);
    expect(text).toContain("Paid in full on ");
    expect(text).toContain("12.50 XLM");
    expect(text).toContain(status.transactionHash);
    await saveArtifact(receipt, "checkout-receipt");
    expect(c.blocked).toEqual([]);
  });
});

describe("the sign-in picker offline (item 20)", () => {
  it("lists the demo wallet first; the wallets that cannot sign in are visibly disabled, with the reason", async () => {
    const c = await context();
    const page = await c.newPage();
    await page.goto(`${env.app.url}/dashboard`);
    const wallets = await visible(page.getByRole("list", { name: "Wallets" }));
    await visible(wallets.getByRole("button", { name: `Connect ${DEMO}` }));
    const names = await wallets.getByRole("button").allTextContents();
    expect(names[0]).toBe(`Connect ${DEMO}`);
    expect(names.slice(-2)).toEqual(["Connect Albedo", "Connect Rabet"]);
    for (const name of ["Albedo", "Rabet"]) {
      const button = wallets.getByRole("button", { name: `Connect ${name}` });
      expect(await button.getAttribute("aria-disabled")).toBe("true");
      const reason = await page.locator(`#${await button.getAttribute("aria-describedby")}`);
      expect(await reason.textContent()).toBe(
        `Not available for sign-in: ${name} cannot sign the login message. It can still pay invoices.`,
      );
      // Greyed, and it looks unclickable: dashed, a not-allowed cursor, another background
      // than the wallets that can sign in.
      const look = (b: typeof button) =>
        b.evaluate((el) => {
          const s = getComputedStyle(el);
          return { cursor: s.cursor, border: s.borderStyle, background: s.backgroundColor };
        });
      const usable = await look(wallets.getByRole("button", { name: "Connect xBull" }));
      const greyed = await look(button);
      expect(greyed).toMatchObject({ cursor: "not-allowed", border: "dashed" });
      expect(greyed.background).not.toBe(usable.background);
      expect(usable.border).toBe("solid");
      expect(usable.cursor).not.toBe("not-allowed");
      // Still reachable from the keyboard, and picking it does nothing.
      await button.focus();
      expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
      await button.click({ force: true });
      expect(await page.getByText(`Waiting for ${name}`).count()).toBe(0);
    }
    await saveArtifact(page, "sign-in-picker-offline");
  });
});

describe("the trustline banner (item 21)", () => {
  it("names the issuer once, offers the button it mentions, and confirms the trustline", async () => {
    const f = await apiFreelancer(env);
    const c = await context();
    await installFreighter(c.context, { keypair: f.keypair });
    const page = await c.newPage();
    await signInWithFreighter(page, env.app.url, "/dashboard");
    const draft = await sentInvoice(
      f,
      {
        clientName: "Ada Client",
        clientEmail: "ada@example.com",
        title: "USDC draft",
        currency: "USDC",
        lineItems: [{ description: "Call", quantity: "1", rate: "25" }],
      },
      { send: false },
    );
    await page.goto(`${env.app.url}/invoices/${draft.id}`);
    const issuer = env.testnet.ledger.issuers.USDC.issuer;
    const banner = await visible(page.getByRole("region", { name: "Recipient readiness" }));
    const text = squash(await banner.textContent());
    expect(text.split(issuer).length - 1).toBe(1);
    expect(text).toContain("“Add trustline” adds it");
    await banner.getByRole("button", { name: "Add trustline" }).click();
    const done = await visible(page.getByRole("region", { name: "Trustline added" }), 20_000);
    expect(squash(await done.textContent())).toBe(
      "Trustline added: your wallet can now receive USDC on Testnet.",
    );
    expect(await page.getByRole("region", { name: "Recipient readiness" }).count()).toBe(0);
    await saveArtifact(page, "readiness-trustline-added");
  });
});
