import type { Page } from "playwright-core";
import { until, visible } from "./browser";

const SESSION_KEY = "stellar-invoicing.session";

export type StoredSession = { token: string; wallet: string; expiresAt: string };

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
