import fs from "node:fs";
import type { Browser } from "playwright-core";
import { PNG } from "pngjs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { funded } from "@/tests/helpers/stellar";
import {
  DESKTOP,
  type GuardedContext,
  launchBrowser,
  newContext,
  PHONE,
  saveArtifact,
  saveFailureShots,
  saveReadmeShot,
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
import { installFreighter } from "./helpers/freighter";
import { signInWithFreighter } from "./helpers/ui";

/**
 * Journey f: screenshots of the main pages with realistic data, as artifacts
 * (e2e/artifacts/*.png), and the four the README shows (docs/screenshots/, committed): the
 * dashboard and the checkout on a desktop, the dashboard and the invoice list on a phone.
 */
let env: E2eEnv;
let browser: Browser;
let freelancer: Freelancer;
const contexts: GuardedContext[] = [];
let checkoutId = "";

const base = {
  clientEmail: "billing@example.com",
  freelancerName: "Grace Hopper",
  freelancerCompany: "Hopper Studio",
  currency: "XLM",
  dueDate: "2099-12-31",
};

beforeAll(async () => {
  [env, browser] = await Promise.all([startEnv(), launchBrowser()]);
  freelancer = await apiFreelancer(env);
  await freelancer.api.post("/api/clients", {
    name: "Ada Lovelace",
    email: "ada@example.com",
    company: "Analytical Engines Ltd",
    isFavorite: true,
  });
  const [website, , support] = await Promise.all([
    sentInvoice(freelancer, {
      ...base,
      clientName: "Ada Lovelace",
      clientEmail: "ada@example.com",
      title: "Website redesign",
      description: "Design and build of the new marketing site, with a blog and a contact form.",
      taxRate: "10",
      discount: "1.1",
      lineItems: [
        { description: "Design", quantity: "2", rate: "150.5" },
        { description: "Build", quantity: "1", rate: "700" },
      ],
    }),
    sentInvoice(freelancer, {
      ...base,
      clientName: "Alan Turing",
      title: "Security audit",
      lineItems: [{ description: "Audit", quantity: "3", rate: "420" }],
    }),
    sentInvoice(freelancer, {
      ...base,
      clientName: "Katherine Johnson",
      title: "Support retainer",
      lineItems: [{ description: "Monthly support", quantity: "1", rate: "800" }],
    }),
    sentInvoice(
      freelancer,
      {
        ...base,
        clientName: "Edsger Dijkstra",
        title: "Workshop",
        lineItems: [{ description: "Half-day workshop", quantity: "1", rate: "600" }],
      },
      { send: false },
    ),
  ]);
  const payer = await funded(env.testnet);
  await payThroughApi(env, support.id, payer);
  await freelancer.api.post("/api/links", { amount: "25", asset: "XLM", title: "Coffee chat" });
  checkoutId = website.id;
});

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => saveFailureShots(task.name, contexts));
});

afterAll(async () => {
  for (const c of contexts) await c.context.close().catch(() => {});
  await browser?.close();
  await env?.stop();
});

function pngSize(file: string) {
  const png = PNG.sync.read(fs.readFileSync(file));
  return { width: png.width, height: png.height, bytes: fs.statSync(file).size };
}

describe("screenshots", () => {
  it("checkout: desktop (README), phone, mobile wallet QR", async () => {
    const c = await newContext(browser);
    contexts.push(c);
    const page = await c.newPage();
    await page.goto(`${env.app.url}/pay/${checkoutId}`);
    await visible(page.getByText("≈ $137.50 USD"));
    const readme = await saveReadmeShot(page, "checkout");
    expect(pngSize(readme)).toMatchObject(DESKTOP);
    expect(pngSize(readme).bytes).toBeLessThan(400_000);
    await saveArtifact(page, "checkout-desktop");

    const m = await newContext(browser, { viewport: PHONE, isMobile: true, hasTouch: true });
    contexts.push(m);
    const phone = await m.newPage();
    await phone.goto(`${env.app.url}/pay/${checkoutId}`);
    await visible(phone.getByText("≈ $137.50 USD"));
    await saveArtifact(phone, "checkout-phone");
    await phone.getByRole("button", { name: "Pay with a mobile wallet" }).click();
    await visible(phone.getByRole("img", { name: "Payment QR code" }));
    await saveArtifact(phone, "checkout-phone-qr");
  });

  it("the freelancer's pages: dashboard (README), invoices, invoice, new invoice, clients, links, phone (README)", async () => {
    const c = await newContext(browser);
    contexts.push(c);
    await installFreighter(c.context, { keypair: freelancer.keypair });
    const page = await c.newPage();
    await signInWithFreighter(page, env.app.url, "/dashboard");
    const revenue = page.getByRole("region", { name: "XLM revenue" });
    await until(async () => /800\.00/.test((await revenue.textContent()) ?? ""), {
      message: "the dashboard's XLM revenue",
    });
    await visible(page.getByRole("heading", { name: "Recent activity" }));
    await page.waitForLoadState("networkidle");
    const readme = await saveReadmeShot(page, "dashboard");
    expect(pngSize(readme)).toMatchObject(DESKTOP);
    expect(pngSize(readme).bytes).toBeLessThan(400_000);
    await saveArtifact(page, "dashboard");

    for (const [route, name] of [
      ["/invoices", "invoices"],
      [`/invoices/${checkoutId}`, "invoice-detail"],
      ["/invoices/new", "invoice-new-empty"],
      ["/clients", "clients-list"],
      ["/links", "links"],
      ["/settings/webhooks", "webhooks"],
    ] as const) {
      await page.goto(env.app.url + route);
      await visible(page.getByRole("heading", { level: 1 }));
      await page.waitForLoadState("networkidle");
      await saveArtifact(page, name);
    }

    // The same pages on a phone (README): the menu button, the invoice cards.
    await page.setViewportSize(PHONE);
    await page.goto(`${env.app.url}/dashboard`);
    await until(async () => /800\.00/.test((await revenue.textContent()) ?? ""), {
      message: "the dashboard's XLM revenue on a phone",
    });
    await page.waitForLoadState("networkidle");
    expect(pngSize(await saveReadmeShot(page, "dashboard-phone"))).toMatchObject(PHONE);
    await page.goto(`${env.app.url}/invoices`);
    await visible(page.getByRole("article", { name: /^Invoice / }));
    await page.waitForLoadState("networkidle");
    expect(pngSize(await saveReadmeShot(page, "invoices-phone"))).toMatchObject(PHONE);
    expect(c.blocked).toEqual([]);
  });

  it("checkout of a EUR invoice paid in XLM, with its locked quote and countdown", async () => {
    const invoice = await sentInvoice(freelancer, {
      ...base,
      clientName: "Ada Lovelace",
      clientEmail: "ada@example.com",
      title: "Brand workshop",
      priceCurrency: "EUR",
      lineItems: [{ description: "Workshop day", quantity: "1", rate: "100.00" }],
    });
    const c = await newContext(browser);
    contexts.push(c);
    const page = await c.newPage();
    await page.goto(`${env.app.url}/pay/${invoice.id}`);
    await page.getByRole("button", { name: "Pay with a mobile wallet" }).click();
    await visible(page.getByRole("region", { name: "Quote" }).getByRole("timer"));
    await visible(page.getByRole("img", { name: "Payment QR code" }));
    await saveArtifact(page, "checkout-fiat-quote");
    expect(c.errors).toEqual([]);
  });
});
