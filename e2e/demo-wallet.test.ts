import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { verifyWebhookSignatureV2 } from "@/lib/webhooks/sign";
import { freePort, type RunningApp, startApp } from "@/tests/helpers/app";
import {
  type GuardedContext,
  launchBrowser,
  newContext,
  saveArtifact,
  saveFailureShots,
  until,
  visible,
} from "./helpers/browser";
import { signInWith } from "./helpers/ui";

/**
 * The demo wallet (docs/decisions.md, Wallets) from a fresh `npm run dev:offline`: the real
 * script (scripts/dev-offline.ts) with a temporary data folder and free ports, serving the
 * existing build (`--no-build`). A freelancer signs in with the demo wallet, creates and sends
 * an invoice; a client in another browser context (another demo key) pays it and sees the
 * receipt; the invoice email reaches the mail catcher. And the demo wallet is never offered
 * when Horizon is not a local ledger. Every port is free-picked, and the mail catcher's default
 * ports (:2525 SMTP, :8025 its page) are held for the whole run, as another `npm run
 * dev:offline` on the same machine holds them.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const DEMO = "Demo wallet (local ledger only)";
let browser: Browser;
let offline: ChildProcess | undefined;
let url = "";
let output = "";
let dataDir = "";
let mailUrl = "";
const contexts: GuardedContext[] = [];
const held: net.Server[] = [];

/** Listens on a fixed port as another program would; already taken is as good. */
async function hold(port: number): Promise<void> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) =>
      err.code === "EADDRINUSE" ? resolve() : reject(err),
    );
    server.listen(port, "127.0.0.1", () => {
      held.push(server);
      resolve();
    });
  });
}

beforeAll(async () => {
  browser = await launchBrowser();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "demo-wallet-"));
  await Promise.all([hold(2525), hold(8025)]);
  const [port, testnetPort, publicPort, pricePort, mailPort, smtpPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  url = `http://127.0.0.1:${port}`;
  mailUrl = `http://127.0.0.1:${mailPort}`;
  offline = spawn(
    process.execPath,
    [
      path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"),
      "scripts/dev-offline.ts",
      "--no-build",
    ],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "production",
        ...(process.env.NEXT_DIST_DIR ? { NEXT_DIST_DIR: process.env.NEXT_DIST_DIR } : {}),
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: "127.0.0.1",
        APP_URL: url,
        LEDGER_TESTNET_PORT: String(testnetPort),
        LEDGER_PUBLIC_PORT: String(publicPort),
        PRICE_SOURCE_PORT: String(pricePort),
        MAIL_CATCHER_PORT: String(mailPort),
        MAIL_CATCHER_SMTP_PORT: String(smtpPort),
        LEDGER_CLOSE_INTERVAL_MS: "1000",
        WATCHER_INTERVAL_MS: "1000",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  offline.stdout?.on("data", (d) => {
    output += d;
  });
  offline.stderr?.on("data", (d) => {
    output += d;
  });
  await until(
    async () => {
      if (offline?.exitCode !== null) throw new Error(`dev:offline exited:\n${output}`);
      return (await fetch(`${url}/api/health`)).ok;
    },
    { timeout: 90_000, interval: 500, message: "npm run dev:offline to answer" },
  );
});

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => {
    console.error(output.slice(-4000));
    return saveFailureShots(task.name, contexts);
  });
});

afterAll(async () => {
  for (const c of contexts) await c.context.close().catch(() => {});
  await browser?.close();
  if (offline && offline.exitCode === null) {
    const exited = new Promise((r) => offline?.once("exit", r));
    offline.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (offline.exitCode === null) offline.kill("SIGKILL");
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  for (const server of held) await new Promise((r) => server.close(r));
});

async function context() {
  const c = await newContext(browser);
  contexts.push(c);
  return c;
}

describe("the demo wallet on a fresh npm run dev:offline", () => {
  it("signs in, bills, and pays from another browser's demo wallet, up to the receipt", async () => {
    const fc = await context();
    await fc.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: url });
    const page = await fc.newPage();
    const session = await signInWith(DEMO, page, url, "/dashboard");
    // The key lives in this browser; the local friendbot funded it.
    const secret = await page.evaluate(() => localStorage.getItem("stellar-invoicing.demo-wallet"));
    expect(secret).toMatch(/^S[A-Z2-7]{55}$/);
    expect(session.wallet).toMatch(/^G[A-Z2-7]{55}$/);

    await (await visible(page.getByRole("button", { name: "New invoice" }))).click();
    await page.waitForURL(/\/invoices\/new$/);
    await page.getByLabel("Client name").fill("Ada Client");
    await page.getByLabel("Client email").fill("ada@example.com");
    await page.getByLabel(/^Title/).fill("First offline invoice");
    await page.getByLabel("Currency").selectOption("XLM");
    await page.getByLabel(/^Network/).selectOption("testnet");
    await page.getByLabel("Due date").fill("2099-12-31");
    await page.getByLabel("Description, item 1").fill("Consulting");
    await page.getByLabel("Quantity, item 1").fill("1");
    await page.getByLabel("Rate, item 1").fill("25");
    await page.getByRole("button", { name: "Create invoice" }).click();
    await page.waitForURL(/\/invoices\/(?!new)[^/]+$/);
    await page.getByRole("button", { name: "Send invoice" }).click();
    await visible(page.getByTestId("invoice-status").getByText("PENDING"));
    const id = page.url().split("/").pop();

    // The client: another browser context, so another demo key.
    const cc = await context();
    const pay = await cc.newPage();
    await pay.goto(`${url}/pay/${id}`);
    await pay.getByRole("button", { name: `Pay with ${DEMO}` }).click();
    await visible(pay.getByRole("heading", { name: "Payment received" }), 45_000);
    const payer = await pay.evaluate(() => localStorage.getItem("stellar-invoicing.demo-wallet"));
    expect(payer).toMatch(/^S/);
    expect(payer).not.toBe(secret);
    await saveArtifact(pay, "demo-wallet-receipt");
    const status = await (await fetch(`${url}/api/payments/${id}/status`)).json();
    expect(status.status).toBe("PAID");
    // The freelancer's page shows it paid.
    await page.reload();
    await visible(page.getByTestId("invoice-status").getByText("PAID"), 20_000);
    // The invoice email went to this run's mail catcher (free ports, not :2525 / :8025).
    await until(
      async () => {
        const caught = (await (await fetch(`${mailUrl}/messages.json`)).json()) as {
          to: string[];
        }[];
        return caught.some((m) => m.to.includes("ada@example.com"));
      },
      { timeout: 30_000, interval: 500, message: "the invoice email to reach the mail catcher" },
    );
    expect(fc.blocked).toEqual([]);
    expect(cc.blocked).toEqual([]);
  });
});

