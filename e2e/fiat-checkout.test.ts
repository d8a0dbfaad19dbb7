import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formatFiat } from "@/lib/format";
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
import { apiFreelancer, type E2eEnv, type Freelancer, sentInvoice, startEnv } from "./helpers/env";
import { installFreighter } from "./helpers/freighter";
import { decodeQr } from "./helpers/qr";
import { signInWithFreighter } from "./helpers/ui";

/**
 * Issue 15's journey: a EUR invoice paid in XLM from the checkout, which shows the quote (the
 * XLM amount locked at the XLM-EUR rate of the local price source, scripts/price-source.ts)
 * and its countdown; and a quote that runs out asks for a new one at the new rate
 * (docs/decisions.md, Fiat pricing).
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

const eurInvoice = (title: string, extra: Record<string, unknown> = {}) =>
  sentInvoice(freelancer, {
    clientName: "Ada Client",
    clientEmail: "ada@example.com",
    freelancerName: "Grace Hopper",
    title,
    currency: "XLM",
    priceCurrency: "EUR",
    lineItems: [{ description: "Workshop", quantity: "1", rate: "100.00" }],
    ...extra,
  });

const squash = (s: string | null) => (s ?? "").replace(/\s+/g, " ");

describe("a EUR invoice paid in XLM", () => {
  it("shows the EUR amount, the quote and its countdown, and turns into a receipt in EUR", async () => {
    const invoice = await eurInvoice("Brand workshop");
    expect(invoice).toMatchObject({ total: "100.0000000", priceCurrency: "EUR" });

    const payer = await funded(env.testnet);
    const c = await context();
    // The "popup" waits before approving, so the quote is on screen while the payer signs.
    await installFreighter(c.context, { keypair: payer, signDelayMs: 2500 });
    const page = await c.newPage();
    expect((await page.goto(`${env.app.url}/pay/${invoice.id}`))?.status()).toBe(200);

    // The amount due is the invoice's, in EUR; the asset is XLM.
    await visible(page.getByRole("heading", { level: 1, name: "Brand workshop" }));
    const payment = page.getByRole("region", { name: "Payment", exact: true });
    const before = squash(await payment.textContent());
    expect(before).toContain("Amount due100.00 EUR");
    expect(before).toContain("Priced in EUR, paid in XLM at a rate locked for 15 minutes");
    // No "≈ $" estimate from the XLM feed: the amount is fiat already.
    expect(await page.getByText(/≈ \$/).count()).toBe(0);
    const totals = squash(await page.getByRole("region", { name: "Totals" }).textContent());
    expect(totals).toContain("Total100.00 EUR");
    const details = squash(
      await page.getByRole("region", { name: "Invoice details" }).textContent(),
    );
    expect(details).toContain("Priced in EUR, paid in XLM on the Stellar testnet");
    // No quote before the payer starts paying.
    expect(await page.getByTestId("quote").count()).toBe(0);

    await page.getByRole("button", { name: "Pay with Freighter" }).click();
    // 100.00 EUR at 0.1157 EUR per XLM, rounded up to the stroop.
    const quote = await visible(page.getByRole("region", { name: "Quote" }));
    expect(squash(await quote.textContent())).toContain("Pay 864.3042351 XLM (1 XLM = 0.1157 EUR)");
    const timer = quote.getByRole("timer");
    expect(await timer.textContent()).toMatch(/^1[45]:[0-5]\d$/);
    // It counts down, once a second...
    const first = await timer.textContent();
    await until(async () => (await timer.textContent()) !== first, {
      message: "the countdown to move",
    });
    // ...while the screen reader hears it only as it crosses a few marks.
    const announcer = page.getByTestId("quote-announcement");
    expect(await announcer.getAttribute("aria-live")).toBe("polite");
    expect(await announcer.textContent()).toBe("More than 5 minutes left on this quote.");
    expect(await timer.getAttribute("aria-live")).toBeNull();
    await saveArtifact(page, "checkout-fiat-signing");

    // Signed at the quote: the invoice is paid, the receipt says so in EUR.
    await visible(page.getByRole("heading", { name: "Payment received" }), 30_000);
    const status = await (await fetch(`${env.app.url}/api/payments/${invoice.id}/status`)).json();
    expect(status).toMatchObject({
      status: "PAID",
      priceCurrency: "EUR",
      amountPaid: "100.0000000",
      amountDue: "0.0000000",
      quote: null,
    });
    expect(status.payments).toEqual([
      expect.objectContaining({
        amount: "864.3042351",
        asset: "XLM",
        applied: true,
        // Exactly 100 EUR, however many decimals it is written with.
        priceValue: expect.stringMatching(/^100\.00(00000)?$/),
        paidLate: false,
      }),
    ]);
    const receipt = page.getByRole("region", { name: "Payment received" });
    const receiptText = squash(await receipt.textContent());
    expect(receiptText).toContain("100.00 EUR was paid to Grace Hopper");
    expect(receiptText).toContain("864.3042351 XLM");
    expect(receiptText).toContain("Counted for 100.00 EUR");
    expect(squash(await payment.textContent())).toContain("Amount paid100.00 EUR");
    expect(await page.getByTestId("quote").count()).toBe(0);
    expect(c.errors).toEqual([]);
    expect(c.blocked).toEqual([]);

    // The freelancer's books: the payment's value in USD on the day, at the quote.
    const owner = await freelancer.api.get(`/api/invoices/${invoice.id}/owner`);
    const booked = owner.body.payments[0];
    expect(booked).toMatchObject({
      priceValue: expect.stringMatching(/^100\.00(00000)?$/),
      fiatCurrency: "USD",
      fiatValue: expect.any(String),
      quoteId: expect.any(String),
    });

    // The freelancer's invoice page: the total in EUR paid in XLM, the payment's XLM amount,
    // what it counted for, and its USD value with the rate and where it came from.
    const fc = await context();
    await installFreighter(fc.context, { keypair: freelancer.keypair });
    const mine = await fc.newPage();
    await signInWithFreighter(mine, env.app.url, `/invoices/${invoice.id}`);
    await visible(mine.getByTestId("invoice-status").getByText("PAID"));
    const summary = squash(await mine.getByRole("region", { name: "Summary" }).textContent());
    expect(summary).toContain("Total100.00 EUR, paid in XLM");
    expect(summary).toContain("Paid100.00 EUR");
    const row = squash(await mine.getByTestId("payment-row").textContent());
    expect(row).toContain("864.3042351 XLM");
    expect(row).toContain("counts for 100.00 EUR");
    expect(row).not.toContain("paid late");
    expect(row).toContain(formatFiat(booked.fiatValue, "USD"));
    expect(row).toContain(`1 XLM = ${booked.rate} USD`);
    expect(fc.errors).toEqual([]);
  });

  // The next two wait out a one-minute quote (the shortest an invoice can set) in real time;
  // they run side by side so the suite waits one minute, not two. Each has its own invoice and
  // browser context; the first moves the price source's XLM-EUR rate, which the second does
  // not read (it checks which quote was paid, not its amount).
  it.concurrent("keeps the countdown after a reload, and an expired quote asks for a new one at the new rate", async () => {
    const invoice = await eurInvoice("Short quote", { quoteTtlMinutes: 1 });
    const c = await context();
    const page = await c.newPage();
    await page.goto(`${env.app.url}/pay/${invoice.id}`);
    await page.getByRole("button", { name: "Pay with a mobile wallet" }).click();
    const quote = await visible(page.getByRole("region", { name: "Quote" }));
    expect(squash(await quote.textContent())).toContain("Pay 864.3042351 XLM");
    // The QR code carries the quote's amount.
    const qr = await visible(page.getByRole("img", { name: "Payment QR code" }));
    expect(new URL(await decodeQr(qr)).searchParams.get("amount")).toBe("864.3042351");

    // A reload shows the same quote, still counting down (the server renders it).
    await page.reload();
    const again = await visible(page.getByRole("region", { name: "Quote" }));
    expect(squash(await again.textContent())).toContain("Pay 864.3042351 XLM");
    expect(await again.getByRole("timer").textContent()).toMatch(/^00:[0-5]\d$|^01:00$/);

    // The rate moves; the quote runs out (1 minute), and the checkout says so.
    env.prices.set({ stellar: { eur: 0.125 } });
    await visible(page.getByRole("button", { name: "Get a new quote" }), 75_000);
    expect(await page.getByTestId("quote-announcement").textContent()).toBe(
      "The quote expired. Get a new quote to pay.",
    );
    expect(await again.getByRole("timer").count()).toBe(0);
    await saveArtifact(page, "checkout-fiat-quote-expired");
    // The shared price cache (60 s) has the new rate once it was fetched again.
    await until(
      async () => {
        const r = await fetch(`${env.app.url}/api/prices?pairs=XLM-EUR`);
        return (await r.json()).prices?.[0]?.rate === "0.125";
      },
      { message: "the new XLM-EUR rate", timeout: 75_000, interval: 1000 },
    );

    // A new quote at the new rate: 100.00 EUR at 0.125 is 800 XLM, and a new QR code.
    await page.getByRole("button", { name: "Get a new quote" }).click();
    await until(
      async () => squash(await again.textContent()).includes("Pay 800.00 XLM (1 XLM = 0.125 EUR)"),
      { message: "the new quote", timeout: 15_000 },
    );
    expect(await again.getByRole("timer").textContent()).toMatch(/^00:[0-5]\d$|^01:00$/);
    // Paying from a phone now shows the new quote's amount in the QR code.
    await page.getByRole("button", { name: "Pay with a mobile wallet" }).click();
    const newQr = await visible(page.getByRole("img", { name: "Payment QR code" }));
    expect(new URL(await decodeQr(newQr)).searchParams.get("amount")).toMatch(/^800(\.0+)?$/);
    expect(squash(await again.textContent())).toContain("Pay 800.00 XLM");
    expect(c.errors).toEqual([]);
  });

  it.concurrent("never asks the wallet to sign at a quote about to run out: it waits for a new one", async () => {
    const invoice = await eurInvoice("Last seconds", { quoteTtlMinutes: 1 });
    const payer = await funded(env.testnet);
    const c = await context();
    const wallet = await installFreighter(c.context, { keypair: payer });
    const page = await c.newPage();
    await page.goto(`${env.app.url}/pay/${invoice.id}`);
    // A quote is locked from the phone way, then the payer hesitates...
    await page.getByRole("button", { name: "Pay with a mobile wallet" }).click();
    const quote = await visible(page.getByRole("region", { name: "Quote" }));
    const first = await (await fetch(`${env.app.url}/api/payments/${invoice.id}/status`)).json();
    expect(first.quote).not.toBeNull();
    // ...until less than 20 seconds are left, and then pays with Freighter.
    await until(
      async () => /^00:(0\d|1[0-5])$/.test((await quote.getByRole("timer").textContent()) ?? ""),
      {
        message: "the last 15 seconds of the quote",
        timeout: 60_000,
        interval: 250,
      },
    );
    await page.getByRole("button", { name: "Pay with Freighter" }).click();
    await visible(page.getByRole("heading", { name: "Payment received" }), 45_000);

    // One signature, at a new quote locked after the first ran out.
    expect(wallet.calls.filter((t) => t === "SUBMIT_TRANSACTION")).toHaveLength(1);
    const owner = await freelancer.api.get(`/api/invoices/${invoice.id}/owner`);
    expect(owner.body.status).toBe("PAID");
    expect(owner.body.payments).toHaveLength(1);
    const [paid] = owner.body.payments;
    expect(paid.quoteId).not.toBe(first.quote.id);
    expect(paid.paidLate).toBe(false);
    expect(Date.parse(paid.confirmedAt)).toBeGreaterThanOrEqual(Date.parse(first.quote.expiresAt));
    expect(c.errors).toEqual([]);
  });

  it("the freelancer prices an invoice in EUR from the form: totals in EUR, whole cents", async () => {
    const c = await context();
    await installFreighter(c.context, { keypair: freelancer.keypair });
    const page = await c.newPage();
    await signInWithFreighter(page, env.app.url, "/invoices/new");
    await page.getByLabel("Client name").fill("Ada Client");
    await page.getByLabel("Client email").fill("ada@example.com");
    await page.getByLabel(/^Title/).fill("Advice in EUR");
    await page.getByLabel("Currency").selectOption("XLM");
    // No quote lifetime to set while the invoice is priced in XLM itself.
    expect(await page.getByLabel("Quote lifetime (minutes)").count()).toBe(0);
    await page.getByLabel("Price in").selectOption("EUR");
    const ttl = page.getByLabel("Quote lifetime (minutes)");
    expect(await ttl.inputValue()).toBe("15");
    await ttl.fill("30");
    await page.getByLabel("Description, item 1").fill("Advice");
    await page.getByLabel("Quantity, item 1").fill("3");
    // A fiat rate finer than a cent is refused as the API would refuse it.
    await page.getByLabel("Rate, item 1").fill("33.335");
    await visible(page.getByText("Rate must have at most 2 decimal places").first());
    await page.getByLabel("Rate, item 1").fill("33.33");
    await page.getByLabel("Tax rate (%)").fill("7.5");
    const totals = page.getByRole("region", { name: "Totals" });
    await until(async () => squash(await totals.textContent()).includes("Total107.49 EUR"), {
      message: "the totals in EUR",
    });
    expect(squash(await totals.textContent())).toContain("Tax (7.5%)7.50 EUR");

    await page.getByRole("button", { name: "Create invoice" }).click();
    await page.waitForURL(/\/invoices\/(?!new)[^/]+$/);
    await visible(page.getByTestId("invoice-status").getByText("DRAFT"));
    const summary = squash(await page.getByRole("region", { name: "Summary" }).textContent());
    expect(summary).toContain("Total107.49 EUR, paid in XLM");
    const id = page.url().split("/").pop();
    const created = await freelancer.api.get(`/api/invoices/${id}/owner`);
    expect(created.body).toMatchObject({
      total: "107.4900000",
      currency: "XLM",
      priceCurrency: "EUR",
      quoteTtlMinutes: 30,
    });

    // A payment link priced in EUR the same way.
    await page.goto(`${env.app.url}/links`);
    const linkForm = page.getByRole("form", { name: "New payment link" });
    await linkForm.getByLabel("Price in").selectOption("EUR");
    await linkForm.getByLabel("Amount (EUR)").fill("25.5");
    await linkForm.getByLabel("Quote lifetime (minutes)").fill("10");
    await linkForm.getByLabel("Title").fill("Coffee chat in EUR");
    await linkForm.getByRole("button", { name: "Create payment link" }).click();
    await visible(page.getByText("Link created: 25.50 EUR, paid in XLM"));
    const links = await freelancer.api.get("/api/links");
    expect(
      links.body.links.find((l: any) => l.metadata.title === "Coffee chat in EUR"),
    ).toMatchObject({
      amount: "25.5000000",
      asset: "XLM",
      priceCurrency: "EUR",
      quoteTtlMinutes: 10,
    });
    expect(c.errors).toEqual([]);
  });
});
