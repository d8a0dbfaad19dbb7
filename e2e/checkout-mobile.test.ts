import { gzipSync } from "node:zlib";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseSep7PayUri } from "@/lib/stellar/sep7";
import { Asset, funded, holder, Memo, pay, send, trust } from "@/tests/helpers/stellar";
import {
  type GuardedContext,
  launchBrowser,
  newContext,
  PHONE,
  saveArtifact,
  saveFailureShots,
  visible,
} from "./helpers/browser";
import { apiFreelancer, type E2eEnv, sentInvoice, startEnv } from "./helpers/env";
import { decodeQr } from "./helpers/qr";

/**
 * Journey c: on a phone-sized screen the client picks "Pay with a mobile wallet", a wallet
 * reads the QR code and pays exactly what it asks for, and the open page turns into the
 * receipt by itself.
 */
let env: E2eEnv;
let browser: Browser;
const contexts: GuardedContext[] = [];

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

describe("mobile wallet journey", () => {
  it("scans the QR code, pays from another account, and sees the receipt without reloading", async () => {
    const { testnet } = env;
    const freelancer = await apiFreelancer(env);
    await trust(testnet, freelancer.keypair, testnet.usdc);
    const invoice = await sentInvoice(freelancer, {
      clientName: "Lin Client",
      clientEmail: "lin@example.com",
      freelancerName: "Grace Hopper",
      title: "Logo design",
      currency: "USDC",
      taxRate: "10",
      lineItems: [{ description: "Logo", quantity: "1", rate: "99.5" }],
    });
    const payer = await holder(testnet, testnet.usdc, "500");

    const c = await newContext(browser, {
      viewport: PHONE,
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    contexts.push(c);
    await c.context.grantPermissions(["clipboard-read", "clipboard-write"], {
      origin: env.app.url,
    });
    const page = await c.newPage();
    // JavaScript a phone downloads to show the checkout (gzip sizes, as served compressed).
    const scripts: number[] = [];
    page.on("response", async (r) => {
      if (r.request().resourceType() !== "script") return;
      scripts.push(gzipSync(await r.body().catch(() => Buffer.alloc(0))).length);
    });
    await page.goto(`${env.app.url}/pay/${invoice.id}`, { waitUntil: "networkidle" });
    await visible(page.getByRole("heading", { level: 1, name: "Logo design" }));
    const firstLoad = scripts.reduce((a, b) => a + b, 0);
    console.info(
      `checkout first-load JS: ${scripts.length} scripts, ${(firstLoad / 1024).toFixed(1)} KB gzip`,
    );
    // React and Next.js are about 135 KB of this; the checkout's own code is a few KB, the
    // wallet and QR code are fetched only when the payer picks that way to pay.
    expect(firstLoad).toBeLessThan(170 * 1024);
    // No horizontal scrolling at 375 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    // USDC has no USD estimate from the XLM feed.
    expect(await page.getByText(/≈ \$/).count()).toBe(0);

    await page.getByRole("button", { name: "Pay with a mobile wallet" }).click();
    const qr = await visible(page.getByRole("img", { name: "Payment QR code" }));
    await qr.scrollIntoViewIfNeeded();
    const box = await qr.boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(256);
    await saveArtifact(page, "checkout-mobile-qr");

    // What a wallet's camera reads.
    const uri = await decodeQr(qr);
    expect(await page.getByRole("link", { name: "Open in wallet" }).getAttribute("href")).toBe(uri);
    const params = parseSep7PayUri(uri);
    expect(params).toEqual({
      destination: freelancer.wallet,
      amount: "109.45",
      asset_code: "USDC",
      asset_issuer: testnet.usdc.getIssuer(),
      memo: invoice.invoiceNumber,
      memo_type: "MEMO_TEXT",
      network_passphrase: testnet.passphrase,
    });

    // The raw details, for wallets without QR support, with working copy buttons.
    const payment = page.getByRole("region", { name: "Payment", exact: true });
    const detailsText = (await payment.textContent()) ?? "";
    expect(detailsText).toContain(freelancer.wallet);
    expect(detailsText).toContain("109.45 USDC");
    expect(detailsText).toContain(invoice.invoiceNumber);
    await payment.getByRole("button", { name: "Copy memo" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(invoice.invoiceNumber);
    await payment.getByRole("button", { name: "Copy destination" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(freelancer.wallet);

    // What the page asks the server while it waits: the pushed status, not polls.
    const asked: string[] = [];
    page.on("request", (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith("/api/payments/")) asked.push(path.split("/").pop() as string);
    });

    // A marker that a reload would wipe out.
    await page.evaluate(() => {
      (window as unknown as { stillHere: boolean }).stillHere = true;
    });

    // The wallet pays exactly what the URI asks for, from another account, on the ledger.
    const tx = await pay(
      testnet,
      payer,
      params.destination,
      new Asset(params.asset_code, params.asset_issuer),
      params.amount,
      Memo.text(params.memo),
      { passphrase: params.network_passphrase },
    );
    const hash = await send(testnet, tx);

    const heading = await visible(page.getByRole("heading", { name: "Payment received" }), 20_000);
    expect(
      await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere),
    ).toBe(true);
    const receipt = page.getByRole("region", { name: "Payment received" });
    const text = (await receipt.textContent()) ?? "";
    expect(text).toContain(hash);
    expect(text).toContain(payer.publicKey());
    expect(await page.getByRole("img", { name: "Payment QR code" }).count()).toBe(0);
    // The receipt came over the open stream (docs/decisions.md, Pushed status).
    expect(asked.filter((p) => p === "status")).toEqual([]);
    await heading.scrollIntoViewIfNeeded();
    await saveArtifact(page, "checkout-mobile-paid");
    expect(c.blocked).toEqual([]);
    expect(c.errors).toEqual([]);
  });

  it("polls instead when the host refuses the stream, and still turns into the receipt", async () => {
    const { testnet } = env;
    const freelancer = await apiFreelancer(env);
    const invoice = await sentInvoice(freelancer, {
      clientName: "Poe Client",
      clientEmail: "poe@example.com",
      title: "Poster",
      currency: "XLM",
      lineItems: [{ description: "Poster", quantity: "1", rate: "12" }],
    });
    const c = await newContext(browser, { viewport: PHONE, isMobile: true, hasTouch: true });
    contexts.push(c);
    const page = await c.newPage();
    // A host that cuts long responses: every stream is refused.
    let refused = 0;
    await page.route("**/api/payments/*/events", (route) => {
      refused++;
      return route.fulfill({ status: 503, body: "" });
    });
    const polls: number[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname.endsWith("/status")) polls.push(Date.now());
    });
    await page.goto(`${env.app.url}/pay/${invoice.id}`);
    await visible(page.getByRole("heading", { level: 1, name: "Poster" }));
    const payer = await funded(testnet);
    const hash = await send(
      testnet,
      await pay(
        testnet,
        payer,
        freelancer.wallet,
        Asset.native(),
        "12",
        Memo.text(invoice.invoiceNumber),
      ),
    );
    await visible(page.getByRole("heading", { name: "Payment received" }), 30_000);
    expect(
      (await page.getByRole("region", { name: "Payment received" }).textContent()) ?? "",
    ).toContain(hash);
    expect(refused).toBeGreaterThan(0);
    expect(polls.length).toBeGreaterThan(0);
  });
});
