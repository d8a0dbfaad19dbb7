import type { Browser, Locator, Page } from "playwright-core";
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
 * Issue 16 item 7: the freelancer's pages on a 375 px phone (docs/decisions.md, Phone layout).
 * Realistic data that used to push pages sideways (a long unbroken client name and address,
 * 7-decimal amounts, eight-digit totals, long titles and names); every page under app/(app)
 * fits the width, its main actions are on screen and unobstructed, the menu opens, closes
 * and navigates, and the checkout's testnet banner is the first thing a payer sees.
 */
let env: E2eEnv;
let browser: Browser;
let freelancer: Freelancer;
let c: GuardedContext;
let page: Page;
const contexts: GuardedContext[] = [];
const ids = { overpaid: "", pending: "", draft: "", partly: "" };

const LONG_NAME = "Maximiliana Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaft";
const LONG_ADDRESS =
  "Apartment 1204, Extraordinarilylongstreetnamewithoutanybreaksatall-Boulevard 99999, Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch, United Kingdom of Great Britain";
const base = {
  clientName: LONG_NAME,
  clientEmail: "accounts-payable.department@maximiliana-wolfeschlegelsteinhausenberger.example",
  clientCompany: "Wolfeschlegelsteinhausenbergerdorff Internationale Handelsgesellschaft mbH",
  clientAddress: LONG_ADDRESS,
  freelancerName: "Grace Hopper",
  currency: "XLM",
  dueDate: "2099-12-31",
};

beforeAll(async () => {
  [env, browser] = await Promise.all([startEnv(), launchBrowser()]);
  freelancer = await apiFreelancer(env);
  await created(
    freelancer.api.post("/api/clients", {
      name: LONG_NAME,
      email: base.clientEmail,
      company: base.clientCompany,
      address: LONG_ADDRESS,
      isFavorite: true,
    }),
  );
  const [overpaid, pending, draft, partly] = await Promise.all([
    sentInvoice(freelancer, {
      ...base,
      title: "Quarterly retainer for design, development and ongoing maintenance work",
      lineItems: [
        { description: "Retainer", quantity: "1", rate: "2887.3649999" },
        { description: "Hosting", quantity: "3", rate: "0.0000001" },
      ],
    }),
    sentInvoice(freelancer, {
      ...base,
      title: "Platform migration",
      lineItems: [{ description: "Migration", quantity: "1000", rate: "12345.6789012" }],
    }),
    sentInvoice(
      freelancer,
      {
        ...base,
        title: "Workshop",
        lineItems: [{ description: "Day", quantity: "1", rate: "600" }],
      },
      { send: false },
    ),
    sentInvoice(freelancer, {
      ...base,
      title: "Logo",
      lineItems: [{ description: "Logo", quantity: "1", rate: "25.5000001" }],
    }),
  ]);
  Object.assign(ids, {
    overpaid: overpaid.id,
    pending: pending.id,
    draft: draft.id,
    partly: partly.id,
  });
  // Overpaid (a refund to offer) and partly paid (paid and due on its card).
  const payer = await funded(env.testnet);
  const memo = Memo.text(overpaid.invoiceNumber);
  await send(
    env.testnet,
    await pay(env.testnet, payer, freelancer.wallet, Asset.native(), "2900", memo),
  );
  const partPayer = await funded(env.testnet);
  const part = Memo.text(partly.invoiceNumber);
  await send(
    env.testnet,
    await pay(env.testnet, partPayer, freelancer.wallet, Asset.native(), "10", part),
  );
  await until(
    async () => {
      const s = await (await fetch(`${env.app.url}/api/payments/${overpaid.id}/status`)).json();
      const p = await (await fetch(`${env.app.url}/api/payments/${partly.id}/status`)).json();
      return s.status === "PAID" && p.amountPaid === "10.0000000";
    },
    { message: "the watcher to record both payments", timeout: 30_000 },
  );
  await created(
    freelancer.api.post("/api/links", {
      amount: "0.0000001",
      asset: "XLM",
      title: "A deliberately long payment link title that keeps going well past a phone's width",
    }),
  );
  await created(
    freelancer.api.post("/api/keys", {
      name: "Accounting-system-integration-for-the-Wolfeschlegelsteinhausenberger-account",
      scopes: ["invoices:read"],
    }),
  );

  c = await newContext(browser, { viewport: PHONE, isMobile: true, hasTouch: true });
  contexts.push(c);
  await storeSession(c.context, freelancer);
  page = await c.newPage();
}, 120_000);

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => saveFailureShots(task.name, contexts));
});

afterAll(async () => {
  for (const x of contexts) await x.context.close().catch(() => {});
  await browser?.close();
  await env?.stop();
});

