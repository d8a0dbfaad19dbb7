import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Asset, funded, Memo, pay, send } from "@/tests/helpers/stellar";
import { seriousViolations } from "./helpers/axe";
import {
  DESKTOP,
  type GuardedContext,
  launchBrowser,
  newContext,
  PHONE,
  saveArtifact,
  saveFailureShots,
  until,
  visible,
} from "./helpers/browser";
import { apiFreelancer, type E2eEnv, type Freelancer, sentInvoice, startEnv } from "./helpers/env";
import { storeSession } from "./helpers/ui";

/**
 * Issue 28 item 17, the overflow sweep: with data on every page (a profile with logo, address
 * and tax id; clients; invoices with several lines, payments, an overpayment to refund and a
 * fiat-priced one paid in part; a draft; a payment link; a recurring invoice; a webhook
 * endpoint with deliveries; an API key), EVERY page of the app (each app/**\/page.tsx) at
 * 375 px and at 1280 px: the document never scrolls sideways, and no table's box
 * (components/ui/table.tsx, `data-table`) is wider than what shows of it
 * (`scrollWidth <= clientWidth`), nor any other table wider than its container. On phones the
 * line items keep their Amount column; the payments table fits its card at 1280 px; the
 * printable view carries the PDF's logo, address and tax id (item 19).
 */
const ROOT = path.resolve(import.meta.dirname, "..");
let env: E2eEnv;
let browser: Browser;
let freelancer: Freelancer;
let hooks: http.Server;
const contexts: GuardedContext[] = [];
const ids = {
  pending: "",
  overpaid: "",
  fiat: "",
  draft: "",
  link: "",
  recurring: "",
  quote: "",
  quoteDraft: "",
  client: "",
};

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);
const PROFILE = {
  displayName: "Grace Hopper",
  company: "Compilers & Co",
  email: "grace@compilers.example",
  address: "12 St James's Square, London SW1Y 4LB",
  taxId: "GB123456789",
  logo: `data:image/png;base64,${PNG.toString("base64")}`,
};
const client = {
  clientName: "Wolfeschlegelsteinhausenbergerdorff Internationale Handelsgesellschaft",
  clientEmail: "accounts-payable@wolfeschlegelsteinhausenberger.example",
  clientCompany: "Wolfeschlegelsteinhausenbergerdorff mbH",
  clientAddress: "Apartment 1204, Extraordinarilylongstreetnamewithoutanybreaks-Boulevard 99999",
  freelancerName: "Grace Hopper",
  dueDate: "2099-12-31",
};
const lines = [
  { description: "Discovery workshop and stakeholder interviews", quantity: "2", rate: "1250.5" },
  { description: "Design system: tokens, components, documentation", quantity: "1", rate: "4800" },
  { description: "Hosting", quantity: "12", rate: "0.0000001" },
];

