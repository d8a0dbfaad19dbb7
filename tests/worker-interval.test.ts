import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { type LocalLedger, startLedger } from "@/ledger/server";
import { type CountingProxy, startProxy } from "./helpers/counting-proxy";
import { createTestDatabase } from "./helpers/postgres";
import { MAINNET, TESTNET } from "./helpers/stellar";
import { kill, startWorkerProcess } from "./helpers/worker";

// A network with nothing payable costs one Horizon request per watcher pass (the tip of
// /ledgers), so the requests count the passes. Horizon answers 600 ms late here.
let ledgers: LocalLedger[] = [];
let proxies: CountingProxy[] = [];
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let worker: ReturnType<typeof startWorkerProcess> | undefined;

beforeAll(async () => {
  ledgers = [
    await startLedger({ networkPassphrase: TESTNET, closeIntervalMs: 0 }),
    await startLedger({ networkPassphrase: MAINNET, closeIntervalMs: 0 }),
  ];
  proxies = [await startProxy(ledgers[0].url, 600), await startProxy(ledgers[1].url, 600)];
  db = await createTestDatabase();
  const handle = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
  await handle.close();
});

afterAll(async () => {
  if (worker) await kill(worker);
  await Promise.all([...proxies, ...ledgers].map((s) => s.stop()));
  await db?.drop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the watcher's polling interval", () => {
  it("starts a pass every WATCHER_INTERVAL_MS however long Horizon takes to answer (not the interval after the pass)", async () => {
    worker = startWorkerProcess({
      DATABASE_URL: db.url,
      HORIZON_TESTNET_URL: proxies[0].url,
      HORIZON_MAINNET_URL: proxies[1].url,
      WATCHER_INTERVAL_MS: "1000",
      WATCHER_STREAM: "off",
    });
    const testnet = proxies[0];
    const deadline = Date.now() + 30_000;
    while (testnet.total() < 2 && Date.now() < deadline) await sleep(50);
    testnet.reset();
    await sleep(6000);
    // Every 1 s: 6 passes (one may straddle an edge). Waiting 1 s after each 0.6 s pass
    // would make 3 or 4, and a watcher polling as often as ledgers close would fall behind.
    expect(testnet.total(), worker.output()).toBeGreaterThanOrEqual(5);
    expect(testnet.total()).toBeLessThanOrEqual(7);
  });
});
