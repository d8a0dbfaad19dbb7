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

  it("a source that does not exist stops start-up with a message naming LEDGER_SOURCE", () => {
    expect(() => parseConfig({ ...base, LEDGER_SOURCE: "rpc" })).toThrow(ConfigError);
    expect(() => parseConfig({ ...base, LEDGER_SOURCE: "rpc" })).toThrow("LEDGER_SOURCE");
  });
});
