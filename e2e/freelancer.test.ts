import { Keypair } from "@stellar/stellar-sdk";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { client } from "@/tests/helpers/api";
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
import { type E2eEnv, startEnv } from "./helpers/env";
import { type FreighterStandIn, installFreighter } from "./helpers/freighter";
import { decodeQr } from "./helpers/qr";
import { countRequests, fieldError, signInWithFreighter } from "./helpers/ui";

/**
 * Journey a: the freelancer signs in with Freighter (the stand-in), saves a client, writes an
 * invoice with two line items and tax, checks the totals, sends it and copies the payment link.
 */
let env: E2eEnv;
let browser: Browser;
const contexts: GuardedContext[] = [];
const freelancer = Keypair.random();
let c: GuardedContext;
let wallet: FreighterStandIn;
let page: Page;
/** The later steps build on the earlier ones; they are skipped (not failed again) without them. */
let signedIn = false;

beforeAll(async () => {
  [env, browser] = await Promise.all([startEnv(), launchBrowser()]);
  // An activated wallet: send checks that it can receive (docs/decisions.md, Recipient readiness).
  await funded(env.testnet, freelancer);
  c = await newContext(browser);
  contexts.push(c);
  await c.context.grantPermissions(["clipboard-read", "clipboard-write"], {
    origin: env.app.url,
  });
  wallet = await installFreighter(c.context, { keypair: freelancer });
  page = await c.newPage();
});

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => saveFailureShots(task.name, contexts));
});

afterAll(async () => {
  for (const x of contexts) await x.context.close().catch(() => {});
  await browser?.close();
  await env?.stop();
});

