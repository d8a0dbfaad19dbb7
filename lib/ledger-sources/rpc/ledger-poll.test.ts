import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalLedger, startLedger } from "@/ledger/server";
import { logger } from "@/lib/logger";
import { rpcFor } from "./client";
import { followLedgers } from "./ledger-poll";

describe("followLedgers over Stellar RPC (the local ledger closing every second)", () => {
  let ledger: LocalLedger;
  beforeAll(async () => {
    ledger = await startLedger({
      networkPassphrase: "Test SDF Network ; September 2015",
      closeIntervalMs: 1000,
    });
  });
  afterAll(async () => {
    await ledger?.stop();
  });

  it("wakes once a ledger, in a few getLatestLedger calls a ledger", {
    timeout: 20_000,
  }, async () => {
    const rpc = rpcFor(
      { rpc: { testnet: ledger.rpcUrl, mainnet: undefined }, horizon: { timeoutMs: 5000 } },
      "testnet",
    );
    let calls = 0;
    const counted = {
      network: rpc.network,
      getLatestLedger: () => {
        calls++;
        return rpc.getLatestLedger();
      },
    };
    const wakes: { at: number; ledger: number }[] = [];
    const first = ledger.core.latest().sequence;
    const follow = followLedgers(
      counted,
      () => wakes.push({ at: Date.now(), ledger: ledger.core.latest().sequence }),
      logger,
    );
    await new Promise((r) => setTimeout(r, 8_500));
    follow.stop();
    const closed = ledger.core.latest().sequence - first;
    expect(closed).toBeGreaterThanOrEqual(7);
    // The first answer, then one wake-up per ledger.
    expect(wakes.length).toBeGreaterThanOrEqual(closed);
    expect(wakes.length).toBeLessThanOrEqual(closed + 1);
    expect(new Set(wakes.map((w) => w.ledger)).size).toBe(wakes.length);
    // 1 s ledgers sit at the estimate's floor; at 5 s ledgers it is about two (bench).
    expect(calls / closed).toBeLessThanOrEqual(5);
  });
});
