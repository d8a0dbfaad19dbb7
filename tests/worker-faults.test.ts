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
import { kill, startWorkerProcess } from "./helpers/worker";

let testnet: Chain;
let mainnet: Chain;
let app: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let env: Record<string, string>;

beforeAll(async () => {
  testnet = await startChain(TESTNET);
  mainnet = await startChain(MAINNET);
  db = await createTestDatabase();
  env = { DATABASE_URL: db.url, ...chainEnv(testnet, mainnet) };
  app = await startApp({
    ...env,
    RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
    RATE_LIMIT_INVOICES_PER_HOUR: "100000",
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

async function openInvoices(n: number) {
  const freelancer = await funded(testnet);
  const api = client(app.url, (await signIn(app.url, freelancer)).token);
  const list = [];
  for (let i = 0; i < n; i++) {
    const inv = (
      await api.post(
        "/api/invoices",
        invoiceBody({ lineItems: [{ description: "x", quantity: "1", rate: "2" }] }),
      )
    ).body;
    await api.post(`/api/invoices/${inv.id}/send`);
    list.push(inv as { id: string; invoiceNumber: string });
  }
  return { freelancer, list };
}

async function waitUntil(fn: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await fn()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

async function tallies(ids: string[]) {
  return sql`select i.id, i.status,
      (select count(*) from payments p where p.invoice_id = i.id)::int as payments,
      (select count(*) from invoice_audit_logs a where a.invoice_id = i.id and a.action = 'PAID')::int as audits,
      (select count(*) from events e where e.invoice_id = i.id and e.type = 'invoice.paid')::int as paid_events,
      (select count(*) from events e where e.invoice_id = i.id and e.type = 'payment.confirmed')::int as confirmed_events
    from invoices i where i.id in ${sql(ids)}`;
}

describe("workers under faults", () => {
  it("two workers killed with SIGKILL again and again while payments arrive: no loss, no double", async () => {
    const { freelancer, list } = await openInvoices(24);
    const payer = await funded(testnet);
    const workers = [startWorkerProcess(env), startWorkerProcess(env)];
    let paying = true;
    const killer = (async () => {
      while (paying) {
        await new Promise((r) => setTimeout(r, 150 + Math.random() * 250));
        const victim = Math.floor(Math.random() * 2);
        await kill(workers[victim]);
        workers[victim] = startWorkerProcess(env);
      }
    })();
    for (const inv of list) {
      await send(
        testnet,
        await pay(
          testnet,
          payer,
          freelancer.publicKey(),
          Asset.native(),
          "2",
          Memo.text(inv.invoiceNumber),
        ),
      );
      await new Promise((r) => setTimeout(r, 60));
    }
    paying = false;
    await killer;
    const ids = list.map((i) => i.id);
    const done = await waitUntil(
      async () => (await tallies(ids)).every((r) => r.status === "PAID"),
      40_000,
    );
    if (!done) {
      console.log(JSON.stringify(await tallies(ids)));
      console.log(workers.map((w) => w.output()).join("\n----\n"));
      console.log(JSON.stringify(await sql`select * from watcher_cursors`));
    }
    await Promise.all(workers.map((w) => kill(w, "SIGTERM")));
    expect(done).toBe(true);
    for (const row of await tallies(ids)) {
      expect(row).toMatchObject({
        status: "PAID",
        payments: 1,
        audits: 1,
        paid_events: 1,
        confirmed_events: 1,
      });
    }
  });

  it("backs off while Horizon answers 503 or hangs, then catches up", async () => {
    const { freelancer, list } = await openInvoices(2);
    const payer = await funded(testnet);
    const worker = startWorkerProcess({ ...env, HORIZON_TIMEOUT_MS: "1000" });
    try {
      // Let the worker reach its steady state, then break the reads it makes.
      await waitUntil(
        async () =>
          (await sql`select cursor from watcher_cursors where network = 'testnet'`)[0]?.cursor > "",
        15_000,
      );
      // Each stage waits for the worker to have met the fault (its `failed` log line), not for
      // a time: on a loaded machine a tick can take longer than any fixed pause.
      const failures = () => worker.output().match(/watcher testnet failed/g)?.length ?? 0;
      testnet.ledger.setFailure({ status: 503, paths: /^\/(payments|ledgers)/ });
      await send(
        testnet,
        await pay(
          testnet,
          payer,
          freelancer.publicKey(),
          Asset.native(),
          "2",
          Memo.text(list[0].invoiceNumber),
        ),
      );
      expect(await waitUntil(async () => failures() > 0, 60_000)).toBe(true);
      expect((await tallies([list[0].id]))[0].status).toBe("PENDING");
      const failedOn503 = failures();
      testnet.ledger.setFailure({ delayMs: 5000, paths: /^\/(payments|ledgers)/ });
      await send(
        testnet,
        await pay(
          testnet,
          payer,
          freelancer.publicKey(),
          Asset.native(),
          "2",
          Memo.text(list[1].invoiceNumber),
        ),
      );
      // A read that hangs past HORIZON_TIMEOUT_MS fails the tick too.
      expect(await waitUntil(async () => failures() > failedOn503, 60_000)).toBe(true);
      testnet.ledger.setFailure(null);
      const ids = list.map((i) => i.id);
      const caughtUp = await waitUntil(
        async () => (await tallies(ids)).every((r) => r.status === "PAID"),
        70_000,
      );
      expect(caughtUp).toBe(true);
    } finally {
      testnet.ledger.setFailure(null);
      await kill(worker, "SIGTERM");
    }
  });

  it("a worker killed with SIGKILL in the middle of a tick (cursor claimed, page being read)", async () => {
    const { freelancer, list } = await openInvoices(1);
    const payer = await funded(testnet);
    let worker = startWorkerProcess({ ...env, WATCHER_STREAM: "off" });
    try {
      await waitUntil(
        async () =>
          (await sql`select cursor from watcher_cursors where network = 'testnet'`)[0]?.cursor > "",
        15_000,
      );
      // Horizon now takes 4 s to answer the watcher's page: the next tick holds the cursor row
      // (an open transaction) while it waits, and is killed right there.
      testnet.ledger.setFailure({ delayMs: 4000, paths: /^\/payments/ });
      await send(
        testnet,
        await pay(
          testnet,
          payer,
          freelancer.publicKey(),
          Asset.native(),
          "2",
          Memo.text(list[0].invoiceNumber),
        ),
      );
      const cursorLocked = () =>
        sql
          .begin(
            async (tx) =>
              tx`select cursor from watcher_cursors where network = 'testnet' for update skip locked`,
          )
          .then((rows) => rows.length === 0);
      // Other jobs open short transactions too: wait for the tick's own (the cursor row held).
      const midTick = await waitUntil(async () => {
        const busy = await sql`select 1 from pg_stat_activity
          where datname = current_database() and state = 'idle in transaction'`;
        return busy.length > 0 && (await cursorLocked());
      }, 10_000);
      expect(midTick).toBe(true);
      const locked = await cursorLocked();
      expect(locked).toBe(true);
      await kill(worker);
      testnet.ledger.setFailure(null);
      worker = startWorkerProcess({ ...env, WATCHER_STREAM: "off" });
      const paid = await waitUntil(
        async () => (await tallies([list[0].id]))[0].status === "PAID",
        30_000,
      );
      expect(paid).toBe(true);
      expect((await tallies([list[0].id]))[0]).toMatchObject({
        payments: 1,
        audits: 1,
        paid_events: 1,
        confirmed_events: 1,
      });
    } finally {
      testnet.ledger.setFailure(null);
      await kill(worker, "SIGTERM");
    }
  });
});
