import { describe, expect, it } from "vitest";
import {
  linkIdOf,
  linkToken,
  PORTAL_COOKIE,
  portalCookie,
  portalCookieOf,
  secureCookies,
  tokenHash,
} from "./tokens";

const SECRET = "test-secret-0123456789abcdef0123456789abcdef";

describe("the portal's cookie and link tokens", () => {
  it("the cookie is HttpOnly, SameSite=Lax, Path=/, 7 days, and Secure when the app is on https", () => {
    const value = "a".repeat(43);
    expect(portalCookie(value, { secure: secureCookies("https://invoices.example.com") })).toBe(
      `${PORTAL_COOKIE}=${value}; Path=/; Max-Age=604800; HttpOnly; SameSite=Lax; Secure`,
    );
    expect(portalCookie(value, { secure: secureCookies("http://127.0.0.1:3000") })).toBe(
      `${PORTAL_COOKIE}=${value}; Path=/; Max-Age=604800; HttpOnly; SameSite=Lax`,
    );
    expect(portalCookie(null, { secure: true })).toBe(
      `${PORTAL_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure`,
    );
  });

  it("reads the cookie among others, and nothing that is not one of ours", () => {
    const value = "b".repeat(43);
    expect(portalCookieOf(`theme=dark; ${PORTAL_COOKIE}=${value}; x=1`)).toBe(value);
    expect(portalCookieOf(`${PORTAL_COOKIE}=short`)).toBeNull();
    expect(portalCookieOf(null)).toBeNull();
  });

  it("a link token names its link under the secret; an altered one or another secret's names none", () => {
    const id = "clx8f2k9p0000abcd1234efgh";
    const token = linkToken(SECRET, id);
    expect(linkIdOf(SECRET, token)).toBe(id);
    expect(linkIdOf(`${SECRET}x`, token)).toBeNull();
    const altered = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    expect(linkIdOf(SECRET, altered)).toBeNull();
    expect(tokenHash(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenHash(token)).not.toContain(token);
  });
});
