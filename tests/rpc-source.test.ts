import type { Keypair } from "@stellar/stellar-sdk";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { type LocalLedger, startLedger } from "@/ledger/server";
import { watcherTick } from "@/lib/jobs/watcher";
import { logger } from "@/lib/logger";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp, TEST_CRON_SECRET } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { testContext } from "./helpers/context";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import { createTestDatabase } from "./helpers/postgres";
import {
  Asset,
  build,
  type Chain,
  chainEnv,
  funded,
  MAINNET,
  Memo,
  Operation,
  send,
  startChain,
  TESTNET,
} from "./helpers/stellar";

// The Stellar RPC ledger source (issue 31): the watcher reading CAP-67 transfer events through
// getEvents, with real signed transactions on the local ledger, real PostgreSQL and the real
// server (LEDGER_SOURCE=rpc); the Horizon source beside it for a migration window; a cursor
// older than RPC's retention reported on /api/health and read through Horizon.

const cron = (url: string) =>
  fetch(`${url}/api/cron/watcher`, {
    headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
  }).then((r) => r.json());

async function sentInvoice(api: Api, total: string) {
  const created = await api.post(
    "/api/invoices",
    invoiceBody({ lineItems: [{ description: "Work", quantity: "1", rate: total }] }),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await api.post(`/api/invoices/${created.body.id}/send`)).status).toBe(200);
  return created.body as { id: string; invoiceNumber: string };
}

describe("LEDGER_SOURCE=rpc: the watcher on Stellar RPC", () => {
  let s: LedgerApp;
  let freelancer: Keypair;
  let api: Api;
  let payer: Keypair;

  beforeAll(async () => {
    s = await startLedgerApp({ LEDGER_SOURCE: "rpc" });
    freelancer = await funded(s.testnet);
    payer = await funded(s.testnet);
    api = client(s.app.url, (await signIn(s.app.url, freelancer)).token);
  });
  afterAll(() => stopLedgerApp(s));

  it("a classic payment is matched and recorded once; the cursor is the RPC source's own and moves on", async () => {
    const invoice = await sentInvoice(api, "30");
    await cron(s.app.url); // the first pass places the cursor
    const [first] =
      await s.sql`select source, cursor from watcher_cursors where network = 'testnet'`;
    expect(first.source).toBe("rpc");
    await send(
      s.testnet,
      await build(
        s.testnet,
        payer,
        [
          Operation.payment({
            destination: freelancer.publicKey(),
            asset: Asset.native(),
            amount: "30",
          }),
        ],
        { memo: Memo.text(invoice.invoiceNumber) },
      ),
    );
    await cron(s.app.url);
    const owner = await api.get(`/api/invoices/${invoice.id}/owner`);
    expect(owner.body.status).toBe("PAID");
    expect(owner.body.amountPaid).toBe("30.0000000");
    const rows = await s.sql`select source, cursor from watcher_cursors where network = 'testnet'`;
    expect(rows).toHaveLength(1);
    expect(rows[0].cursor).not.toBe(first.cursor);
    // Later passes read from the stored cursor: nothing is recorded again.
    await cron(s.app.url);
    await cron(s.app.url);
    const [{ n }] =
      await s.sql`select count(*)::int as n from payments where invoice_id = ${invoice.id}`;
    expect(n).toBe(1);
    const health = await fetch(`${s.app.url}/api/health`).then((r) => r.json());
    expect(health).toMatchObject({ status: "ok", watcher: "ok", watcherGaps: [] });
  });
});

describe("both sources at once on one network (a migration window)", () => {
  let testnet: Chain;
  let mainnet: Chain;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let handle: DatabaseHandle;
  let app: RunningApp;
  let sql: postgres.Sql;

  beforeAll(async () => {
    testnet = await startChain(TESTNET);
    mainnet = await startChain(MAINNET);
    db = await createTestDatabase();
    app = await startApp({ DATABASE_URL: db.url, ...chainEnv(testnet, mainnet) });
    handle = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
    sql = (await import("postgres")).default(db.url, { max: 2, onnotice: () => {} });
  });
  afterAll(async () => {
    await sql?.end();
    await handle?.close();
    await app?.stop();
    await testnet?.ledger.stop();
    await mainnet?.ledger.stop();
    await db?.drop();
  });

  const tickWith = (source: "horizon" | "rpc") =>
    watcherTick(
      {
        ...testContext(handle, db.url, () => new Date(), {
          ...chainEnv(testnet, mainnet),
          LEDGER_SOURCE: source,
        }),
        logger,
      },
      "testnet",
    );

  it("each source keeps its own cursor and every payment is recorded once", async () => {
    const freelancer = await funded(testnet);
    const payer = await funded(testnet);
    const api = client(app.url, (await signIn(app.url, freelancer)).token);
    const a = await sentInvoice(api, "10");
    const b = await sentInvoice(api, "20");
    await tickWith("horizon");
    await tickWith("rpc");
    const pay = async (number: string, amount: string) =>
      send(
        testnet,
        await build(
          testnet,
          payer,
          [
            Operation.payment({
              destination: freelancer.publicKey(),
              asset: Asset.native(),
              amount,
            }),
          ],
          { memo: Memo.text(number) },
        ),
      );
    await pay(a.invoiceNumber, "4");
    await pay(b.invoiceNumber, "20");
    // Horizon first for one, RPC first for the other, then each reads what the other did.
    const r1 = await tickWith("rpc");
    const h1 = await tickWith("horizon");
    await pay(a.invoiceNumber, "6");
    const h2 = await tickWith("horizon");
    const r2 = await tickWith("rpc");
    expect(r1.matched + h1.matched).toBe(2);
    expect(h2.matched + r2.matched).toBe(1);
    const cursors =
      await sql`select source from watcher_cursors where network = 'testnet' order by source`;
    expect(cursors.map((c) => c.source)).toEqual(["horizon", "rpc"]);
    const payments = await sql`select invoice_id, amount from payments order by amount`;
    expect(payments.map((p) => [p.invoice_id, p.amount])).toEqual([
      [a.id, "4.0000000"],
      [a.id, "6.0000000"],
      [b.id, "20.0000000"],
    ]);
    for (const id of [a.id, b.id]) {
      expect((await api.get(`/api/invoices/${id}/owner`)).body.status).toBe("PAID");
    }
  });
});

