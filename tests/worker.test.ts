import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { createTestDatabase } from "./helpers/postgres";
import {
  Asset,
  type Chain,
  chainEnv,
  funded,
  MAINNET,
  Memo,
  pay,
  send,
  startChain,
  TESTNET,
} from "./helpers/stellar";

// The worker inside the app process (`npm start`'s default), with polling slowed to once a
// minute: only the payment stream can make these invoices PAID quickly.
let testnet: Chain;
let mainnet: Chain;
let app: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;

beforeAll(async () => {
  testnet = await startChain(TESTNET);
  mainnet = await startChain(MAINNET);
  db = await createTestDatabase();
  app = await startApp({
    DATABASE_URL: db.url,
    RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
    WORKER: "on",
    WATCHER_INTERVAL_MS: "60000",
    WATCHER_STREAM: "on",
    ...chainEnv(testnet, mainnet),
  });
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end();
  await app?.stop();
  await testnet?.ledger.stop();
  await mainnet?.ledger.stop();
  await db?.drop();
});

async function waitForStatus(id: string, status: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${app.url}/api/payments/${id}/status`).then((r) => r.json());
    if (res.status === status || Date.now() > deadline) return res;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("the in-process worker", () => {
  it("follows the payment stream: an invoice is PAID with no call from the payer", async () => {
    const freelancer = await funded(testnet);
    const api = client(app.url, (await signIn(app.url, freelancer)).token);
    const payer = await funded(testnet);
    for (let round = 0; round < 3; round++) {
      const inv = (await api.post("/api/invoices", invoiceBody())).body;
      await api.post(`/api/invoices/${inv.id}/send`);
      // Let the worker's first (polling) pass set its cursor before paying.
      await waitForCursor();
      const hash = await send(
        testnet,
        await pay(
          testnet,
          payer,
          freelancer.publicKey(),
          Asset.native(),
          "1001",
          Memo.text(inv.invoiceNumber),
        ),
      );
      const status = await waitForStatus(inv.id, "PAID", 20_000);
      expect(status).toMatchObject({ status: "PAID", transactionHash: hash });
    }
  });
});

async function waitForCursor() {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const [row] = await sql`select cursor from watcher_cursors where network = 'testnet'`;
    if (row?.cursor) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the worker never set its testnet cursor");
}
