import { describe, expect, it, vi } from "vitest";
import { ConfigError, parseConfig } from "./config";

const base = { JWT_SECRET: "x".repeat(32), DATA_DIR: "/tmp/unused-config-test" };

describe("configuration", () => {
  it("uses the documented defaults", () => {
    const c = parseConfig(base);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.appUrl).toBe("http://localhost:3000");
    expect(c.horizon.testnet).toBe("https://horizon-testnet.stellar.org");
    expect(c.trustProxy).toBe(false);
    expect(c.rateLimitGlobalPerMinute).toBe(100);
    expect(c.rateLimits.costlyPerMinute).toBe(30);
    expect(c.front).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      connectionsPerIp: 200,
    });
  });

  it.each([
    ["DATABASE_URL", { DATABASE_URL: "mysql://x" }],
    ["APP_URL", { APP_URL: "not a url" }],
    ["HORIZON_TESTNET_URL", { HORIZON_TESTNET_URL: "ftp://x" }],
    ["JWT_SECRET", { JWT_SECRET: "short" }],
    ["TRUST_PROXY", { TRUST_PROXY: "maybe" }],
    ["PORT", { PORT: "70000" }],
    ["CRON_SECRET", { CRON_SECRET: "short" }],
    ["MAX_CONNECTIONS_PER_IP", { MAX_CONNECTIONS_PER_IP: "0" }],
    ["REQUEST_TIMEOUT_MS", { HEADERS_TIMEOUT_MS: "20000", REQUEST_TIMEOUT_MS: "10000" }],
  ])("a bad %s stops start-up with a message naming it", (name, env) => {
    expect(() => parseConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => parseConfig({ ...base, ...env })).toThrow(name);
  });

  it("APP_URL defaults to the port the server listens on (issue 27, item 15)", () => {
    const c = parseConfig({ ...base, PORT: "4123" });
    expect(c.port).toBe(4123);
    expect(c.appUrl).toBe("http://localhost:4123");
    expect(c.email.from.address).toBe("no-reply@localhost");
    // Set, it wins over the port and loses a trailing slash.
    expect(parseConfig({ ...base, PORT: "4123", APP_URL: "https://pay.example/" }).appUrl).toBe(
      "https://pay.example",
    );
  });

  it("refuses loopback webhooks in production without the second acknowledgement", () => {
    const loopback = { ...base, WEBHOOK_ALLOW_LOOPBACK: "true" };
    // Development and tests: allowed as before.
    expect(parseConfig(loopback).webhooks.allowLoopback).toBe(true);
    expect(parseConfig({ ...loopback, NODE_ENV: "test" }).webhooks.allowLoopback).toBe(true);
    // Production: only with WEBHOOK_ALLOW_LOOPBACK_IN_PRODUCTION=i-understand, exactly.
    const production = { ...loopback, NODE_ENV: "production" };
    expect(() => parseConfig(production)).toThrow(ConfigError);
    expect(() => parseConfig(production)).toThrow(
      /WEBHOOK_ALLOW_LOOPBACK:[\s\S]*WEBHOOK_ALLOW_LOOPBACK_IN_PRODUCTION=i-understand/,
    );
    expect(() =>
      parseConfig({ ...production, WEBHOOK_ALLOW_LOOPBACK_IN_PRODUCTION: "true" }),
    ).toThrow("WEBHOOK_ALLOW_LOOPBACK_IN_PRODUCTION");
    const acknowledged = parseConfig({
      ...production,
      WEBHOOK_ALLOW_LOOPBACK_IN_PRODUCTION: "i-understand",
    });
    expect(acknowledged.webhooks.allowLoopback).toBe(true);
    // Without loopback, production needs nothing more.
    expect(parseConfig({ ...base, NODE_ENV: "production" }).webhooks.allowLoopback).toBe(false);
  });

  it("requires JWT_SECRET when a shared database is configured", () => {
    expect(() => parseConfig({ DATABASE_URL: "postgres://localhost/x" })).toThrow("JWT_SECRET");
  });

  it("requires both Upstash variables together", () => {
    expect(() => parseConfig({ ...base, UPSTASH_REDIS_REST_URL: "https://x.upstash.io" })).toThrow(
      "UPSTASH_REDIS_REST_TOKEN",
    );
  });
});

// docs/decisions.md, Cold start: server.ts, the start-up hook and each route bundle hold their
// own copy of this module; the environment is parsed once per process, by the first to ask.
describe("getConfig is parsed once per process, whichever copy of the module asks", () => {
  it("a second copy of lib/config.ts returns the first one's configuration without parsing again", async () => {
    const saved = { ...process.env };
    try {
      Object.assign(process.env, base, { SERVICE_NAME: "First parse" });
      vi.resetModules();
      const first = (await import("./config")).getConfig();
      process.env.SERVICE_NAME = "Changed after the first parse";
      vi.resetModules();
      const second = await import("./config");
      expect(second.getConfig()).toBe(first);
      expect(second.getConfig().serviceName).toBe("First parse");
    } finally {
      process.env = saved;
      delete (globalThis as Record<symbol, unknown>)[Symbol.for("stellar-invoicing.config")];
    }
  });
});
