import type { Keypair } from "@stellar/stellar-sdk";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, TEST_CRON_SECRET } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import { Asset, build, type Chain, funded, Memo, Operation, send } from "./helpers/stellar";

// One transaction, several freelancers (docs/decisions.md, Partial payments): invoice numbers
// belong to their wallet, so two wallets may both have an INV-0001 and one transaction may pay
// both, an operation to each. A transaction's operations to one wallet belong to that wallet's
// invoice with the memo: every such invoice gets its own part, once, whichever path (watcher,
// confirm, submit) sees the transaction and however often. Real PostgreSQL, the local ledger
// and real signed transactions.

let testnet: Chain;
let mainnet: Chain;
let app: RunningApp;
let db: LedgerApp["db"];
let sql: postgres.Sql;
let anon: Api;
let payer: Keypair;

beforeAll(async () => {
  ({ testnet, mainnet, app, db, sql, anon } = await startLedgerApp());
  payer = await funded(testnet);
});

afterAll(() => stopLedgerApp({ sql, app, testnet, mainnet, db }));

type Freelancer = { kp: Keypair; api: Api };

async function freelancer(): Promise<Freelancer> {
  const kp = await funded(testnet);
  const { token } = await signIn(app.url, kp);
  return { kp, api: client(app.url, token) };
}

/** The freelancer's first invoice (INV-0001 of their wallet), sent, for `total` XLM. */
async function firstInvoice(f: Freelancer, total: string) {
  const created = await f.api.post(
    "/api/invoices",
    invoiceBody({ lineItems: [{ description: "Work", quantity: "1", rate: total }] }),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.invoiceNumber).toBe("INV-0001");
  expect((await f.api.post(`/api/invoices/${created.body.id}/send`)).status).toBe(200);
  return created.body as { id: string; invoiceNumber: string };
}

/** Two freelancers, each with an unpaid INV-0001: A's for 25 XLM, B's for 40 XLM. */
async function twoFreelancers() {
  const a = await freelancer();
  const b = await freelancer();
  return { a, b, invA: await firstInvoice(a, "25"), invB: await firstInvoice(b, "40") };
}

const payment = (to: Freelancer | Keypair, amount: string) =>
  Operation.payment({
    destination: "kp" in to ? to.kp.publicKey() : to.publicKey(),
    asset: Asset.native(),
    amount,
  });

/** One signed transaction from the payer with these operations and memo INV-0001. */
async function sharedTransaction(ops: ReturnType<typeof payment>[]) {
  return build(testnet, payer, ops, { memo: Memo.text("INV-0001") });
}

const tick = () =>
  fetch(`${app.url}/api/cron/watcher`, {
    headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
  }).then((r) => r.json());

const confirm = (invoiceId: string, transactionHash: string) =>
  anon.post("/api/payments/confirm", { invoiceId, transactionHash });

/** What the owner sees: status, amounts and the payments of their invoice. */
async function ownerView(f: Freelancer, id: string) {
  const res = await f.api.get(`/api/invoices/${id}/owner`);
  expect(res.status).toBe(200);
  return res.body;
}

/** Rows, audit entries and events of one invoice. */
async function records(id: string) {
  const [row] = await sql`select
    (select count(*) from payments where invoice_id = ${id})::int as payments,
    (select count(*) from invoice_audit_logs where invoice_id = ${id} and action = 'PAID')::int as paid_audits,
    (select count(*) from invoice_audit_logs where invoice_id = ${id} and action = 'PAYMENT_RECEIVED')::int as received_audits,
    (select count(*) from events where invoice_id = ${id} and type = 'invoice.paid')::int as paid_events,
    (select count(*) from events where invoice_id = ${id} and type = 'payment.confirmed')::int as confirmed_events`;
  return row;
}
const ONCE = {
  payments: 1,
  paid_audits: 1,
  received_audits: 0,
  paid_events: 1,
  confirmed_events: 1,
};

/** A paid in full by operation 0 (25), B by operation 1 (40): what each owner sees. */
async function expectBothPaid(
  { a, b, invA, invB }: Awaited<ReturnType<typeof twoFreelancers>>,
  hash: string,
) {
  const parts = [
    { owner: a, id: invA.id, operationIndex: 0, amount: "25.0000000" },
    { owner: b, id: invB.id, operationIndex: 1, amount: "40.0000000" },
  ];
  for (const { owner, id, operationIndex, amount } of parts) {
    const view = await ownerView(owner, id);
    expect(view).toMatchObject({
      status: "PAID",
      amountPaid: amount,
      amountDue: "0.0000000",
      amountOverpaid: "0.0000000",
      transactionHash: hash,
      payerWallet: payer.publicKey(),
    });
    expect(view.payments).toHaveLength(1);
    expect(view.payments[0]).toMatchObject({
      transactionHash: hash,
      operationIndex,
      toWallet: owner.kp.publicKey(),
      amount,
      applied: true,
    });
    expect(await records(id)).toEqual(ONCE);
  }
  // Each owner sees only their own invoice (another wallet's is 403).
  expect((await a.api.get(`/api/invoices/${invB.id}/owner`)).status).toBe(403);
}

