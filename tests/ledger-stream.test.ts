import { Keypair, Operation } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalLedger, startLedger } from "@/ledger/server";
import { followLedgers } from "@/lib/jobs/payment-stream";
import { logger } from "@/lib/logger";
import { horizonFor } from "@/lib/stellar/horizon";
import { type CountingProxy, startProxy } from "./helpers/counting-proxy";
import { TESTNET } from "./helpers/stellar";

// The worker's wake-up stream against the local ledger, every request counted on the way, as
// public Horizon counts them against its 3,600 an hour.
let ledger: LocalLedger;
let proxy: CountingProxy;
let wakes = 0;
let follower: { stop: () => void };
const requests = () => proxy.total();

beforeAll(async () => {
  ledger = await startLedger({ networkPassphrase: TESTNET, closeIntervalMs: 0 });
  proxy = await startProxy(ledger.url);
  const horizon = horizonFor(
    { horizon: { testnet: proxy.url, mainnet: proxy.url, timeoutMs: 5000 } },
    "testnet",
  );
  follower = followLedgers(horizon, () => wakes++, logger);
  await until(() => requests() === 1);
  await sleep(200); // the stream is open
});

afterAll(async () => {
  follower?.stop();
  await proxy?.stop();
  await ledger?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(fn: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!fn()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await sleep(10);
  }
}

/** Closes a ledger with 300 payments (create_account operations from the root account). */
function busyLedger() {
  const root = Keypair.master(TESTNET);
  for (let t = 0; t < 3; t++) {
    const ops = Array.from({ length: 100 }, () =>
      Operation.createAccount({ destination: Keypair.random().publicKey(), startingBalance: "1" }),
    );
    void ledger.core.submit(ledger.core.buildInternal(root, ops));
  }
  ledger.core.closeLedger();
}

describe("the worker's ledger stream", () => {
  it("wakes the watcher once per ledger with operations, on one connection, however many payments it holds", async () => {
    for (let k = 1; k <= 3; k++) {
      busyLedger();
      await until(() => wakes >= k);
      await sleep(300); // no further wake-up for the same ledger
      expect(wakes).toBe(k);
    }
    // A ledger without operations holds no payment: nothing to read.
    ledger.core.closeLedger();
    await sleep(300);
    expect(wakes).toBe(3);
    // 900 payments in 3 ledgers cost one request (a payment stream of 200 records a
    // connection would have reconnected 4 times and woken the watcher 900 times).
    expect(requests()).toBe(1);
  });

  it("reconnects from its last ledger after Horizon ends the stream (200 records), missing nothing", async () => {
    const before = { wakes, requests: requests() };
    // 199 more empty ledgers: the stream has delivered 200 ledgers and ends.
    for (let i = 0; i < 199; i++) ledger.core.closeLedger();
    await until(() => requests() === before.requests + 1);
    // The reconnection wakes the watcher once, in case something happened in between.
    await until(() => wakes === before.wakes + 1);
    busyLedger();
    await until(() => wakes === before.wakes + 2);
    await sleep(300);
    expect({ wakes, requests: requests() }).toEqual({
      wakes: before.wakes + 2,
      requests: before.requests + 1,
    });
  });
});
