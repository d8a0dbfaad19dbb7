import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type GuardedContext,
  launchBrowser,
  newContext,
  saveArtifact,
  saveFailureShots,
  visible,
} from "./helpers/browser";
import { apiFreelancer, type E2eEnv, type Freelancer, sentInvoice, startEnv } from "./helpers/env";
import { installFreighter } from "./helpers/freighter";
import { signInWithFreighter } from "./helpers/ui";

/**
 * Issue 28 item 12: the freelancer records a bank transfer from the invoice page ("Record
 * payment"); the form's own rules refuse a bad amount beside the field, the payment counts
 * (partly paid, then PAID), and the payments list says "Bank transfer · ref ..." where a
 * ledger payment shows its transaction (docs/decisions.md, Payments received outside Stellar).
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

describe("recording a bank transfer from the invoice page", () => {
  it("records a partial transfer, then the rest, and the invoice is PAID with the transfers listed by method", async () => {
    const invoice = await sentInvoice(freelancer, {
      clientName: "Ada Client",
      clientEmail: "ada@example.com",
      title: "Logo design",
      currency: "XLM",
      lineItems: [{ description: "Logo", quantity: "1", rate: "100" }],
    });
    const c = await newContext(browser);
    contexts.push(c);
    await installFreighter(c.context, { keypair: freelancer.keypair });
    const page = await c.newPage();
    await signInWithFreighter(page, env.app.url, `/invoices/${invoice.id}`);

    await page.getByRole("button", { name: "Record payment" }).click();
    const form = page.getByRole("form", { name: "Record payment" });
    await visible(form);
    // The schema's rule, beside the field, before anything is sent.
    await form.getByLabel("Amount (XLM)").fill("0");
    await form.getByRole("button", { name: "Save payment" }).click();
    await visible(form.getByText(/Amount must be greater than 0/));
    // The server's rule (never above the amount due), beside the field.
    await form.getByLabel("Amount (XLM)").fill("150");
    await form.getByRole("button", { name: "Save payment" }).click();
    await visible(form.getByText("must be at most 100, the amount due"));

    await form.getByLabel("Amount (XLM)").fill("40");
    await form.getByLabel("Method").selectOption("bank_transfer");
    await form.getByLabel("Reference (optional)").fill("SEPA 2026-114");
    await form.getByRole("button", { name: "Save payment" }).click();
    await visible(page.getByText("Payment of 40.00 XLM recorded."));
    const row = page.getByTestId("payment-row");
    await visible(row.getByText("Bank transfer · ref SEPA 2026-114"));
    expect(await row.getByRole("link").count()).toBe(0);
    await visible(page.getByTestId("invoice-status").getByText("PENDING"));

    await page.getByRole("button", { name: "Record payment" }).click();
    await form.getByLabel("Amount (XLM)").fill("60");
    await form.getByLabel("Method").selectOption("cash");
    await form.getByRole("button", { name: "Save payment" }).click();
    await visible(page.getByTestId("invoice-status").getByText("PAID"));
    await visible(page.getByTestId("payment-row").getByText("Cash", { exact: true }));
    expect(await page.getByTestId("payment-row").count()).toBe(2);
    // Paid: no more recording, and neither transfer offers a refund through Stellar.
    expect(await page.getByRole("button", { name: "Record payment" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Refund" }).count()).toBe(0);
    await saveArtifact(page, "invoice-paid-by-bank-transfer");

    // The client's checkout says it is paid and lists the transfers by method (no hash).
    const checkout = await c.newPage();
    await checkout.goto(`${env.app.url}/pay/${invoice.id}`);
    await visible(checkout.getByText("This invoice is paid"));
    await visible(checkout.getByText("Amount paid"));
    await visible(checkout.getByTestId("received-payment").getByText(/^Bank transfer ·/));
    expect(await checkout.getByTestId("received-payment").count()).toBe(2);

    const owner = await (
      await fetch(`${env.app.url}/api/invoices/${invoice.id}/owner`, {
        headers: { authorization: `Bearer ${freelancer.token}` },
      })
    ).json();
    expect(owner).toMatchObject({ status: "PAID", amountPaid: "100.0000000" });
    expect(c.blocked).toEqual([]);
    expect(c.errors).toEqual([]);
  });
});
