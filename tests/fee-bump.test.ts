import type { Keypair, Transaction } from "@stellar/stellar-sdk";
import { Account, MuxedAccount } from "@stellar/stellar-sdk";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, TEST_CRON_SECRET } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import { Asset, type Chain, funded, Memo, pay, send, TransactionBuilder } from "./helpers/stellar";

// One payment operation is recorded once, whatever hash of a fee-bump transaction (inner or
// outer) and whatever path (watcher, confirm, submit) reaches it (docs/decisions.md, Fee-bump
// transactions). Real fee-bump envelopes applied by the local ledger, which answers a lookup
// by either hash the way Horizon does (the inner hash comes back as `hash`).

let testnet: Chain;
let mainnet: Chain;
let app: RunningApp;
let db: LedgerApp["db"];
let sql: postgres.Sql;
let anon: Api;

beforeAll(async () => {
  ({ testnet, mainnet, app, db, sql, anon } = await startLedgerApp());
});

afterAll(() => stopLedgerApp({ sql, app, testnet, mainnet, db }));

type Freelancer = { kp: Keypair; api: Api };

async function freelancer(): Promise<Freelancer> {
  const kp = await funded(testnet);
  const { token } = await signIn(app.url, kp);
  return { kp, api: client(app.url, token) };
}

async function sentInvoice(f: Freelancer, total: string) {
  const created = await f.api.post(
    "/api/invoices",
    invoiceBody({ lineItems: [{ description: "Work", quantity: "1", rate: total }] }),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await f.api.post(`/api/invoices/${created.body.id}/send`)).status).toBe(200);
  return created.body as { id: string; invoiceNumber: string };
}

/** The payer's payment wrapped in a fee-bump paid by another account. */
async function feeBumped(
  payer: Keypair,
  sponsor: Keypair,
  f: Freelancer,
  inv: { invoiceNumber: string },
  amount: string,
) {
  const inner: Transaction = await pay(
    testnet,
    payer,
    f.kp.publicKey(),
    Asset.native(),
    amount,
    Memo.text(inv.invoiceNumber),
  );
  const outer = TransactionBuilder.buildFeeBumpTransaction(
    sponsor,
    "200",
    inner,
    testnet.passphrase,
  );
  outer.sign(sponsor);
  return {
    outer,
    outerHash: outer.hash().toString("hex"),
    innerHash: inner.hash().toString("hex"),
  };
}

const tick = () =>
  fetch(`${app.url}/api/cron/watcher`, {
    headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
  }).then((r) => r.json());

const confirm = (invoiceId: string, transactionHash: string) =>
  anon.post("/api/payments/confirm", { invoiceId, transactionHash });

const rowsOf = (id: string) =>
  sql`select transaction_hash, inner_transaction_hash, operation_id, amount::text, applied
      from payments where invoice_id = ${id}`;