describe("a cursor older than RPC's retention", () => {
  let testnet: LocalLedger;
  let mainnet: Chain;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: postgres.Sql;
  const apps: RunningApp[] = [];

  beforeAll(async () => {
    // RPC keeps 3 ledgers; Horizon (the same local ledger) keeps them all.
    testnet = await startLedger({
      networkPassphrase: TESTNET,
      closeIntervalMs: 0,
      closeOnSubmit: true,
      rpcRetentionLedgers: 3,
    });
    mainnet = await startChain(MAINNET);
    db = await createTestDatabase();
    sql = (await import("postgres")).default(db.url, { max: 2, onnotice: () => {} });
  });
  afterAll(async () => {
    await sql?.end();
    for (const a of apps) await a.stop();
    await testnet?.stop();
    await mainnet?.ledger.stop();
    await db?.drop();
  });

  it("is reported on /api/health (network, since, ledgers), read through Horizon, then clears", async () => {
    const chain: Chain = {
      ledger: testnet,
      server: new (await import("@stellar/stellar-sdk")).Horizon.Server(testnet.url, {
        allowHttp: true,
      }),
      passphrase: TESTNET,
      usdc: new Asset("USDC", testnet.issuers.USDC.issuer),
      eurc: new Asset("EURC", testnet.issuers.EURC.issuer),
    };
    const app = await startApp({
      DATABASE_URL: db.url,
      ...chainEnv(chain, mainnet),
      LEDGER_SOURCE: "rpc",
    });
    apps.push(app);
    const freelancer = await funded(chain);
    const payer = await funded(chain);
    const api = client(app.url, (await signIn(app.url, freelancer)).token);
    const invoice = await sentInvoice(api, "15");
    await cron(app.url);
    // The cursor has read every ledger up to this one.
    const tip = testnet.core.latest().sequence;
    // The worker stops while the payment and more ledgers than RPC keeps go by.
    const paid = await send(
      chain,
      await build(
        chain,
        payer,
        [
          Operation.payment({
            destination: freelancer.publicKey(),
            asset: Asset.native(),
            amount: "15",
          }),
        ],
        { memo: Memo.text(invoice.invoiceNumber) },
      ),
    );
    for (let i = 0; i < 6; i++) await testnet.close();
    const oldest = testnet.core.latest().sequence - 2;
    // The pass that finds the gap records it and ends; the next one reads it.
    const before = Date.now();
    await cron(app.url);
    const [row] =
      await sql`select cursor, gap_from_ledger, gap_to_ledger, gap_since, gap_backfill from watcher_cursors where network = 'testnet' and source = 'rpc'`;
    expect(row.gap_from_ledger).toBe(tip + 1);
    expect(row.gap_to_ledger).toBe(oldest - 1);
    expect(new Date(row.gap_since).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(row.cursor).toBe(String(oldest));
    const health = await fetch(`${app.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      status: "degraded",
      database: "reachable",
      watcher: "degraded",
      watcherGaps: [
        {
          network: "testnet",
          source: "rpc",
          fromLedger: tip + 1,
          toLedger: oldest - 1,
          backfill: "horizon",
        },
      ],
    });
    // The next pass reads the gap through Horizon: the payment in it is recorded, the gap
    // leaves /api/health, and RPC goes on from where it was.
    await cron(app.url);
    const owner = await api.get(`/api/invoices/${invoice.id}/owner`);
    expect(owner.body.status).toBe("PAID");
    expect(owner.body.payments.map((p: { transactionHash: string }) => p.transactionHash)).toEqual([
      paid,
    ]);
    const after = await fetch(`${app.url}/api/health`).then((r) => r.json());
    expect(after).toMatchObject({ status: "ok", watcher: "ok", watcherGaps: [] });
  });

  it("with RPC_GAP_BACKFILL=off the gap is skipped and stays reported", async () => {
    const app = await startApp({
      DATABASE_URL: db.url,
      ...chainEnv(
        {
          ledger: testnet,
          server: new (await import("@stellar/stellar-sdk")).Horizon.Server(testnet.url, {
            allowHttp: true,
          }),
          passphrase: TESTNET,
          usdc: new Asset("USDC", testnet.issuers.USDC.issuer),
          eurc: new Asset("EURC", testnet.issuers.EURC.issuer),
        },
        mainnet,
      ),
      LEDGER_SOURCE: "rpc",
      RPC_GAP_BACKFILL: "off",
    });
    apps.push(app);
    await cron(app.url);
    const tip = testnet.core.latest().sequence;
    for (let i = 0; i < 6; i++) await testnet.close();
    const oldest = testnet.core.latest().sequence - 2;
    await cron(app.url);
    await cron(app.url);
    const health = await fetch(`${app.url}/api/health`).then((r) => r.json());
    expect(health.watcher).toBe("degraded");
    expect(health.watcherGaps).toEqual([
      expect.objectContaining({
        network: "testnet",
        source: "rpc",
        fromLedger: tip + 1,
        toLedger: oldest - 1,
        backfill: "skipped",
      }),
    ]);
  });
});