describe("freelancer journey", () => {
  it("signs in with the real sign-in flow: the stand-in signs, the server verifies", async () => {
    const session = await signInWithFreighter(page, env.app.url, "/dashboard");
    expect(session.wallet).toBe(freelancer.publicKey());
    signedIn = true;
    expect(wallet.calls).toEqual(
      expect.arrayContaining(["REQUEST_CONNECTION_STATUS", "REQUEST_ACCESS", "SUBMIT_BLOB"]),
    );
    // The token the app received is a real session for this wallet.
    const me = await client(env.app.url, session.token).get("/api/auth/session");
    expect(me.status).toBe(200);
    expect(me.body.walletAddress).toBe(freelancer.publicKey());
    // The header shows the wallet that signed in.
    expect(await page.getByTestId("wallet").getAttribute("title")).toBe(freelancer.publicKey());
  });

  it("refuses a signature made with another key, and says so", async () => {
    const other = await newContext(browser);
    contexts.push(other);
    await installFreighter(other.context, {
      keypair: Keypair.random(),
      signingKeypair: Keypair.random(),
    });
    const p = await other.newPage();
    await p.goto(`${env.app.url}/dashboard`);
    await (await visible(p.getByRole("button", { name: "Connect Freighter" }))).click();
    const alert = await visible(p.locator("main").getByRole("alert"));
    expect(await alert.textContent()).toContain("Invalid or expired signature");
    expect(await p.getByRole("button", { name: "Sign out" }).count()).toBe(0);
    // Nothing is stuck: the button is usable again.
    expect(await p.getByRole("button", { name: "Connect Freighter" }).isEnabled()).toBe(true);
    await other.context.close();
  });

  it("saves a client on the clients page", async ({ skip }) => {
    if (!signedIn) skip("needs the sign-in step");
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Clients" })
      .click();
    await visible(page.getByRole("heading", { name: "Clients" }));
    // The API's rules, checked in the page: each error beside its field, nothing sent.
    const posts = countRequests(page, "POST", "/api/clients");
    await page.getByLabel(/^Email/).fill("ada@example");
    await page.getByRole("button", { name: "Add client" }).click();
    expect(await fieldError(page.getByLabel("Name", { exact: true }))).toContain(
      "Name is required",
    );
    expect(await fieldError(page.getByLabel(/^Email/))).toContain("Invalid email");
    expect(posts()).toBe(0);

    await page.getByLabel("Name", { exact: true }).fill("Ada Lovelace");
    // The email field's label also holds its hint ("A client is identified by email...").
    await page.getByLabel(/^Email/).fill("ada@example.com");
    await page.getByLabel("Company", { exact: true }).fill("Analytical Engines Ltd");
    await page.getByLabel("Favorite", { exact: true }).check();
    await page.getByRole("button", { name: "Add client" }).click();
    const table = page.getByRole("table", { name: /Saved clients/ });
    await visible(table.getByRole("row").filter({ hasText: "Ada Lovelace" }));
    expect(await table.textContent()).toContain("ada@example.com");
    await saveArtifact(page, "clients");
    expect(posts()).toBe(1);
  });

  it("checks a webhook endpoint's URL beside the field, in the page and on the server", async ({
    skip,
  }) => {
    if (!signedIn) skip("needs the sign-in step");
    await page.goto(`${env.app.url}/settings/webhooks`);
    const form = page.getByRole("form", { name: "Add an endpoint" });
    await visible(form);
    const posts = countRequests(page, "POST", "/api/webhooks");
    const url = form.getByLabel("Endpoint URL");
    await form.getByRole("button", { name: "Add endpoint" }).click();
    expect(await fieldError(url)).toContain("url is required");
    expect(posts()).toBe(0);
    // Where an address points is the server's check (DNS): its refusal is shown there too.
    await url.fill("http://127.0.0.1:9/hook");
    await form.getByRole("button", { name: "Add endpoint" }).click();
    await visible(form.getByRole("alert").getByText(/Webhook URL must use https/));
    expect(await fieldError(url)).not.toContain("url is required");
    expect(posts()).toBe(1);
  });

  let invoiceUrl = "";

  it("creates an invoice with two line items and tax from the saved client; the totals add up", async ({
    skip,
  }) => {
    if (!signedIn) skip("needs the sign-in step");
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Dashboard" })
      .click();
    await (await visible(page.getByRole("button", { name: "New invoice" }))).click();
    await page.waitForURL(/\/invoices\/new$/);

    const saved = page.getByLabel("Saved client");
    await until(
      async () => (await saved.isEnabled()) && (await saved.locator("option").count()) > 1,
      {
        message: "saved clients to load",
      },
    );
    await saved.selectOption({ label: "★ Ada Lovelace (ada@example.com)" });
    expect(await page.getByLabel("Client name").inputValue()).toBe("Ada Lovelace");
    expect(await page.getByLabel("Client email").inputValue()).toBe("ada@example.com");

    // Field hints sit inside their <label>, so some names carry the hint after the label text.
    await page.getByLabel(/^Title/).fill("Website redesign");
    await page.getByLabel("Currency").selectOption("XLM");
    await page.getByLabel(/^Network/).selectOption("testnet");
    await page.getByLabel("Due date").fill("2099-12-31");
    await page.getByLabel("Description, item 1").fill("Design");
    await page.getByLabel("Quantity, item 1").fill("2");
    await page.getByLabel("Rate, item 1").fill("150.5");
    await page.getByRole("button", { name: "Add line item" }).click();
    await page.getByLabel("Description, item 2").fill("Build");
    await page.getByLabel("Quantity, item 2").fill("1");
    await page.getByLabel("Rate, item 2").fill("700");
    await page.getByLabel("Tax rate (%)").fill("10");
    await page.getByLabel(/^Discount/).fill("1.1");

    const totals = page.getByRole("region", { name: "Totals" });
    // Each total is a <dt>label</dt><dd>value</dd> pair.
    const row = async (label: string) =>
      (
        await totals
          .locator("dt")
          .filter({ hasText: new RegExp(`^${label.replace(/[()%]/g, "\\$&")}$`) })
          .locator("xpath=following-sibling::dd[1]")
          .textContent()
      )?.trim();
    await until(async () => (await row("Total")) === "1,100.00 XLM", { message: "the live total" });
    expect(await row("Subtotal")).toBe("1,001.00 XLM");
    expect(await row("Tax (10%)")).toBe("100.10 XLM");
    expect(await row("Discount")).toBe("−1.10 XLM");
    await saveArtifact(page, "invoice-new");

    await page.getByRole("button", { name: "Create invoice" }).click();
    await page.waitForURL(/\/invoices\/(?!new)[^/]+$/);
    await visible(page.getByTestId("invoice-status").getByText("DRAFT"));
    invoiceUrl = page.url();
    const summary = page.getByRole("region", { name: "Summary" });
    expect(await summary.textContent()).toContain("1,100.0000000 XLM");
    expect(await summary.textContent()).toContain("Ada Lovelace");
  });

  it("sends the invoice and copies its payment link", async ({ skip }) => {
    if (!invoiceUrl) skip("needs the invoice created in the previous step");
    const id = invoiceUrl.split("/").pop();
    await page.getByRole("button", { name: "Send invoice" }).click();
    await visible(page.getByTestId("invoice-status").getByText("PENDING"));
    expect(await page.getByRole("button", { name: "Send invoice" }).count()).toBe(0);

    await page.getByRole("button", { name: "Copy payment link" }).click();
    await visible(page.getByText("Copied", { exact: true }));
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(`${env.app.url}/pay/${id}`);
    expect(await page.getByLabel("Payment page").inputValue()).toBe(copied);

    await page.getByRole("button", { name: "Show QR code" }).click();
    const qr = await visible(page.getByRole("img", { name: /QR code for the payment page/ }));
    expect(await decodeQr(qr)).toBe(copied);
    await saveArtifact(page, "invoice-sent");

    // The copied link is the client's checkout.
    await page.goto(copied);
    await visible(page.getByRole("heading", { level: 1, name: "Website redesign" }));
    const totals = page.getByRole("region", { name: "Totals" });
    expect((await totals.textContent())?.replace(/\s+/g, " ")).toContain("Total1,100.00 XLM");
    expect(await page.getByRole("region", { name: "Invoice details" }).textContent()).toContain(
      "Ada Lovelace",
    );
    expect(c.blocked).toEqual([]);
  });
  it("creates an API key on its page, uses it from a server, and revokes it", async ({ skip }) => {
    if (!signedIn) skip("needs the signed-in session of the first step");
    await page.goto(`${env.app.url}/settings/keys`);
    await visible(page.getByRole("heading", { level: 1, name: "API keys" }));
    await page.getByLabel("Name", { exact: true }).fill("Books export");
    await page.getByRole("button", { name: "Create key" }).click();
    const secret = await (await visible(page.getByTestId("api-key-secret"))).inputValue();
    expect(secret).toMatch(/^sk_test_/);

    // What a server holding only the key can do: read invoices, not create them.
    const server = client(env.app.url, secret);
    const list = await server.get("/api/invoices");
    expect(list.status).toBe(200);
    expect(list.body.invoices.length).toBeGreaterThan(0);
    const refused = await server.post("/api/invoices", { title: "x" });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe("Insufficient scope");

    await page.getByRole("button", { name: "I have saved the key" }).click();
    await page.reload();
    const card = page.getByRole("article", { name: "Key Books export" });
    await visible(card.getByText(/last used/));
    await card.getByRole("button", { name: "Revoke Books export" }).click();
    await page.getByRole("button", { name: "Revoke key" }).click();
    await visible(card.getByText(/^Revoked /));
    expect((await server.get("/api/invoices")).status).toBe(401);
    await saveArtifact(page, "api-keys");
    expect(c.blocked).toEqual([]);
  });
});