/** Arranging data through the API must work (a 4xx would only show up later as a timeout). */
function created(res: Promise<{ status: number; body: unknown }>) {
  return res.then((r) => {
    if (r.status !== 201) throw new Error(`arranging data: ${r.status} ${JSON.stringify(r.body)}`);
    return r;
  });
}

const scrollWidth = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth);

async function open(path: string) {
  await page.goto(env.app.url + path);
  await visible(page.getByRole("heading", { level: 1 }));
  await page.waitForLoadState("networkidle");
}

/** On screen once scrolled to, inside the 375 px, and not covered by anything. */
async function reachable(locator: Locator) {
  const el = await visible(locator);
  await el.scrollIntoViewIfNeeded();
  const box = await el.boundingBox();
  const name = (await el.textContent())?.trim() || (await el.getAttribute("aria-label"));
  expect(box, `${name} has a box`).not.toBeNull();
  if (!box) return;
  expect(box.x, `${name} starts on screen`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${name} ends on screen`).toBeLessThanOrEqual(PHONE.width);
  const onTop = await el.evaluate((node) => {
    const r = node.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return hit !== null && (hit === node || node.contains(hit));
  });
  expect(onTop, `${name} is not covered`).toBe(true);
}

const button = (name: string | RegExp) => page.getByRole("button", { name });
const link = (name: string | RegExp) => page.getByRole("link", { name });

describe("the freelancer's pages at 375 px", () => {
  it("a one-line header whose menu opens, closes with Escape and navigates", async () => {
    await open("/dashboard");
    const header = await page.locator("header").boundingBox();
    console.log(`header height at 375 px: ${header?.height} px`);
    expect(header?.height).toBeLessThanOrEqual(64);
    // The wide screen's row is not shown; the menu button is, closed.
    const menu = button("Menu");
    await reachable(menu);
    expect(await menu.getAttribute("aria-expanded")).toBe("false");
    const panelId = await menu.getAttribute("aria-controls");
    expect(panelId).toBeTruthy();
    const panel = page.locator(`[id="${panelId}"]`);
    expect(await panel.isVisible()).toBe(false);
    expect(await link("Invoices").count()).toBe(0);

    await menu.click();
    expect(await menu.getAttribute("aria-expanded")).toBe("true");
    await visible(panel);
    // Focus moves into the menu, on its first link.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Dashboard");
    expect(await link("Dashboard").getAttribute("aria-current")).toBe("page");
    for (const name of ["Dashboard", "Invoices", "Clients", "Payment links", "Webhooks"]) {
      await reachable(panel.getByRole("link", { name, exact: true }));
    }
    await reachable(panel.getByRole("link", { name: "API keys" }));
    await reachable(panel.getByRole("button", { name: "Sign out", exact: true }));
    await reachable(panel.getByRole("button", { name: "Sign out everywhere" }));
    expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await saveArtifact(page, "phone-menu");

    // Escape closes it and gives focus back to the button.
    await page.keyboard.press("Escape");
    expect(await menu.getAttribute("aria-expanded")).toBe("false");
    expect(await panel.isVisible()).toBe(false);
    expect(await menu.evaluate((el) => el === document.activeElement)).toBe(true);

    // A link navigates and closes the menu.
    await menu.click();
    await panel.getByRole("link", { name: "Invoices" }).click();
    await page.waitForURL(/\/invoices$/);
    await visible(page.getByRole("heading", { level: 1, name: "Invoices" }));
    expect(await menu.getAttribute("aria-expanded")).toBe("false");
    await menu.click();
    expect(await panel.getByRole("link", { name: "Invoices" }).getAttribute("aria-current")).toBe(
      "page",
    );
    // A tap outside closes it too.
    await page.getByRole("heading", { level: 1 }).click();
    expect(await menu.getAttribute("aria-expanded")).toBe("false");
  });

  it("the invoice list is cards: number, client, status, due date and a trimmed total", async () => {
    await open("/invoices");
    const cards = page.getByRole("article", { name: /^Invoice / });
    await until(async () => (await cards.count()) === 4, { message: "four invoice cards" });
    expect(await page.getByRole("table").count()).toBe(0);
    const first = await cards.first().getAttribute("aria-label");
    expect(first).toMatch(/^Invoice INV-/);

    const overpaid = await cardOf(ids.overpaid);
    const text = (await overpaid.textContent()) ?? "";
    expect(text).toContain(LONG_NAME);
    expect(text).toContain("Paid");
    expect(text).toContain("Due 31 Dec 2099");
    const total = overpaid.getByTestId("invoice-card-total");
    // 2887.3649999 + 3 × 0.0000001 = 2887.3650002, trimmed (half-up) and exact on hover.
    expect(await total.textContent()).toBe("2,887.37 XLM");
    expect(await total.locator("[title]").first().getAttribute("title")).toBe("2,887.3650002 XLM");
    await reachable(total);
    expect(await (await cardOf(ids.pending)).getByTestId("invoice-card-total").textContent()).toBe(
      "12,345,678.90 XLM",
    );
    expect(await (await cardOf(ids.partly)).getByTestId("invoice-card-total").textContent()).toBe(
      "25.50 XLM10.00 XLM paid · 15.50 XLM due",
    );
    for (const inv of Object.values(ids)) {
      await reachable((await cardOf(inv)).getByRole("link"));
    }
    await reachable(button("New invoice"));
    await reachable(button("Apply"));
    expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await saveArtifact(page, "phone-invoices");

    await (await cardOf(ids.overpaid)).getByRole("link").click();
    await page.waitForURL(new RegExp(`/invoices/${ids.overpaid}$`));
    // The detail view shows the amount in full: all 7 decimals.
    const summary = page.getByRole("region", { name: "Summary" });
    await until(async () => (await summary.textContent())?.includes("2,887.3650002 XLM"), {
      message: "the exact total on the detail view",
    });
  });

  async function cardOf(id: string) {
    const a = page.locator(`article:has(a[href="/invoices/${id}"])`);
    await visible(a);
    return a;
  }

  it("every page fits 375 px and its main actions are on screen", async () => {
    const pages: [string, string, () => Locator[]][] = [
      ["/dashboard", "dashboard", () => [button("New invoice"), button(/Download|Export/).first()]],
      ["/invoices/new", "invoice-new", () => [button("Create invoice"), button("Add line item")]],
      [
        `/invoices/${ids.draft}`,
        "invoice-draft",
        () => [button("Send invoice"), link("Edit invoice"), button("Delete invoice")],
      ],
      [`/invoices/${ids.draft}/edit`, "invoice-edit", () => [button("Save changes")]],
      [
        `/invoices/${ids.pending}`,
        "invoice-pending",
        () => [
          button("Cancel invoice"),
          button("Copy payment link"),
          button("Show QR code"),
          button("Download PDF"),
          link("Printable view"),
        ],
      ],
      [
        `/invoices/${ids.overpaid}`,
        "invoice-detail",
        () => [page.getByRole("button", { name: "Refund", exact: true }), button("Download PDF")],
      ],
      [`/invoices/${ids.overpaid}/print`, "invoice-print", () => [button("Print")]],
      [
        "/clients",
        "clients",
        () => [
          button("Add client"),
          button(`Edit ${LONG_NAME}`),
          button(`Delete ${LONG_NAME}`),
          button(`Favorite ${LONG_NAME}`),
        ],
      ],
      ["/links", "links", () => [button("Create payment link"), button(/Copy/).first()]],
      // (An endpoint needs a public https URL, which the closed network cannot resolve.)
      ["/settings/webhooks", "webhooks", () => [button("Add endpoint")]],
      ["/settings/keys", "keys", () => [button("Create key"), button(/^Revoke /)]],
    ];
    const wide: string[] = [];
    for (const [path, name, actions] of pages) {
      await open(path);
      const width = await scrollWidth(page);
      if (width > PHONE.width) wide.push(`${path}: ${width} px`);
      for (const action of actions()) await reachable(action);
      await saveArtifact(page, `phone-${name}`);
    }
    expect(wide).toEqual([]);
    expect(c.blocked).toEqual([]);
  });

  it("the refund opens and signs from a phone-sized row", async () => {
    await open(`/invoices/${ids.overpaid}`);
    await page.getByRole("button", { name: "Refund", exact: true }).click();
    await reachable(button("Sign and refund"));
    expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
  });

  it("the checkout's testnet banner is on screen at the top without scrolling", async () => {
    const pending = await sentInvoice(freelancer, {
      ...base,
      title: "Checkout banner",
      lineItems: [{ description: "Item", quantity: "1", rate: "1" }],
    });
    const p = await c.newPage();
    await p.goto(`${env.app.url}/pay/${pending.id}`);
    const banner = await visible(p.getByRole("note", { name: "Test network" }));
    expect(await banner.textContent()).toMatch(/not real money/i);
    const box = await banner.boundingBox();
    expect(box?.y).toBeLessThan(120);
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThan(PHONE.height / 2);
    expect(await scrollWidth(p)).toBeLessThanOrEqual(PHONE.width);
    await saveArtifact(p, "phone-checkout-testnet");
    await p.close();
    // A paid mainnet-free check: the payment went through on testnet all along.
    await payThroughApi(env, pending.id, await funded(env.testnet));
  });
});
