import path from "node:path";
import { describe, expect, it } from "vitest";
import { offlineDataDir, offlineExplorers } from "@/scripts/offline-env";

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
});
