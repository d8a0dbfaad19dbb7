import { afterEach, describe, expect, it, vi } from "vitest";

/** The pages' Content-Security-Policy (next.config.ts), read as a browser would get it. */
async function pagePolicy(): Promise<Record<string, string>> {
  vi.resetModules();
  const config = (await import("@/next.config")).default;
  const rules = await config.headers!();
  const value = rules[0].headers.find((h) => h.key === "Content-Security-Policy")!.value;
  return Object.fromEntries(
    value.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1).join(" ")]),
  );
}

afterEach(() => vi.unstubAllEnvs());

describe("pages' Content-Security-Policy", () => {
  it("lets pages reach only their own origin without a WalletConnect project id", async () => {
    vi.stubEnv("WALLETCONNECT_PROJECT_ID", "");
    const csp = await pagePolicy();
    expect(csp["connect-src"]).toBe("'self'");
    expect(csp["frame-src"]).toBe("'self'");
  });

  it("opens WalletConnect's relay, and only it, when a project id is configured", async () => {
    vi.stubEnv("WALLETCONNECT_PROJECT_ID", "0123456789abcdef");
    const csp = await pagePolicy();
    expect(csp["connect-src"]).toContain("wss://relay.walletconnect.org");
    expect(csp["connect-src"]).toContain("wss://relay.walletconnect.com");
    expect(csp["frame-src"]).toContain("https://verify.walletconnect.org");
    expect(csp["connect-src"]).not.toContain("*");
    expect(csp["script-src"]).not.toContain("walletconnect");
  });
});