describe("webhooks and attachments on npm run dev:offline (issue 28)", () => {
  it("a receiver on this machine is accepted and Send test event delivers a signed ping, shown in the log", async () => {
    // A webhook receiver on loopback, as a developer runs one offline.
    const received: { headers: http.IncomingHttpHeaders; raw: string }[] = [];
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({ headers: req.headers, raw: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/hook`;
    try {
      const c = await context();
      const page = await c.newPage();
      await signInWith(DEMO, page, url, "/settings/webhooks");
      const form = page.getByRole("form", { name: "Add an endpoint" });
      // A host without a DNS answer (every public one, offline): the refusal says so.
      await form.getByLabel("Endpoint URL").fill("https://hooks.invalid/x");
      await form.getByRole("button", { name: "Add endpoint" }).click();
      await visible(form.getByRole("alert").getByText("Webhook URL host has no DNS answer"));
      await visible(form.getByText("no DNS answer for hooks.invalid"));

      await form.getByLabel("Endpoint URL").fill(hookUrl);
      await form.getByRole("button", { name: "Add endpoint" }).click();
      const secret = await (await visible(page.getByTestId("webhook-secret"))).inputValue();
      expect(secret).toMatch(/^whsec_/);
      await page.getByRole("button", { name: `Send test event to ${hookUrl}` }).click();
      const endpoint = page.getByRole("article", { name: `Endpoint ${hookUrl}` });
      // The log opens and follows the test until the worker has delivered it.
      const row = endpoint.getByRole("row").filter({ hasText: "ping (test event)" });
      await visible(row.getByText("Delivered").first(), 30_000);
      await visible(row.getByText("HTTP 200"));
      expect(received).toHaveLength(1);
      const body = JSON.parse(received[0].raw);
      expect(body.type).toBe("ping");
      const v2 = received[0].headers["x-service-signature-v2"] as string;
      expect(verifyWebhookSignatureV2(secret, received[0].raw, v2)).toBe(true);
      await saveArtifact(page, "webhook-test-event");
      expect(c.blocked).toEqual([]);
    } finally {
      receiver.closeAllConnections();
      await new Promise((r) => receiver.close(r));
    }
  });

  it("the mail catcher shows the invoice email's PDF and downloads it", async () => {
    // The first journey sent INV-0001 to ada@example.com, with its PDF attached.
    type Listed = { id: number; to: string[]; attachments: { filename: string; url: string }[] };
    let invoiceEmail: Listed | undefined;
    await until(
      async () => {
        const caught = (await (await fetch(`${mailUrl}/messages.json`)).json()) as Listed[];
        invoiceEmail = caught.find(
          (m) => m.to.includes("ada@example.com") && m.attachments.length > 0,
        );
        return invoiceEmail !== undefined;
      },
      { timeout: 30_000, interval: 500, message: "the invoice email with its PDF" },
    );
    const c = await context();
    const page = await c.newPage();
    await page.goto(`${mailUrl}/messages/${invoiceEmail?.id}`);
    const files = page.getByRole("table").filter({ hasText: "application/pdf" });
    await visible(files.getByRole("cell", { name: /^INV-\d{4}\.pdf$/ }));
    const download = page.waitForEvent("download");
    await files.getByRole("link", { name: "Download" }).first().click();
    const file = await (await download).path();
    const bytes = fs.readFileSync(file);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const served = await fetch(`${mailUrl}${invoiceEmail?.attachments[0].url}`);
    expect(served.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  });
});

describe("never offered when Horizon is not a local ledger", () => {
  let app: RunningApp | undefined;
  afterAll(async () => app?.stop());

  it("DEMO_WALLET on, Horizon on a real host: no demo wallet in the sign-in picker", async () => {
    app = await startApp({
      DEMO_WALLET: "on",
      HORIZON_TESTNET_URL: "https://horizon-testnet.stellar.org",
      HORIZON_MAINNET_URL: "https://horizon.stellar.org",
      DATA_DIR: path.join(dataDir, "remote"),
    });
    const c = await context();
    const page = await c.newPage();
    await page.goto(`${app.url}/dashboard`);
    await visible(page.getByRole("button", { name: "Connect Freighter" }));
    expect(await page.getByRole("button", { name: /Demo wallet/ }).count()).toBe(0);
    // Nor does the app forward anything to a ledger for it.
    const forwarded = await fetch(`${app.url}/demo-ledger/testnet/friendbot?addr=G`);
    expect(forwarded.status).toBe(404);
    // The dev:offline app (loopback ledgers) offers it.
    await page.goto(`${url}/dashboard`);
    await visible(page.getByRole("button", { name: `Connect ${DEMO}` }));
  });
});