describe("fee-bump transactions", () => {
  let payer: Keypair;
  let sponsor: Keypair;
  beforeAll(async () => {
    payer = await funded(testnet);
    sponsor = await funded(testnet);
  });

  it("the ledger answers a lookup by the inner hash with the inner hash, as Horizon does", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, "100");
    const bump = await feeBumped(payer, sponsor, f, inv, "1");
    await send(testnet, bump.outer);
    const byInner = await testnet.server.transactions().transaction(bump.innerHash).call();
    expect(byInner.hash).toBe(bump.innerHash);
    expect(byInner.fee_bump_transaction?.hash).toBe(bump.outerHash);
    expect(byInner.inner_transaction?.hash).toBe(bump.innerHash);
  });

  it("confirm by the outer hash, then by the inner hash: one payment of 50, the invoice not paid", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, "100");
    const bump = await feeBumped(payer, sponsor, f, inv, "50");
    await send(testnet, bump.outer);

    const first = await confirm(inv.id, bump.outerHash);
    expect(first.status).toBe(400);
    expect(first.body.error).toBe("Underpayment: paid 50, expected 100");
    const second = await confirm(inv.id, bump.innerHash);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe("Underpayment: paid 50, expected 100");

    const status = (await anon.get(`/api/payments/${inv.id}/status`)).body;
    expect(status).toMatchObject({
      status: "PENDING",
      amountPaid: "50.0000000",
      amountDue: "50.0000000",
    });
    const rows = await rowsOf(inv.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      transaction_hash: bump.outerHash,
      inner_transaction_hash: bump.innerHash,
      amount: "50.0000000",
      applied: true,
    });
    expect(rows[0].operation_id).toMatch(/^\d+$/);
    // The watcher reads the same operation and adds nothing.
    await tick();
    expect(await rowsOf(inv.id)).toHaveLength(1);
  });

  it("confirm by the inner hash first, then by the outer hash: still one payment", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, "100");
    const bump = await feeBumped(payer, sponsor, f, inv, "50");
    await send(testnet, bump.outer);
    expect((await confirm(inv.id, bump.innerHash)).body.error).toBe(
      "Underpayment: paid 50, expected 100",
    );
    expect((await confirm(inv.id, bump.outerHash)).body.error).toBe(
      "Underpayment: paid 50, expected 100",
    );
    expect(await rowsOf(inv.id)).toHaveLength(1);
    const owner = (await f.api.get(`/api/invoices/${inv.id}/owner`)).body;
    expect(owner.amountPaid).toBe("50.0000000");
    expect(owner.status).toBe("PENDING");
  });

  it("recorded by the watcher, then confirmed by the inner hash: no phantom payment to refund", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, "100");
    const bump = await feeBumped(payer, sponsor, f, inv, "100");
    await send(testnet, bump.outer);
    await tick();
    const paid = (await anon.get(`/api/payments/${inv.id}/status`)).body;
    expect(paid).toMatchObject({ status: "PAID", transactionHash: bump.outerHash });

    const again = await confirm(inv.id, bump.innerHash);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: "already_paid", transactionHash: bump.outerHash });
    const rows = await rowsOf(inv.id);
    expect(rows).toHaveLength(1);
    const owner = (await f.api.get(`/api/invoices/${inv.id}/owner`)).body;
    expect(owner.amountPaid).toBe("100.0000000");
    expect(owner.payments).toHaveLength(1);
    expect(owner.payments[0]).toMatchObject({
      transactionHash: bump.outerHash,
      innerTransactionHash: bump.innerHash,
    });
    expect(owner.payments.every((p: { applied: boolean }) => p.applied)).toBe(true);
  });

  it("submitted as a fee-bump envelope, then confirmed by the inner hash: paid once", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, "100");
    const bump = await feeBumped(payer, sponsor, f, inv, "100");
    const submitted = await anon.post("/api/payments/submit", {
      invoiceId: inv.id,
      signedTransactionXdr: bump.outer.toXDR(),
    });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.transactionHash).toBe(bump.outerHash);
    expect((await confirm(inv.id, bump.innerHash)).body.status).toBe("already_paid");
    await tick();
    expect(await rowsOf(inv.id)).toHaveLength(1);
  });

  it("verify-tx shows both hashes, whichever is asked", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, "100");
    const bump = await feeBumped(payer, sponsor, f, inv, "3");
    await send(testnet, bump.outer);
    for (const asked of [bump.innerHash, bump.outerHash]) {
      const res = await anon.post("/api/payments/verify-tx", {
        transactionHash: asked,
        network: "testnet",
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        hash: bump.outerHash,
        innerHash: bump.innerHash,
        memo: inv.invoiceNumber,
        payments: [{ amount: "3.0000000", to: f.kp.publicKey(), assetCode: "XLM" }],
      });
    }
    const plain = await send(
      testnet,
      await pay(testnet, payer, f.kp.publicKey(), Asset.native(), "1", Memo.text("x")),
    );
    const res = await anon.post("/api/payments/verify-tx", {
      transactionHash: plain,
      network: "testnet",
    });
    expect(res.body).toMatchObject({ hash: plain, innerHash: null });
  });

  it("a payment to the freelancer's muxed address (M...) with the memo is recorded once, by confirm and the watcher", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, "20");
    const muxed = new MuxedAccount(new Account(f.kp.publicKey(), "0"), "42").accountId();
    expect(muxed.startsWith("M")).toBe(true);
    const hash = await send(
      testnet,
      await pay(testnet, payer, muxed, Asset.native(), "20", Memo.text(inv.invoiceNumber)),
    );
    const [confirmed] = await Promise.all([confirm(inv.id, hash), tick()]);
    expect(confirmed.status).toBe(200);
    await tick();
    const rows = await rowsOf(inv.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ transaction_hash: hash, amount: "20.0000000", applied: true });
    const status = (await anon.get(`/api/payments/${inv.id}/status`)).body;
    expect(status).toMatchObject({ status: "PAID", transactionHash: hash });
  });
});
