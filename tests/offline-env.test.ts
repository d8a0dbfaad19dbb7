import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { offlineDataDir, offlineExplorers, offlineWebhookEnv } from "@/scripts/offline-env";

/** What `npm run dev:offline` hands the app (scripts/dev-offline.ts, scripts/offline-env.ts). */

const ROOT = path.resolve(import.meta.dirname, "..");

describe("npm run dev:offline environment", () => {
  it("keeps its data in ./.data-offline, apart from the online ./.data, unless DATA_DIR is set", () => {
    expect(offlineDataDir({}, ROOT)).toBe(path.join(ROOT, ".data-offline"));
    expect(offlineDataDir({ DATA_DIR: "" }, ROOT)).toBe(path.join(ROOT, ".data-offline"));
    expect(offlineDataDir({ DATA_DIR: "/srv/offline" }, ROOT)).toBe("/srv/offline");
    expect(offlineDataDir({ DATA_DIR: "./mine" }, ROOT)).toBe(path.join(ROOT, "mine"));
  });

  it("points transaction links at the local ledgers, which hold the transactions", () => {
    expect(
      offlineExplorers({ testnet: "http://127.0.0.1:8001", mainnet: "http://127.0.0.1:8002" }),
    ).toEqual({
      EXPLORER_TESTNET_URL: "http://127.0.0.1:8001/transactions/",
      EXPLORER_MAINNET_URL: "http://127.0.0.1:8002/transactions/",
    });
  });

  it("lets the production build send webhooks to loopback receivers, whatever .env says (issue 28)", () => {
    const env = {
      JWT_SECRET: "x".repeat(32),
      DATA_DIR: "/tmp/unused-offline-env-test",
      NODE_ENV: "production",
      // A .env that turned it off loses: dev:offline sets the variables itself.
      WEBHOOK_ALLOW_LOOPBACK: "false",
    };
    expect(parseConfig(env).webhooks.allowLoopback).toBe(false);
    expect(parseConfig({ ...env, ...offlineWebhookEnv() }).webhooks.allowLoopback).toBe(true);
  });
});
