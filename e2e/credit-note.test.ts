import fs from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { flatPdfText } from "@/tests/helpers/pdf";
import {
  type GuardedContext,
  launchBrowser,
  newContext,
  saveArtifact,
  saveFailureShots,
  visible,
} from "./helpers/browser";
import { apiFreelancer, type E2eEnv, type Freelancer, sentInvoice, startEnv } from "./helpers/env";
import { storeSession } from "./helpers/ui";

/**
 * Issue 29 item 6: the freelancer issues a partial credit note from the invoice page (one of
 * two lines, a chosen quantity, a reason), sees it listed with its number and amount, downloads
 * its PDF, and the invoice asks for less (docs/decisions.md, Credit notes). Real server, real
 * browser.
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
  onTestFailed(() => saveFailureShots(task.name, contexts));
});

afterAll(async () => {
  for (const c of contexts) await c.context.close().catch(() => {});
  await browser?.close();
  await env?.stop();
});

describe("a credit note from the invoice page", () => {
  it("issues a partial credit note, lists it with its PDF, and the amount due drops", async () => {
    const invoice = await sentInvoice(freelancer, {
      clientName: "Ada Client",
      clientEmail: "ada@example.com",
      title: "Website",
      currency: "XLM",
      lineItems: [
        { description: "Design", quantity: "3", rate: "100" },
        { description: "Hosting", quantity: "1", rate: "50" },
      ],
    });
    const c = await newContext(browser);
    contexts.push(c);
    await storeSession(c.context, freelancer);
    const page = await c.newPage();
    await page.goto(`${env.app.url}/invoices/${invoice.id}`);

    await page.getByRole("button", { name: "Issue credit note" }).click();
    const form = page.getByRole("form", { name: "Issue credit note" });
    await visible(form);
    await form.getByLabel("Chosen lines and quantities").check();
    // More than the line has: the server's refusal, beside the field.
    await form.getByLabel("Design (of 3)").fill("4");
    await form.getByLabel("Reason").fill("One design day not worked");
    await form.getByRole("button", { name: "Issue credit note" }).click();
    await visible(form.getByText(/quantity must not exceed what is left to credit on this line/));

    await form.getByLabel("Design (of 3)").fill("1");
    await form.getByRole("button", { name: "Issue credit note" }).click();
    await visible(page.getByText(/Credit note CN-\d{4} issued\./));
    const list = page.getByRole("list", { name: "Credit notes" });
    await visible(list.getByText("100.00 XLM"));
    await visible(list.getByText("One design day not worked"));
    const number = (await list.locator("li .font-medium").first().textContent())?.trim() ?? "";
    expect(number).toMatch(/^CN-\d{4}$/);
    // The invoice asks for less: 350 - 100.
    const summary = page.getByRole("region", { name: "Summary" });
    await visible(summary.getByText("Credited"));
    await visible(summary.getByText(/^250(\.0+)? XLM$/));
    await saveArtifact(page, "invoice-with-credit-note");

    // The client's checkout asks for what is left, and says why.
    const checkout = await c.newPage();
    await checkout.goto(`${env.app.url}/pay/${invoice.id}`);
    await visible(checkout.getByText(/^250(\.0+)? XLM$/).first());
    await visible(checkout.getByTestId("credited"));
    await checkout.close();

    const download = page.waitForEvent("download");
    await list.getByRole("button", { name: `PDF ${number}` }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${number}.pdf`);
    const text = await flatPdfText(new Uint8Array(fs.readFileSync(await file.path())));
    expect(text).toContain("Credit note");
    expect(text).toContain(number);
    expect(text).toContain(`Corrects invoice ${invoice.invoiceNumber}`);
    expect(text).toContain("One design day not worked");
    expect(text).toContain("Design");
    expect(c.blocked).toEqual([]);
    expect(c.errors).toEqual([]);
  });
});
