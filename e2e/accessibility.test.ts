import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { funded } from "@/tests/helpers/stellar";
import { type Finding, seriousViolations } from "./helpers/axe";
import {
  ARTIFACTS,
  type GuardedContext,
  launchBrowser,
  newContext,
  PHONE,
  saveFailureShots,
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
 * Journey e: axe-core scans of the checkout (every state a payer meets, desktop and phone) and
 * the dashboard. Serious and critical findings fail the test. The other freelancer pages are
 * scanned too and their findings written to e2e/artifacts/axe-other-pages.json.
 */
let env: E2eEnv;
let browser: Browser;
let freelancer: Freelancer;
const contexts: GuardedContext[] = [];
let pending: any;
let paid: any;

const INVOICE = {
  clientName: "Ada Client",
  clientEmail: "ada@example.com",
  freelancerName: "Grace Hopper",
  freelancerCompany: "Hopper Studio",
  title: "Website redesign",
  description: "Design and build of the new marketing site.",
  currency: "XLM",
  taxRate: "10",
  discount: "1.1",
  dueDate: "2099-12-31",
  lineItems: [
    { description: "Design", quantity: "2", rate: "150.5" },
    { description: "Build", quantity: "1", rate: "700" },
  ],
};

beforeAll(async () => {
  [env, browser] = await Promise.all([startEnv(), launchBrowser()]);
  freelancer = await apiFreelancer(env);
  [pending, paid] = await Promise.all([
    sentInvoice(freelancer, INVOICE),
    sentInvoice(freelancer, { ...INVOICE, title: "Maintenance" }),
  ]);
  await payThroughApi(env, paid.id, await funded(env.testnet));
});

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => saveFailureShots(task.name, contexts));
});

afterAll(async () => {
  for (const c of contexts) await c.context.close().catch(() => {});
  await browser?.close();
  await env?.stop();
});

async function page(options: Parameters<typeof newContext>[1] = {}): Promise<Page> {
  const c = await newContext(browser, options);
  contexts.push(c);
  return c.newPage();
}

const describeFindings = (where: string, findings: Finding[]) =>
  findings.map((f) => `${where}: [${f.impact}] ${f.id} (${f.help}) at ${f.targets.join(", ")}`);

describe("accessibility", () => {
  it("checkout: no serious or critical axe findings in any state, desktop and phone", async () => {
    const findings: string[] = [];
    const desktop = await page();
    await desktop.goto(`${env.app.url}/pay/${pending.id}`);
    await visible(desktop.getByText("≈ $137.50 USD"));
    findings.push(...describeFindings("checkout", await seriousViolations(desktop)));

    const phone = await page({ viewport: PHONE, isMobile: true, hasTouch: true });
    await phone.goto(`${env.app.url}/pay/${pending.id}`);
    await phone.getByRole("button", { name: "Pay with a mobile wallet" }).click();
    await visible(phone.getByRole("img", { name: "Payment QR code" }));
    findings.push(...describeFindings("checkout, mobile QR", await seriousViolations(phone)));
    // The Freighter error state (no extension in this context): alert and "Try again".
    await phone.getByRole("button", { name: "Pay with Freighter" }).click();
    await visible(phone.getByRole("button", { name: "Try again" }), 10_000);
    findings.push(...describeFindings("checkout, error", await seriousViolations(phone)));

    const receipt = await page();
    await receipt.goto(`${env.app.url}/pay/${paid.id}`);
    await visible(receipt.getByRole("heading", { name: "Payment received" }));
    findings.push(...describeFindings("checkout, receipt", await seriousViolations(receipt)));

    const missing = await page();
    await missing.goto(`${env.app.url}/pay/unknown-invoice`);
    await visible(missing.getByRole("heading", { name: "Invoice not found" }));
    findings.push(...describeFindings("checkout, not found", await seriousViolations(missing)));

    expect(findings).toEqual([]);
  });

  it("checkout works from the keyboard alone, with a visible focus", async () => {
    const p = await page();
    await p.goto(`${env.app.url}/pay/${pending.id}`);
    const target = p.getByRole("button", { name: "Pay with a mobile wallet" });
    await visible(target);
    let reached = false;
    for (let i = 0; i < 20 && !reached; i++) {
      await p.keyboard.press("Tab");
      reached = await target.evaluate((el) => el === document.activeElement);
    }
    expect(reached).toBe(true);
    // Tailwind's focus-visible ring is a box-shadow.
    expect(await target.evaluate((el) => getComputedStyle(el).boxShadow)).not.toBe("none");
    await p.keyboard.press("Enter");
    await visible(p.getByRole("img", { name: "Payment QR code" }));
    // The copy buttons and the wallet link are reachable too.
    const link = p.getByRole("link", { name: "Open in wallet" });
    reached = false;
    for (let i = 0; i < 10 && !reached; i++) {
      await p.keyboard.press("Tab");
      reached = await link.evaluate((el) => el === document.activeElement);
    }
    expect(reached).toBe(true);
  });

  it("dashboard: no serious or critical axe findings (other pages reported)", async () => {
    const c = await newContext(browser);
    contexts.push(c);
    await installFreighter(c.context, { keypair: freelancer.keypair });
    const p = await c.newPage();
    await signInWithFreighter(p, env.app.url, "/dashboard");
    await visible(p.getByRole("heading", { name: "Recent activity" }));
    const dashboard = describeFindings("dashboard", await seriousViolations(p));

    // The other freelancer pages: reported, not asserted here (journey a covers their use).
    const others: string[] = [];
    for (const route of [
      "/invoices",
      `/invoices/${pending.id}`,
      "/invoices/new",
      "/clients",
      "/links",
      "/settings/webhooks",
    ]) {
      await p.goto(env.app.url + route);
      await visible(p.getByRole("heading", { level: 1 }));
      await p.waitForLoadState("networkidle");
      others.push(...describeFindings(route, await seriousViolations(p)));
    }
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.writeFileSync(
      path.join(ARTIFACTS, "axe-other-pages.json"),
      `${JSON.stringify(others, null, 2)}\n`,
    );
    if (others.length) console.warn(`axe findings on other pages:\n${others.join("\n")}`);
    expect(dashboard).toEqual([]);
  });
});
