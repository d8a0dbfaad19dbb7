import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/config";
import { ledgerSourceFor } from "./index";

const base = { JWT_SECRET: "x".repeat(32), DATA_DIR: "/tmp/unused-config-test" };

describe("ledgerSourceFor (LEDGER_SOURCE)", () => {
  it("defaults to Horizon on both networks, each with its own passphrase", () => {
    const config = parseConfig(base);
    expect(config.ledgerSource).toEqual({ testnet: "horizon", mainnet: "horizon" });
    const testnet = ledgerSourceFor(config, "testnet");
    const mainnet = ledgerSourceFor(config, "mainnet");
    expect([testnet.kind, testnet.network, testnet.passphrase]).toEqual([
      "horizon",
      "testnet",
      "Test SDF Network ; September 2015",
    ]);
    expect([mainnet.kind, mainnet.network, mainnet.passphrase]).toEqual([
      "horizon",
      "mainnet",
      "Public Global Stellar Network ; September 2015",
    ]);
  });

  it("rpc on mainnet without RPC_MAINNET_URL stops start-up naming both variables", () => {
    expect(() => parseConfig({ ...base, LEDGER_SOURCE: "rpc" })).toThrow(ConfigError);
    expect(() => parseConfig({ ...base, LEDGER_SOURCE: "rpc" })).toThrow(
      /RPC_MAINNET_URL: required when LEDGER_SOURCE is rpc/,
    );
    expect(() => parseConfig({ ...base, LEDGER_SOURCE_MAINNET: "rpc" })).toThrow(
      /RPC_MAINNET_URL: required when LEDGER_SOURCE_MAINNET is rpc/,
    );
    // Testnet alone on RPC has SDF's public testnet RPC as its default.
    expect(parseConfig({ ...base, LEDGER_SOURCE_TESTNET: "rpc" }).rpc.testnet).toBe(
      "https://soroban-testnet.stellar.org",
    );
  });

  it("builds the RPC source per network when LEDGER_SOURCE=rpc", () => {
    const config = parseConfig({
      ...base,
      LEDGER_SOURCE: "rpc",
      RPC_MAINNET_URL: "http://127.0.0.1:8000/rpc",
    });
    const mainnet = ledgerSourceFor(config, "mainnet");
    expect([mainnet.kind, mainnet.network, mainnet.passphrase]).toEqual([
      "rpc",
      "mainnet",
      "Public Global Stellar Network ; September 2015",
    ]);
    expect(ledgerSourceFor(config, "testnet").kind).toBe("rpc");
  });
});