describe("one transaction paying two freelancers' INV-0001", () => {
  it("the watcher records each wallet's part on its own invoice, once", async () => {
    const both = await twoFreelancers();
    await tick(); // the watcher follows the network from here
    const hash = await send(
      testnet,
      await sharedTransaction([payment(both.a, "25"), payment(both.b, "40")]),
    );
    await tick();
    await expectBothPaid(both, hash);
    // Again by the watcher and by confirm on either invoice: nothing more is counted.
    await tick();
    expect((await confirm(both.invA.id, hash)).body).toMatchObject({ status: "already_paid" });
    expect((await confirm(both.invB.id, hash)).body).toMatchObject({ status: "already_paid" });
    await expectBothPaid(both, hash);
  });

  it("confirm on A's invoice records B's part too; the watcher then adds nothing", async () => {
    const both = await twoFreelancers();
    const hash = await send(
      testnet,
      await sharedTransaction([payment(both.a, "25"), payment(both.b, "40")]),
    );
    const res = await confirm(both.invA.id, hash);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: "confirmed", transactionHash: hash });
    await expectBothPaid(both, hash);
    await tick();
    expect((await confirm(both.invB.id, hash)).body).toMatchObject({ status: "already_paid" });
    await expectBothPaid(both, hash);
  });

  it("submit for B's invoice records A's part too", async () => {
    const both = await twoFreelancers();
    const tx = await sharedTransaction([payment(both.a, "25"), payment(both.b, "40")]);
    const submitted = await anon.post("/api/payments/submit", {
      invoiceId: both.invB.id,
      signedTransactionXdr: tx.toXDR(),
    });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    const hash = tx.hash().toString("hex");
    expect(submitted.body).toMatchObject({ success: true, transactionHash: hash });
    await expectBothPaid(both, hash);
  });

  it("recorded by confirms on both invoices and the watcher at the same time, counts once", async () => {
    const both = await twoFreelancers();
    await tick();
    const hash = await send(
      testnet,
      await sharedTransaction([payment(both.a, "25"), payment(both.b, "40")]),
    );
    const answers = await Promise.all([
      confirm(both.invA.id, hash),
      confirm(both.invB.id, hash),
      confirm(both.invA.id, hash),
      tick(),
      tick(),
    ]);
    for (const res of answers.slice(0, 3)) {
      expect((res as Awaited<ReturnType<typeof confirm>>).status).toBe(200);
    }
    await expectBothPaid(both, hash);
  });

  it("the watcher gives each wallet its operations when the transaction straddles two pages", async () => {
    const { a, b, invA, invB } = await twoFreelancers();
    const noise = await funded(testnet);
    await tick(); // the cursor is now past every funding above
    const ones = (n: number) => Array.from({ length: n }, () => payment(noise, "1"));
    await send(testnet, await build(testnet, payer, ones(100)));
    await send(testnet, await build(testnet, payer, ones(98)));
    // Records 199 to 203 of the stream: the first page of 200 holds only A's first two
    // operations; B is reached only on the next page, A on both.
    const hash = await send(
      testnet,
      await sharedTransaction([
        payment(a, "10"),
        payment(a, "5"),
        payment(b, "20"),
        payment(b, "20"),
        payment(a, "10"),
      ]),
    );
    // The premise is Horizon's page of 200 (Stellar RPC reads every transaction whole).
    if ((process.env.LEDGER_SOURCE ?? "horizon") === "horizon") {
      const [{ cursor }] = await sql`select cursor from watcher_cursors where network = 'testnet'`;
      const page = await fetch(
        `${testnet.ledger.url}/payments?cursor=${cursor}&order=asc&limit=200&join=transactions`,
      ).then((r) => r.json());
      expect(page._embedded.records).toHaveLength(200);
      expect(page._embedded.records.filter((r: any) => r.transaction_hash === hash)).toHaveLength(
        2,
      );
    }
    await tick();
    await tick();
    const rows = await sql`select invoice_id, operation_index, amount::text from payments
      where transaction_hash = ${hash} order by operation_index`;
    expect(rows.map((r) => [r.invoice_id, r.operation_index, r.amount])).toEqual([
      [invA.id, 0, "10.0000000"],
      [invA.id, 1, "5.0000000"],
      [invB.id, 2, "20.0000000"],
      [invB.id, 3, "20.0000000"],
      [invA.id, 4, "10.0000000"],
    ]);
    expect(await ownerView(a, invA.id)).toMatchObject({ status: "PAID", amountPaid: "25.0000000" });
    expect(await ownerView(b, invB.id)).toMatchObject({ status: "PAID", amountPaid: "40.0000000" });
    for (const id of [invA.id, invB.id]) {
      expect(await records(id)).toMatchObject({ paid_audits: 1, paid_events: 1 });
    }
  });

  it("an operation to a wallet without that invoice is not ours: only A's part is recorded", async () => {
    const a = await freelancer();
    const invA = await firstInvoice(a, "25");
    const c = await freelancer(); // signed in, no invoice at all
    await tick();
    const hash = await send(testnet, await sharedTransaction([payment(a, "25"), payment(c, "30")]));
    await tick();
    const res = await confirm(invA.id, hash);
    expect(res.body).toMatchObject({ status: "already_paid" });
    const view = await ownerView(a, invA.id);
    expect(view).toMatchObject({ status: "PAID", amountPaid: "25.0000000" });
    expect(view.payments).toHaveLength(1);
    expect(view.payments[0]).toMatchObject({ operationIndex: 0, amount: "25.0000000" });
    expect(await records(invA.id)).toEqual(ONCE);
    const rows = await sql`select invoice_id, operation_index, to_wallet from payments
      where transaction_hash = ${hash} order by operation_index`;
    expect(rows).toEqual([
      { invoice_id: invA.id, operation_index: 0, to_wallet: a.kp.publicKey() },
    ]);
    expect((await c.api.get("/api/invoices")).body.total).toBe(0);
  });
});