beforeAll(async () => {
  // A webhook receiver on this machine (loopback allowed for the test only).
  hooks = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200).end("ok"));
  });
  await new Promise<void>((r) => hooks.listen(0, "127.0.0.1", r));
  [env, browser] = await Promise.all([
    startEnv({
      WEBHOOK_ALLOW_LOOPBACK: "true",
      WEBHOOK_ALLOW_LOOPBACK_IN_PRODUCTION: "i-understand",
    }),
    launchBrowser(),
  ]);
  freelancer = await apiFreelancer(env);
  const api = freelancer.api;
  const hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`;
  await ok(api.post("/api/webhooks", { url: hookUrl, events: ["invoice.created"] }));
  await ok(api.put("/api/profile", PROFILE));
  await ok(
    api.post("/api/clients", {
      name: client.clientName,
      email: client.clientEmail,
      company: client.clientCompany,
      address: client.clientAddress,
      isFavorite: true,
    }),
  );
  await ok(api.post("/api/clients", { name: "Ada Client", email: "ada@example.com" }));
  const [pending, overpaid, fiat, draft] = await Promise.all([
    sentInvoice(freelancer, {
      ...client,
      title: "Quarterly retainer for design, development and ongoing maintenance",
      currency: "XLM",
      taxRate: "20",
      notes: "Thank you. Payment within 30 days, please quote the invoice number.",
      lineItems: lines,
    }),
    sentInvoice(freelancer, {
      ...client,
      title: "Platform migration",
      currency: "XLM",
      lineItems: [{ description: "Migration", quantity: "1", rate: "50.1234567" }],
    }),
    sentInvoice(freelancer, {
      ...client,
      title: "Priced in euros",
      currency: "XLM",
      priceCurrency: "EUR",
      lineItems: lines.slice(0, 2),
    }),
    sentInvoice(
      freelancer,
      { ...client, title: "Draft", currency: "XLM", lineItems: lines },
      {
        send: false,
      },
    ),
  ]);
  Object.assign(ids, {
    pending: pending.id,
    overpaid: overpaid.id,
    fiat: fiat.id,
    draft: draft.id,
  });
  // Two payments that together overpay (a refund to offer on each row), and a part of the
  // fiat-priced invoice (its value and "counts for" lines).
  const payWith = async (invoice: { invoiceNumber: string }, amount: string) => {
    const payer = await funded(env.testnet);
    await send(
      env.testnet,
      await pay(
        env.testnet,
        payer,
        freelancer.wallet,
        Asset.native(),
        amount,
        Memo.text(invoice.invoiceNumber),
      ),
    );
  };
  await fetch(`${env.app.url}/api/payments/${fiat.id}/pay-intent`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ networkPassphrase: env.testnet.passphrase }),
  });
  await Promise.all([payWith(overpaid, "30"), payWith(fiat, "500"), payWith(pending, "100")]);
  await payWith(overpaid, "40");
  await until(
    async () => {
      const owner = await api.get(`/api/invoices/${overpaid.id}/owner`);
      const f = await api.get(`/api/invoices/${fiat.id}/owner`);
      const p = await api.get(`/api/invoices/${pending.id}/owner`);
      return (
        owner.body.payments.length === 2 && f.body.payments.length === 1 && p.body.payments.length
      );
    },
    { message: "the watcher to record the payments", timeout: 40_000 },
  );
  const link = await ok(
    api.post("/api/links", {
      amount: "25",
      asset: "XLM",
      title: "A deliberately long payment link title that keeps going well past a phone's width",
    }),
  );
  ids.link = (link.body as { id: string }).id;
  // The saved client of the invoices above: its page shows their statement.
  const saved = await ok(
    api.post("/api/clients", {
      name: client.clientName,
      email: client.clientEmail,
      company: client.clientCompany,
    }),
  );
  ids.client = (saved.body as { id: string }).id;
  const recurring = await ok(
    api.post("/api/recurring", {
      template: {
        ...client,
        dueDate: undefined,
        title: "Monthly retainer",
        currency: "XLM",
        lineItems: lines,
      },
      interval: "month",
      startDate: new Date().toISOString().slice(0, 10),
      count: 12,
    }),
  );
  ids.recurring = (recurring.body as { id: string }).id;
  // A sent quote with the long client and lines (docs/decisions.md, Quotes).
  const { dueDate: _due, ...quoteClient } = client;
  const quote = await ok(
    api.post("/api/quotes", {
      ...quoteClient,
      title: "Quote for the quarterly retainer, design, development and maintenance",
      currency: "XLM",
      lineItems: lines,
    }),
  );
  ids.quote = (quote.body as { id: string }).id;
  const quoteDraft = await ok(
    api.post("/api/quotes", { ...quoteClient, currency: "XLM", lineItems: lines }),
  );
  ids.quoteDraft = (quoteDraft.body as { id: string }).id;
  await ok(api.post(`/api/quotes/${ids.quote}/send`));
  await ok(
    api.post("/api/keys", {
      name: "Accounting-system-integration-for-the-Wolfeschlegelsteinhausenberger-account",
      scopes: ["invoices:read"],
    }),
  );
}, 180_000);

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => saveFailureShots(task.name, contexts));
});

afterAll(async () => {
  for (const x of contexts) await x.context.close().catch(() => {});
  await browser?.close();
  await env?.stop();
  await new Promise((r) => hooks?.close(r));
});

/** Arranging data through the API must work (a 4xx would only show up later as a timeout). */
function ok(res: Promise<{ status: number; body: unknown }>) {
  return res.then((r) => {
    if (r.status >= 300) throw new Error(`arranging data: ${r.status} ${JSON.stringify(r.body)}`);
    return r;
  });
}

/** Every page of the app: app/**\/page.tsx as routes, `[id]` filled with `id`. */
function appRoutes(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory() && e.name !== "api") walk(full);
      else if (e.name === "page.tsx") {
        const route = path
          .relative(path.join(ROOT, "app"), dir)
          .split(path.sep)
          .filter((s) => s && !/^\(.*\)$/.test(s))
          .join("/");
        out.push(`/${route}`);
      }
    }
  };
  walk(path.join(ROOT, "app"));
  return out.sort();
}

/** The pages visited: each route with its data (several invoices for `[id]`). */
function visits(): string[] {
  return [
    "/",
    "/dashboard",
    "/docs",
    "/invoices",
    "/invoices/new",
    `/invoices/${ids.pending}`,
    `/invoices/${ids.overpaid}`,
    `/invoices/${ids.fiat}`,
    `/invoices/${ids.draft}`,
    `/invoices/${ids.draft}/edit`,
    `/invoices/${ids.pending}/print`,
    "/clients",
    `/clients/${ids.client}`,
    "/links",
    `/links/${ids.link}`,
    "/recurring",
    "/recurring/new",
    `/recurring/${ids.recurring}/edit`,
    "/settings/keys",
    "/settings/profile",
    "/settings/webhooks",
    "/settings/team",
    "/portal",
    `/pay/${ids.pending}`,
    `/pay/${ids.fiat}`,
    "/quotes",
    "/quotes/new",
    `/quotes/${ids.quote}`,
    `/quotes/${ids.quoteDraft}`,
    `/quotes/${ids.quoteDraft}/edit`,
    `/quote/${ids.quote}`,
  ];
}

async function signedInPage(viewport: { width: number; height: number }): Promise<Page> {
  const phone = viewport.width < 640;
  const c = await newContext(browser, { viewport, isMobile: phone, hasTouch: phone });
  contexts.push(c);
  await storeSession(c.context, freelancer);
  return c.newPage();
}

/** Opens `path` and waits for its content: a heading, no "Loading …", the network quiet. */
async function open(page: Page, route: string) {
  await page.goto(env.app.url + route);
  await visible(page.getByRole("heading", { level: 1 }).or(page.locator("main h1")));
  await until(async () => (await page.getByText(/^Loading .*…$/).count()) === 0, {
    message: `${route} to load`,
  });
  await page.waitForLoadState("networkidle", { timeout: 5_000 }).catch(() => {});
}

/** What spills: the document sideways, and every table wider than what shows of it. */
function overflows(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth) {
      out.push(`document: ${doc.scrollWidth} px in ${doc.clientWidth}`);
    }
    const label = (el: Element) => {
      const card = el.closest("section");
      const heading = card?.querySelector("h2,h3")?.textContent?.trim();
      const caption = el.querySelector("caption")?.textContent?.trim();
      return [heading && `card "${heading}"`, caption && `table "${caption}"`]
        .filter(Boolean)
        .join(", ");
    };
    for (const box of document.querySelectorAll<HTMLElement>("[data-table]")) {
      if (box.scrollWidth > box.clientWidth) {
        out.push(`${label(box)}: ${box.scrollWidth} px in ${box.clientWidth}`);
      }
    }
    for (const table of document.querySelectorAll("table")) {
      const parent = table.parentElement;
      const width = table.getBoundingClientRect().width;
      if (!parent || width <= 1) continue; // (read to screen readers only)
      if (width > parent.clientWidth + 0.5) {
        out.push(
          `${label(table)} in its container: ${Math.round(width)} px in ${parent.clientWidth}`,
        );
      }
    }
    return out;
  });
}

describe("every page fits at 375 px and 1280 px", () => {
  it("the sweep covers every page of the app", () => {
    const routes = appRoutes();
    const visited = new Set(visits().map((v) => v.replace(/\/[a-z0-9]{20,}(?=\/|$)/g, "/[id]")));
    expect(routes.filter((r) => !visited.has(r))).toEqual([]);
  });

  for (const [name, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`no page overflows at ${viewport.width} px`, async () => {
      const page = await signedInPage(viewport);
      const found: string[] = [];
      let n = 0;
      for (const route of visits()) {
        await open(page, route);
        for (const o of await overflows(page)) found.push(`${route}: ${o}`);
        // The payments table with its refund form open (it opens below the table).
        if (route === `/invoices/${ids.overpaid}`) {
          await page.getByRole("button", { name: "Refund", exact: true }).first().click();
          await visible(page.getByRole("button", { name: "Sign and refund" }));
          for (const o of await overflows(page)) found.push(`${route} (refund open): ${o}`);
        }
        const slug = route.replace(/[^a-z0-9]+/gi, "-").replace(/-[a-z0-9]{20,}/g, "");
        await saveArtifact(page, `overflow-${name}-${String(n++).padStart(2, "0")}${slug}`);
      }
      expect(found).toEqual([]);
    });
  }

  it("the lists and the issue-32 pages have no serious axe finding at 375 px", async () => {
    // The document lists (their search box and filters), the quote pages, the client's public
    // quote page, and the client page with its statement card (ISSUE 32 item 4).
    const page = await signedInPage(PHONE);
    const found: string[] = [];
    for (const route of [
      "/invoices",
      "/quotes",
      "/quotes/new",
      `/quotes/${ids.quote}`,
      `/quotes/${ids.quoteDraft}`,
      `/quotes/${ids.quoteDraft}/edit`,
      `/quote/${ids.quote}`,
      `/clients/${ids.client}`,
      "/settings/team",
      "/portal",
    ]) {
      await open(page, route);
      for (const v of await seriousViolations(page)) {
        found.push(`${route}: ${v.id} (${v.help}) at ${v.targets.join(", ")}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("the client page lists the client's invoices and quotes, each linking to its page", async () => {
    const page = await signedInPage(PHONE);
    await open(page, `/clients/${ids.client}`);
    const invoices = page.getByRole("region", { name: "Invoices" });
    await visible(invoices.locator(`a[href="/invoices/${ids.pending}"]`));
    const quotes = page.getByRole("region", { name: "Quotes" });
    await visible(quotes.locator(`a[href="/quotes/${ids.quote}"]`));
  });

  it("on a phone the line items show Amount, with quantity × rate under the description", async () => {
    const page = await signedInPage(PHONE);
    await open(page, `/invoices/${ids.pending}`);
    const table = page.getByRole("table", { name: "Line items" });
    const amount = table.getByRole("columnheader", { name: "Amount" });
    await visible(amount);
    const box = await amount.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    const row = table.getByRole("row").filter({ hasText: "Design system" });
    // The visible cells: description (with 1 × 4,800.00) and the amount.
    const shown = await row
      .getByRole("cell")
      .evaluateAll((tds) =>
        tds.filter((td) => (td as HTMLElement).offsetParent !== null).map((td) => td.textContent),
      );
    expect(shown).toHaveLength(2);
    expect(shown[0]).toMatch(/1 × 4,?800\.00/);
    expect(shown[1]).toMatch(/^4,?800\.00/);
    const amountCell = row.getByRole("cell").last();
    const cellBox = await amountCell.boundingBox();
    expect(cellBox && cellBox.x + cellBox.width).toBeLessThanOrEqual(PHONE.width);
  });

  it("at 1280 px the payments table fits its card, the refund form opens below it", async () => {
    const page = await signedInPage(DESKTOP);
    await open(page, `/invoices/${ids.overpaid}`);
    const table = page.getByRole("table", { name: "Payments received" });
    await visible(table);
    const fits = await table.evaluate((t) => {
      const box = t.closest("[data-table]") as HTMLElement;
      const card = t.closest("section") as HTMLElement;
      return {
        table: Math.round(t.getBoundingClientRect().width),
        box: box.clientWidth,
        boxScroll: box.scrollWidth,
        card: card.clientWidth,
      };
    });
    expect(fits.boxScroll).toBeLessThanOrEqual(fits.box);
    expect(fits.table).toBeLessThanOrEqual(fits.card);
    const row = page.getByTestId("payment-row").first();
    // The hash is shortened and copyable.
    await visible(row.getByRole("button", { name: /^Copy transaction hash / }));
    await row.getByRole("button", { name: "Refund", exact: true }).click();
    const form = page.getByTestId("refund-panel");
    await visible(form.getByRole("textbox", { name: /Amount to refund/ }));
    expect(await table.getByRole("textbox").count()).toBe(0);
    const [tableBox, formBox] = [await table.boundingBox(), await form.boundingBox()];
    expect(formBox && tableBox && formBox.y >= tableBox.y + tableBox.height).toBe(true);
  });

  it("the printable view carries the PDF's logo, address and tax id", async () => {
    const page = await signedInPage(DESKTOP);
    await open(page, `/invoices/${ids.pending}/print`);
    const article = page.getByRole("article");
    const logo = article.getByRole("img", { name: /logo/ });
    await visible(logo);
    await until(
      () => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      {
        message: "the logo to load",
      },
    );
    const text = (await article.textContent()) ?? "";
    expect(text).toContain(PROFILE.address);
    expect(text).toContain(`Tax ID: ${PROFILE.taxId}`);
  });
});
