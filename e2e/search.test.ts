import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type GuardedContext,
  launchBrowser,
  newContext,
  PHONE,
  saveFailureShots,
  until,
  visible,
} from "./helpers/browser";
import { apiFreelancer, type E2eEnv, type Freelancer, sentInvoice, startEnv } from "./helpers/env";
import { storeSession } from "./helpers/ui";

/**
 * ISSUE 33 item 1, the search box of the invoice and quote lists (docs/decisions.md, Document
 * lists on screen): the list follows what is typed (one request once typing pauses), the query
 * stays in the URL through a reload, combines with the status filter, and the Clear button
 * brings every document back. Needs `q` on GET /api/invoices and /api/quotes.
 */
let env: E2eEnv;
let browser: Browser;
let freelancer: Freelancer;
const contexts: GuardedContext[] = [];

const line = [{ description: "Work", quantity: "1", rate: "10" }];
const invoice = (clientName: string, title: string) => ({
  clientName,
  clientEmail: "billing@example.com",
  title,
  currency: "XLM",
  dueDate: "2099-12-31",
  lineItems: line,
});

beforeAll(async () => {
  [env, browser] = await Promise.all([startEnv(), launchBrowser()]);
  freelancer = await apiFreelancer(env);
  await sentInvoice(freelancer, invoice("Acme Corporation", "March retainer"));
  await sentInvoice(freelancer, invoice("Globex", "Logo design"));
  await sentInvoice(freelancer, invoice("Acme Corporation", "April retainer"), { send: false });
  for (const clientName of ["Acme Corporation", "Initech"]) {
    const q = await freelancer.api.post("/api/quotes", {
      clientName,
      clientEmail: "billing@example.com",
      title: `Estimate for ${clientName}`,
      currency: "XLM",
      lineItems: line,
    });
    if (q.status !== 201) throw new Error(`quote: ${q.status} ${JSON.stringify(q.body)}`);
  }
}, 180_000);

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => saveFailureShots(task.name, contexts));
});

afterAll(async () => {
  for (const x of contexts) await x.context.close().catch(() => {});
  await browser?.close();
  await env?.stop();
});

async function phonePage(): Promise<Page> {
  const c = await newContext(browser, { viewport: PHONE, isMobile: true, hasTouch: true });
  contexts.push(c);
  await storeSession(c.context, freelancer);
  return c.newPage();
}

/** The numbers of the cards shown (the phone's list). */
const shown = (page: Page, name: string) =>
  page
    .getByRole("list", { name })
    .getByRole("article")
    .evaluateAll((cards) => cards.map((c) => c.getAttribute("aria-label") ?? ""));

describe("the search box of the document lists", () => {
  it("invoices: as you type, kept in the URL, with the status filter, cleared", async () => {
    const page = await phonePage();
    const asked: string[] = [];
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (url.pathname === "/api/invoices") asked.push(url.searchParams.get("q") ?? "");
    });
    await page.goto(`${env.app.url}/invoices`);
    const list = "Invoices";
    await until(async () => (await shown(page, list)).length === 3, { message: "3 invoices" });

    const box = page.getByRole("searchbox", { name: "Search invoices" });
    asked.length = 0;
    await box.pressSequentially("acm", { delay: 40 });
    await until(async () => (await shown(page, list)).length === 2, { message: "the Acme two" });
    // One request for what was typed, none per keystroke.
    expect(asked.filter((q) => q !== "")).toEqual(["acm"]);
    expect(new URL(page.url()).searchParams.get("q")).toBe("acm");

    // With the status filter: the draft only.
    await page.getByLabel("Status").selectOption("DRAFT");
    await until(async () => (await shown(page, list)).length === 1, { message: "the draft" });

    // A reload keeps the search.
    await page.reload();
    await visible(page.getByRole("heading", { level: 1, name: "Invoices" }));
    expect(await box.inputValue()).toBe("acm");

    await page.getByRole("button", { name: "Clear search" }).click();
    await until(async () => (await shown(page, list)).length === 3, { message: "all three" });
    expect(new URL(page.url()).searchParams.has("q")).toBe(false);
    expect(await box.inputValue()).toBe("");
  });

  it("quotes: the same box finds a quote by its client", async () => {
    const page = await phonePage();
    await page.goto(`${env.app.url}/quotes?q=initech`);
    const box = page.getByRole("searchbox", { name: "Search quotes" });
    await visible(box);
    expect(await box.inputValue()).toBe("initech");
    await until(async () => (await shown(page, "Quotes")).length === 1, { message: "Initech" });
    await box.fill("");
    await until(async () => (await shown(page, "Quotes")).length === 2, { message: "both" });
  });
});
