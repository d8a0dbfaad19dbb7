import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { offeredWallets, WALLETS } from "./catalog";
import { demoLedgerUrl, isLoopbackUrl, walletOptions } from "./options";

const LOCAL = { HORIZON_TESTNET_URL: "http://127.0.0.1:8001", JWT_SECRET: "x".repeat(32) };
const ids = (env: Record<string, string>, network: "testnet" | "mainnet" | "any") =>
  offeredWallets(walletOptions(parseConfig(env)), network).map((w) => w.id);

describe("wallet options (docs/decisions.md, Wallets)", () => {
  it("offers the demo wallet only with DEMO_WALLET on AND a loopback Horizon", () => {
    expect(ids({ ...LOCAL, DEMO_WALLET: "on" }, "testnet")).toContain("demo");
    // The default mainnet Horizon is horizon.stellar.org: never a demo wallet there.
    expect(ids({ ...LOCAL, DEMO_WALLET: "on" }, "mainnet")).not.toContain("demo");
    expect(ids({ ...LOCAL, DEMO_WALLET: "on" }, "any")).toContain("demo");
    expect(ids(LOCAL, "testnet")).not.toContain("demo");
    const remote = { JWT_SECRET: "x".repeat(32), DEMO_WALLET: "on" };
    expect(ids(remote, "any")).not.toContain("demo");
    expect(
      ids({ ...remote, HORIZON_TESTNET_URL: "https://127.0.0.1.example.com" }, "any"),
    ).not.toContain("demo");
    expect(walletOptions(parseConfig({ ...LOCAL, DEMO_WALLET: "on" })).demoLedgers).toEqual({
      testnet: "/demo-ledger/testnet",
    });
    const config = parseConfig({ ...LOCAL, DEMO_WALLET: "on" });
    expect(demoLedgerUrl(config, "testnet")).toBe("http://127.0.0.1:8001");
    expect(demoLedgerUrl(config, "mainnet")).toBeNull();
    expect(demoLedgerUrl(config, "constructor")).toBeNull();
    expect(demoLedgerUrl(parseConfig(LOCAL), "testnet")).toBeNull();
  });

  it("recognises loopback hosts only", () => {
    for (const url of ["http://127.0.0.1:8001", "http://localhost:8000", "http://[::1]:8001"]) {
      expect(isLoopbackUrl(url)).toBe(true);
    }
    for (const url of ["https://horizon-testnet.stellar.org", "http://10.0.0.1", "nonsense"]) {
      expect(isLoopbackUrl(url)).toBe(false);
    }
  });

  it("shows WalletConnect only with a project id", () => {
    expect(ids(LOCAL, "testnet")).not.toContain("wallet_connect");
    expect(ids({ ...LOCAL, WALLETCONNECT_PROJECT_ID: "abc123" }, "testnet")).toContain(
      "wallet_connect",
    );
  });

  it("lists the kit's six wallets, and which can sign in", () => {
    expect(ids(LOCAL, "testnet")).toEqual([
      "freighter",
      "xbull",
      "lobstr",
      "hana",
      "albedo",
      "rabet",
    ]);
    expect(WALLETS.filter((w) => !w.signsMessages).map((w) => w.name)).toEqual([
      "Albedo",
      "Rabet",
      "Demo smart wallet (local ledger only)",
    ]);
  });

  it("offers the demo smart wallet for paying where the demo wallet is, right after it, never for sign-in", () => {
    const offline = { ...LOCAL, DEMO_WALLET: "on" };
    expect(ids(offline, "testnet").slice(0, 2)).toEqual(["demo", "demo_smart"]);
    expect(ids(offline, "any")).not.toContain("demo_smart");
    expect(ids(offline, "mainnet")).not.toContain("demo_smart");
    expect(ids(LOCAL, "testnet")).not.toContain("demo_smart");
    expect(WALLETS.filter((w) => w.smart).map((w) => w.id)).toEqual(["demo_smart"]);
  });

  it("offline, lists the demo wallet first; for sign-in, the wallets that cannot sign in last (issue 28, item 20)", () => {
    const offline = { ...LOCAL, DEMO_WALLET: "on", WALLETCONNECT_PROJECT_ID: "abc123" };
    expect(ids(offline, "any")).toEqual([
      "demo",
      "freighter",
      "xbull",
      "lobstr",
      "hana",
      "wallet_connect",
      "albedo",
      "rabet",
    ]);
    expect(ids(offline, "testnet")[0]).toBe("demo");
    // Without a local ledger, the catalog's order.
    expect(ids(LOCAL, "testnet")[0]).toBe("freighter");
  });
});
