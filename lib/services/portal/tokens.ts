import { createHash, randomBytes } from "node:crypto";
import { signId, verifySignedId } from "@/lib/services/signed-ids";

// The client portal's secrets (docs/decisions.md, Client portal): what a sign-in link and a
// session cookie carry, and the SHA-256 the database keeps of each.

export const PORTAL_COOKIE = "portal_session";
export const LINK_TTL_MS = 30 * 60_000;
export const SESSION_TTL_SECONDS = 7 * 86_400;

const LINK_PURPOSE = "portal-link:v1";

/** What the database keeps of a token: its SHA-256 (a 256-bit secret needs no slow hash). */
export const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * A sign-in link's token: `<id>.<mac>`, the link row's random id signed under JWT_SECRET. The
 * outbox keeps only the id and the row only the hash: the email is the one place it is whole.
 */
export const linkToken = (secret: string, linkId: string) => signId(secret, LINK_PURPOSE, linkId);

/** The link id of a token we made, or null (a guessed or altered token never reaches the DB). */
export const linkIdOf = (secret: string, token: string) =>
  verifySignedId(secret, LINK_PURPOSE, token);

/** A session cookie's secret: 32 random bytes. */
export const newSessionSecret = () => randomBytes(32).toString("base64url");

/**
 * The Set-Cookie of a portal session: HttpOnly, SameSite=Lax, Path=/, 7 days, Secure when the
 * app is served over https (APP_URL). `value` null clears it.
 */
export function portalCookie(value: string | null, opts: { secure: boolean }): string {
  const parts = [
    `${PORTAL_COOKIE}=${value ?? ""}`,
    "Path=/",
    `Max-Age=${value === null ? 0 : SESSION_TTL_SECONDS}`,
    "HttpOnly",
    "SameSite=Lax",
  ];
  if (opts.secure) parts.push("Secure");
  return parts.join("; ");
}

/** The portal cookie's value in a Cookie header, if any. */
export function portalCookieOf(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === PORTAL_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
    }
  }
  return null;
}

export const secureCookies = (appUrl: string) => appUrl.startsWith("https:");
