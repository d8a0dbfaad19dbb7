import fs from "node:fs";
import path from "node:path";
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Locator,
  type Page,
} from "playwright-core";

/**
 * Debian's Chromium driven by playwright-core (no browser download, ever). The flags keep it
 * quiet on a closed network; every context refuses requests to any host but this machine.
 */
const ROOT = path.resolve(import.meta.dirname, "..", "..");
export const ARTIFACTS = path.join(ROOT, "e2e", "artifacts");
export const README_SHOTS = path.join(ROOT, "docs", "screenshots");
const ARTIFACTS_README = path.join(ROOT, "e2e", "artifacts", "readme");

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  "--disable-dev-shm-usage",
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 812 };

export type GuardedContext = {
  context: BrowserContext;
  /** Requests the guard refused (anything not to 127.0.0.1 / localhost). */
  blocked: string[];
  /** Uncaught page errors and console errors, for assertions and debugging. */
  errors: string[];
  newPage: () => Promise<Page>;
};

const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

export async function newContext(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<GuardedContext> {
  const context = await browser.newContext({
    viewport: DESKTOP,
    locale: "en-US",
    timezoneId: "UTC",
    ...options,
  });
  context.setDefaultTimeout(15_000);
  const blocked: string[] = [];
  const errors: string[] = [];
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (LOCAL_HOSTS.has(url.hostname)) return route.continue();
    blocked.push(url.href);
    return route.abort("blockedbyclient");
  });
  context.on("page", (page) => watchPage(page, errors));
  return {
    context,
    blocked,
    errors,
    newPage: async () => context.newPage(),
  };
}

function watchPage(page: Page, errors: string[]) {
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    const text = msg.text();
    // Expected failures the app turns into messages (HTTP 4xx of the API, aborted requests).
    if (/Failed to load resource|net::ERR_/.test(text)) return;
    errors.push(`console: ${text}`);
  });
}

/** A full-page PNG in e2e/artifacts/ (gitignored). */
export async function saveArtifact(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * The README screenshot: the 1280x800 viewport only, to keep the file small. Written to
 * docs/screenshots (committed) only with UPDATE_SCREENSHOTS=1, so a test run leaves the
 * working tree clean; otherwise next to the other artifacts.
 */
export async function saveReadmeShot(
  page: Page,
  name: "dashboard" | "checkout" | "dashboard-phone" | "invoices-phone",
): Promise<string> {
  const dir = process.env.UPDATE_SCREENSHOTS === "1" ? README_SHOTS : ARTIFACTS_README;
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** Waits until the locator is visible (short polling, no fixed sleeps). */
export async function visible(locator: Locator, timeout = 15_000): Promise<Locator> {
  await locator.first().waitFor({ state: "visible", timeout });
  return locator.first();
}

/** Polls `fn` until it returns a truthy value. */
export async function until<T>(
  fn: () => Promise<T> | T,
  { timeout = 15_000, interval = 100, message = "condition" } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeout;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${message}${last ? `: ${String(last)}` : ""}`);
    }
    await new Promise((r) => setTimeout(r, interval));
  }
}

/** Saves every open page of the contexts as `failed-<test>-<n>.png` (for a failing test). */
export async function saveFailureShots(testName: string, contexts: GuardedContext[]) {
  const slug = testName.replace(/[^a-z0-9]+/gi, "-").slice(0, 60);
  let n = 0;
  for (const c of contexts) {
    for (const page of c.context.pages()) {
      await saveArtifact(page, `failed-${slug}-${n++}`).catch(() => {});
    }
    if (c.errors.length) console.error(`browser errors (${slug}):\n${c.errors.join("\n")}`);
  }
}
