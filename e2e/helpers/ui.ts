import type { BrowserContext, Locator, Page } from "playwright-core";
import { until, visible } from "./browser";

const SESSION_KEY = "stellar-invoicing.session";

export type StoredSession = { token: string; wallet: string; expiresAt: string };

/**
 * Signs the context in as the app stores a session (the sign-in itself is
 * e2e/freelancer.test.ts's): every page it opens starts with `who`'s session for an hour.
 */
export async function storeSession(
  context: BrowserContext,
  who: { token: string; wallet: string },
): Promise<void> {
  const session = JSON.stringify({
    token: who.token,
    wallet: who.wallet,
    expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  } satisfies StoredSession);
  await context.addInitScript(
    ([key, value]) => {
      // (Not in documents without storage: about:blank, a downloaded file.)
      try {
        localStorage.setItem(key, value);
      } catch {}
    },
    [SESSION_KEY, session] as const,
  );
}

/**
 * Signs in through the app's own sign-in panel with the Freighter stand-in installed in the
 * page's context (Freighter picked in the wallet picker): connect, sign the server's login message, exchange it for a session.
 * Returns the session the app stored. Fails at once (not after a timeout) when the page
 * crashes or shows an error.
 */
export function signInWithFreighter(
  page: Page,
  baseUrl: string,
  path = "/dashboard",
): Promise<StoredSession> {
  return signInWith("Freighter", page, baseUrl, path);
}

/** The same with the wallet named `wallet` in the sign-in picker ("Connect <wallet>"). */
export async function signInWith(
  wallet: string,
  page: Page,
  baseUrl: string,
  path = "/dashboard",
): Promise<StoredSession> {
  let crashed: (err: Error) => void = () => {};
  const crash = new Promise<never>((_, reject) => {
    crashed = reject;
  });
  crash.catch(() => {});
  const onError = (e: Error) =>
    crashed(new Error(`the page crashed while signing in: ${e.message}`));
  page.on("pageerror", onError);
  try {
    await page.goto(baseUrl + path);
    await (await visible(page.getByRole("button", { name: `Connect ${wallet}` }))).click();
    const signOut = page.getByRole("button", { name: "Sign out" });
    // (Next.js adds an empty role=alert route announcer outside <main>.)
    const alert = page.locator("main").getByRole("alert");
    await Promise.race([visible(signOut.or(alert), 20_000), crash]);
    if (await alert.isVisible()) throw new Error(`sign-in failed: ${await alert.textContent()}`);
    return await until(
      () =>
        page.evaluate((key) => {
          const raw = localStorage.getItem(key);
          return raw ? (JSON.parse(raw) as StoredSession) : null;
        }, SESSION_KEY),
      { message: "the stored session" },
    );
  } finally {
    page.off("pageerror", onError);
  }
}

/**
 * The error shown beside a form control (components/ui/field.tsx): the control is marked
 * invalid and its description (aria-describedby: its hint, then its error, both under it)
 * is returned, once it is marked.
 */
export async function fieldError(control: Locator): Promise<string> {
  await until(async () => (await control.getAttribute("aria-invalid")) === "true", {
    message: "the field to be marked invalid",
  });
  return control.evaluate((el) =>
    (el.getAttribute("aria-describedby") ?? "")
      .split(" ")
      .map((id) => document.getElementById(id)?.textContent ?? "")
      .join(" "),
  );
}

/** Counts the requests `page` makes with `method` to `path` (an API path), from now on. */
export function countRequests(page: Page, method: string, path: string): () => number {
  let n = 0;
  page.on("request", (r) => {
    if (r.method() === method && new URL(r.url()).pathname === path) n++;
  });
  return () => n;
}
