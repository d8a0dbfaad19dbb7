import { Keypair } from "@stellar/stellar-sdk";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSep7PayUri } from "@/lib/stellar/sep7";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, TEST_CRON_SECRET } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import {
  Asset,
  build,
  type Chain,
  chainEnv,
  funded,
  holder,
  MAINNET,
  Memo,
  Operation,
  pay,
  send,
  TESTNET,
  TransactionBuilder,
  trust,
} from "./helpers/stellar";

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

async function freelancer(chain: Chain = testnet, usdc = false): Promise<Freelancer> {
  const kp = await funded(chain);
  if (usdc) await trust(chain, kp, chain.usdc);
  const { token } = await signIn(app.url, kp);
  return { kp, api: client(app.url, token) };
}

async function sentInvoice(f: Freelancer, over: Record<string, unknown> = {}) {
  const created = await f.api.post("/api/invoices", invoiceBody(over));
  expect(created.status).toBe(201);
  const sent = await f.api.post(`/api/invoices/${created.body.id}/send`);
  expect(sent.status).toBe(200);
  return created.body as { id: string; invoiceNumber: string; total: string };
}

const tick = () =>
  fetch(`${app.url}/api/cron/watcher`, {
    headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
  }).then((r) => r.json());

const statusOf = async (id: string) => (await anon.get(`/api/payments/${id}/status`)).body;

async function tally(id: string) {
  const [row] = await sql`select
    (select count(*) from payments where invoice_id = ${id})::int as payments,
    (select count(*) from invoice_audit_logs where invoice_id = ${id} and action = 'PAID')::int as paid_audits,
    (select count(*) from events where invoice_id = ${id} and type = 'invoice.paid')::int as paid_events,
    (select count(*) from events where invoice_id = ${id} and type = 'payment.confirmed')::int as confirmed_events`;
  return row;
}

describe("desktop flow", () => {
  it("pay-intent with a sender, sign, submit: PAID once; submitting again is alreadyPaid", async () => {
    const f = await freelancer();
    const payer = await funded(testnet);
    const inv = await sentInvoice(f, {
      lineItems: [{ description: "Work", quantity: "2", rate: "12.5" }],
    });
    const intent = await anon.post(`/api/payments/${inv.id}/pay-intent`, {
      senderPublicKey: payer.publicKey(),
      networkPassphrase: TESTNET,
    });
    expect(intent.status).toBe(200);
    expect(intent.body).toMatchObject({
      invoiceId: inv.id,
      amount: "25",
      asset: { code: "XLM", issuer: null },
      memo: inv.invoiceNumber,
      networkPassphrase: TESTNET,
      timeout: 300,
      status: "PROCESSING",
    });
    const tx = TransactionBuilder.fromXDR(intent.body.transactionXdr, TESTNET);
    tx.sign(payer);
    const submitted = await anon.post("/api/payments/submit", {
      invoiceId: inv.id,
      signedTransactionXdr: tx.toXDR(),
    });
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({
      success: true,
      transactionHash: tx.hash().toString("hex"),
      ledger: expect.any(Number),
    });
    const status = await statusOf(inv.id);
    expect(status).toEqual({
      invoiceId: inv.id,
      status: "PAID",
      transactionHash: tx.hash().toString("hex"),
      ledgerNumber: submitted.body.ledger,
      paidAt: expect.any(String),
      payerWallet: payer.publicKey(),
      updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      // What was paid and is due, and every payment received (docs/decisions.md).
      amountPaid: "25.0000000",
      amountDue: "0.0000000",
      // Priced in the asset itself: no fiat price, no quote (docs/decisions.md, Fiat pricing).
      priceCurrency: null,
      quote: null,
      payments: [
        expect.objectContaining({
          transactionHash: tx.hash().toString("hex"),
          amount: "25.0000000",
          applied: true,
          fromWallet: payer.publicKey(),
        }),
      ],
    });
    const again = await anon.post("/api/payments/submit", {
      invoiceId: inv.id,
      signedXdr: tx.toXDR(),
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ success: true, alreadyPaid: true });
    expect(await tally(inv.id)).toEqual({
      payments: 1,
      paid_audits: 1,
      paid_events: 1,
      confirmed_events: 1,
    });
    const owner = await f.api.get(`/api/invoices/${inv.id}/owner`);
    expect(owner.body).toMatchObject({
      status: "PAID",
      clientWallet: payer.publicKey(),
      payerWallet: payer.publicKey(),
    });
    expect(owner.body.payments[0]).toMatchObject({
      amount: "25.0000000",
      asset: "XLM",
      status: "CONFIRMED",
    });
    expect(owner.body.auditLogs.map((a: any) => a.action)).toEqual([
      "CREATED",
      "SENT",
      "UPDATED",
      "PAID",
    ]);
  });

  it("Idempotency-Key replays the first submit response", async () => {
    const f = await freelancer();
    const payer = await funded(testnet);
    const inv = await sentInvoice(f);
    const tx = await pay(
      testnet,
      payer,
      f.kp.publicKey(),
      Asset.native(),
      "1001",
      Memo.text(inv.invoiceNumber),
    );
    const call = () =>
      fetch(`${app.url}/api/payments/submit`, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": `k-${inv.id}` },
        body: JSON.stringify({ invoiceId: inv.id, signedTransactionXdr: tx.toXDR() }),
      });
    const first = await call();
    const firstBody = await first.json();
    expect(first.status).toBe(200);
    expect(firstBody.alreadyPaid).toBeUndefined();
    const second = await call();
    expect(second.status).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(await second.json()).toEqual(firstBody);
    const other = await fetch(`${app.url}/api/payments/submit`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": `k-${inv.id}` },
      body: JSON.stringify({ invoiceId: inv.id, signedXdr: "AAAA" }),
    });
    expect(other.status).toBe(400);
  });
});

describe("mobile flow", () => {
  it("pay-intent without sender gives a SEP-7 URI; paying it is found by the watcher", async () => {
    const f = await freelancer(testnet, true);
    const payer = await holder(testnet, testnet.usdc, "500");
    const inv = await sentInvoice(f, {
      currency: "USDC",
      lineItems: [{ description: "Logo", quantity: "1", rate: "99.5" }],
      taxRate: "10",
    });
    await tick(); // the watcher is already following the network
    const intent = await anon.post(`/api/payments/${inv.id}/pay-intent`, {
      networkPassphrase: TESTNET,
    });
    expect(intent.status).toBe(200);
    expect(intent.body.transactionXdr).toBeNull();
    const params = parseSep7PayUri(intent.body.sep7Uri);
    expect(params).toEqual({
      destination: f.kp.publicKey(),
      amount: "109.45",
      asset_code: "USDC",
      asset_issuer: testnet.usdc.getIssuer(),
      memo: inv.invoiceNumber,
      memo_type: "MEMO_TEXT",
      network_passphrase: TESTNET,
    });
    // A wallet pays exactly what the URI asks for.
    const tx = await pay(
      testnet,
      payer,
      params.destination,
      new Asset(params.asset_code, params.asset_issuer),
      params.amount,
      Memo.text(params.memo),
      { passphrase: params.network_passphrase },
    );
    const hash = await send(testnet, tx);
    expect((await statusOf(inv.id)).status).toBe("PROCESSING");
    await tick();
    expect(await statusOf(inv.id)).toMatchObject({
      status: "PAID",
      transactionHash: hash,
      payerWallet: payer.publicKey(),
    });
    expect(await tally(inv.id)).toEqual({
      payments: 1,
      paid_audits: 1,
      paid_events: 1,
      confirmed_events: 1,
    });
  });
});

describe("payments that must not pay the invoice", () => {
  let f: Freelancer;
  let payer: Keypair;
  beforeAll(async () => {
    f = await freelancer(testnet, true);
    payer = await holder(testnet, testnet.usdc, "5000");
  });

  /** `recorded`: rows the transaction leaves (an underpayment or a wrong asset is recorded). */
  async function expectRejected(invoiceId: string, hash: string, message: string, recorded = 0) {
    const res = await anon.post("/api/payments/confirm", { invoiceId, transactionHash: hash });
    expect(res.status, message).toBe(400);
    expect(res.body.error).toBe(message);
    await tick();
    const status = await statusOf(invoiceId);
    expect(status.status).toBe("PENDING");
    expect(status.transactionHash).toBeNull();
    expect((await tally(invoiceId)).payments).toBe(recorded);
  }

  it("wrong memo, memo id, memo hash", async () => {
    const inv = await sentInvoice(f);
    const wrong = await send(
      testnet,
      await pay(testnet, payer, f.kp.publicKey(), Asset.native(), "1100", Memo.text("INV-9999999")),
    );
    await expectRejected(inv.id, wrong, "Transaction does not match invoice");
    const id = await send(
      testnet,
      await pay(testnet, payer, f.kp.publicKey(), Asset.native(), "1100", Memo.id("42")),
    );
    await expectRejected(inv.id, id, "Transaction does not match invoice");
    const hashMemo = await send(
      testnet,
      await pay(
        testnet,
        payer,
        f.kp.publicKey(),
        Asset.native(),
        "1100",
        Memo.hash(Buffer.alloc(32, 1).toString("hex")),
      ),
    );
    await expectRejected(inv.id, hashMemo, "Transaction does not match invoice");
  });

  it("wrong destination", async () => {
    const inv = await sentInvoice(f);
    const other = await funded(testnet);
    const hash = await send(
      testnet,
      await pay(
        testnet,
        payer,
        other.publicKey(),
        Asset.native(),
        "1100",
        Memo.text(inv.invoiceNumber),
      ),
    );
    await expectRejected(inv.id, hash, "Transaction does not match invoice");
  });

  it("USDC from an issuer that is not the official one", async () => {
    const inv = await sentInvoice(f, { currency: "USDC" });
    const fakeIssuer = await funded(testnet);
    const fakeUsdc = new Asset("USDC", fakeIssuer.publicKey());
    await trust(testnet, f.kp, fakeUsdc);
    const tx = await pay(
      testnet,
      fakeIssuer,
      f.kp.publicKey(),
      fakeUsdc,
      "5000",
      Memo.text(inv.invoiceNumber),
    );
    // Recorded unapplied (wrong_asset), never applied: tests/partial-payments.test.ts.
    await expectRejected(inv.id, await send(testnet, tx), "Transaction does not match invoice", 1);
  });

  it("underpayment names both amounts", async () => {
    const inv = await sentInvoice(f, { currency: "USDC" }); // total 1001
    const tx = await pay(
      testnet,
      payer,
      f.kp.publicKey(),
      testnet.usdc,
      "1000.9999999",
      Memo.text(inv.invoiceNumber),
    );
    await expectRejected(
      inv.id,
      await send(testnet, tx),
      "Underpayment: paid 1000.9999999, expected 1001",
      1, // recorded as a partial payment
    );
  });

  it("a transaction made before the invoice existed", async () => {
    const number = `INV-EARLY-${Date.now()}`;
    const early = await funded(testnet);
    const tx = await pay(
      testnet,
      early,
      f.kp.publicKey(),
      Asset.native(),
      "1100",
      Memo.text(number),
    );
    const hash = await send(testnet, tx);
    const inv = await sentInvoice(f, { invoiceNumber: number });
    // Ledger close times only move forward: place the invoice five minutes after the payment.
    await sql`update invoices set created_at = created_at + interval '5 minutes' where id = ${inv.id}`;
    await expectRejected(inv.id, hash, "Transaction does not match invoice");
  });

  it("a hash that already paid another invoice", async () => {
    const first = await sentInvoice(f);
    const tx = await pay(
      testnet,
      payer,
      f.kp.publicKey(),
      Asset.native(),
      "1001",
      Memo.text(first.invoiceNumber),
    );
    const hash = await send(testnet, tx);
    const ok = await anon.post("/api/payments/confirm", {
      invoiceId: first.id,
      transactionHash: hash,
    });
    expect(ok.body.status).toBe("confirmed");
    const second = await sentInvoice(f);
    await expectRejected(second.id, hash, "Transaction does not match invoice");
  });

  it("a failed transaction", async () => {
    const inv = await sentInvoice(f);
    const poor = await funded(testnet);
    // Two operations: the first would pay the invoice, the second fails, so the whole transaction fails.
    const tx = await build(
      testnet,
      poor,
      [
        Operation.payment({ destination: f.kp.publicKey(), asset: Asset.native(), amount: "1001" }),
        Operation.payment({ destination: f.kp.publicKey(), asset: Asset.native(), amount: "9500" }),
      ],
      { memo: Memo.text(inv.invoiceNumber) },
    );
    const hash = await send(testnet, tx);
    const onChain = await fetch(`${testnet.ledger.url}/transactions/${hash}`).then((r) => r.json());
    expect(onChain.successful).toBe(false);
    await expectRejected(inv.id, hash, "Transaction was not successful");
  });
});

describe("payments that must pay the invoice", () => {
  let f: Freelancer;
  beforeAll(async () => {
    f = await freelancer(testnet, true);
  });

  it("an overpayment", async () => {
    const inv = await sentInvoice(f);
    const payer = await funded(testnet);
    const hash = await send(
      testnet,
      await pay(
        testnet,
        payer,
        f.kp.publicKey(),
        Asset.native(),
        "1500",
        Memo.text(inv.invoiceNumber),
      ),
    );
    const res = await anon.post("/api/payments/confirm", {
      invoiceId: inv.id,
      transactionHash: hash,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "confirmed", transactionHash: hash });
    const owner = await f.api.get(`/api/invoices/${inv.id}/owner`);
    expect(owner.body.payments[0].amount).toBe("1500.0000000");
    const again = await anon.post("/api/payments/confirm", {
      invoiceId: inv.id,
      transactionHash: hash,
    });
    expect(again.body).toMatchObject({ status: "already_paid", transactionHash: hash });
  });

  it("a path payment delivering the invoice asset", async () => {
    const inv = await sentInvoice(f, {
      currency: "USDC",
      lineItems: [{ description: "a", quantity: "1", rate: "50" }],
    });
    const payer = await funded(testnet);
    const tx = await build(
      testnet,
      payer,
      [
        Operation.pathPaymentStrictSend({
          sendAsset: Asset.native(),
          sendAmount: "600",
          destination: f.kp.publicKey(),
          destAsset: testnet.usdc,
          destMin: "50",
          path: [],
        }),
      ],
      { memo: Memo.text(inv.invoiceNumber) },
    );
    const submitted = await anon.post("/api/payments/submit", {
      invoiceId: inv.id,
      signedTransactionXdr: tx.toXDR(),
    });
    expect(submitted.status).toBe(200);
    expect(submitted.body.success).toBe(true);
    const owner = await f.api.get(`/api/invoices/${inv.id}/owner`);
    expect(owner.body.status).toBe("PAID");
    expect(owner.body.payments[0].amount).toBe("60.0000000");
  });

  it("a fee-bumped payment", async () => {
    const inv = await sentInvoice(f);
    const payer = await funded(testnet);
    const sponsor = await funded(testnet);
    const inner = await pay(
      testnet,
      payer,
      f.kp.publicKey(),
      Asset.native(),
      "1001",
      Memo.text(inv.invoiceNumber),
    );
    const bump = TransactionBuilder.buildFeeBumpTransaction(sponsor, "200", inner, TESTNET);
    bump.sign(sponsor);
    const res = await anon.post("/api/payments/submit", {
      invoiceId: inv.id,
      signedTransactionXdr: bump.toXDR(),
    });
    expect(res.status).toBe(200);
    expect(res.body.transactionHash).toBe(bump.hash().toString("hex"));
    expect((await statusOf(inv.id)).status).toBe("PAID");
  });
});

describe("the watcher", () => {
  it("finds the invoice's payment among 250 to the same freelancer between two ticks", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, {
      lineItems: [{ description: "a", quantity: "1", rate: "3" }],
    });
    await tick();
    const payers = await Promise.all(Array.from({ length: 5 }, () => funded(testnet)));
    let hash = "";
    for (let i = 0; i < 250; i++) {
      const payer = payers[i % 5];
      const memo = i === 173 ? Memo.text(inv.invoiceNumber) : Memo.text(`INV-NOISE-${i}`);
      const h = await send(
        testnet,
        await pay(testnet, payer, f.kp.publicKey(), Asset.native(), "3", memo),
      );
      if (i === 173) hash = h;
    }
    const result = await tick();
    const tn = result.results.find((r: any) => r.network === "testnet");
    expect(tn.records).toBeGreaterThanOrEqual(250);
    expect(tn.matched).toBe(1);
    expect(await statusOf(inv.id)).toMatchObject({ status: "PAID", transactionHash: hash });
  });

  it("20 concurrent confirm + submit + watcher record the payment exactly once", async () => {
    const f = await freelancer();
    const payer = await funded(testnet);
    const inv = await sentInvoice(f);
    await tick();
    const tx = await pay(
      testnet,
      payer,
      f.kp.publicKey(),
      Asset.native(),
      "1001",
      Memo.text(inv.invoiceNumber),
    );
    const hash = await send(testnet, tx);
    const calls = Array.from({ length: 20 }, (_, i) => {
      if (i % 3 === 0)
        return anon.post("/api/payments/confirm", { invoiceId: inv.id, transactionHash: hash });
      if (i % 3 === 1)
        return anon.post("/api/payments/submit", {
          invoiceId: inv.id,
          signedTransactionXdr: tx.toXDR(),
        });
      return tick().then((body) => ({ status: 200, body }));
    });
    const results = await Promise.all(calls);
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(await tally(inv.id)).toEqual({
      payments: 1,
      paid_audits: 1,
      paid_events: 1,
      confirmed_events: 1,
    });
    expect((await statusOf(inv.id)).transactionHash).toBe(hash);
  });

  it("its first pass starts before the oldest payable invoice: a payment made before it ever ran is recorded once", async () => {
    const f = await freelancer();
    const payer = await funded(testnet);
    const inv = await sentInvoice(f);
    const hash = await send(
      testnet,
      await pay(
        testnet,
        payer,
        f.kp.publicKey(),
        Asset.native(),
        inv.total,
        Memo.text(inv.invoiceNumber),
      ),
    );
    // A later ledger: the tip is past the payment's.
    const other = await funded(testnet);
    await send(
      testnet,
      await pay(testnet, payer, other.publicKey(), Asset.native(), "1", Memo.none()),
    );
    // The watcher has never run on this network: its cursor is not placed yet. The first pass
    // places it before the oldest payable invoice (not at the tip, past the payment).
    await sql`update watcher_cursors set cursor = '' where network = 'testnet' and source = 'horizon'`;
    await tick();
    await tick();
    expect(await statusOf(inv.id)).toMatchObject({ status: "PAID", transactionHash: hash });
    expect(await tally(inv.id)).toEqual({
      payments: 1,
      paid_audits: 1,
      paid_events: 1,
      confirmed_events: 1,
    });
  });

  it("does not run for a network without any invoice", async () => {
    const result = await tick();
    const mn = result.results.find((r: any) => r.network === "mainnet");
    expect(mn.skipped).toBe("idle");
    expect(mn.horizonRequests).toBe(1);
  });
});

describe("ledger failures through submit", () => {
  async function processing(f: Freelancer, over: Record<string, unknown> = {}) {
    const inv = await sentInvoice(f, over);
    await anon.post(`/api/payments/${inv.id}/pay-intent`, { networkPassphrase: TESTNET });
    return inv;
  }

  async function expectLedgerError(
    invoiceId: string,
    xdr: string,
    message: string,
    movesToFailed = true,
  ) {
    const res = await anon.post("/api/payments/submit", { invoiceId, signedTransactionXdr: xdr });
    expect(res.status, message).toBe(400);
    expect(res.body.error).toBe(message);
    const status = (await statusOf(invoiceId)).status;
    expect(status).toBe(movesToFailed ? "FAILED" : "PROCESSING");
    if (movesToFailed) {
      const [audit] =
        await sql`select changes from invoice_audit_logs where invoice_id = ${invoiceId} and action = 'FAILED'`;
      expect(audit.changes.status).toEqual({ from: "PROCESSING", to: "FAILED" });
    }
  }

  it("op_underfunded, tx_insufficient_fee, tx_bad_seq, tx_too_late, tx_bad_auth", async () => {
    const f = await freelancer();
    const cases: [string, (memo: Memo) => Promise<string>][] = [
      [
        "Insufficient balance. Make sure the wallet has enough XLM for amount, reserve, and fees.",
        async (memo) => {
          const poor = await funded(testnet);
          await send(
            testnet,
            await pay(
              testnet,
              poor,
              f.kp.publicKey(),
              Asset.native(),
              "9990",
              Memo.text("INV-DRAIN"),
            ),
          );
          return (await pay(testnet, poor, f.kp.publicKey(), Asset.native(), "1001", memo)).toXDR();
        },
      ],
      [
        "Transaction fee was too low. Please try again.",
        async (memo) =>
          (
            await pay(
              testnet,
              await funded(testnet),
              f.kp.publicKey(),
              Asset.native(),
              "1001",
              memo,
              { fee: "50" },
            )
          ).toXDR(),
      ],
      [
        "Transaction sequence error. Please try again.",
        async (memo) => {
          const payer = await funded(testnet);
          return (
            await build(
              testnet,
              payer,
              [
                Operation.payment({
                  destination: f.kp.publicKey(),
                  asset: Asset.native(),
                  amount: "1001",
                }),
              ],
              { memo, sequenceOffset: 3 },
            )
          ).toXDR();
        },
      ],
      [
        "The transaction timed out. Please create a new payment and try again.",
        async (memo) => {
          const payer = await funded(testnet);
          const account = await testnet.server.loadAccount(payer.publicKey());
          const now = Math.floor(Date.now() / 1000);
          const tx = new TransactionBuilder(account, {
            fee: "100",
            networkPassphrase: TESTNET,
            timebounds: { minTime: 0, maxTime: now - 10 },
          })
            .addOperation(
              Operation.payment({
                destination: f.kp.publicKey(),
                asset: Asset.native(),
                amount: "1001",
              }),
            )
            .addMemo(memo)
            .build();
          tx.sign(payer);
          return tx.toXDR();
        },
      ],
      [
        "Transaction authorization failed. Please reconnect your wallet and sign again.",
        async (memo) => {
          const payer = await funded(testnet);
          const tx = await pay(testnet, payer, f.kp.publicKey(), Asset.native(), "1001", memo);
          tx.signatures.splice(0);
          tx.sign(Keypair.random());
          return tx.toXDR();
        },
      ],
    ];
    for (const [message, make] of cases) {
      const inv = await processing(f);
      await expectLedgerError(inv.id, await make(Memo.text(inv.invoiceNumber)), message);
    }
  });

  it("op_no_trust, op_src_no_trust, op_line_full, op_no_destination, op_no_issuer", async () => {
    // The freelancer lacks a USDC trustline: it had one when the invoice was sent (send checks
    // it, docs/decisions.md, Recipient readiness) and removed it since.
    const noTrust = await freelancer(testnet, true);
    const usdcPayer = await holder(testnet, testnet.usdc, "5000");
    const inv1 = await sentInvoice(noTrust, { currency: "USDC" });
    await trust(testnet, noTrust.kp, testnet.usdc, "0");
    const refusedIntent = await anon.post(`/api/payments/${inv1.id}/pay-intent`, {
      networkPassphrase: TESTNET,
    });
    // Issue 16 changed this answer: pay-intent speaks of the recipient, not the payer (it
    // answered the ledger's op_no_trust message before). Submit still answers the ledger's.
    expect(refusedIntent.body.error).toBe(
      "The recipient wallet cannot receive this asset yet. Ask the sender of this invoice to add a trustline.",
    );
    await sql`update invoices set status = 'PROCESSING' where id = ${inv1.id}`;
    await expectLedgerError(
      inv1.id,
      (
        await pay(
          testnet,
          usdcPayer,
          noTrust.kp.publicKey(),
          testnet.usdc,
          "1001",
          Memo.text(inv1.invoiceNumber),
        )
      ).toXDR(),
      "Your wallet does not have a trustline for this asset. Please add a trustline in your wallet.",
    );
    // The payer lacks one.
    const f = await freelancer(testnet, true);
    const inv2 = await processing(f, { currency: "USDC" });
    await expectLedgerError(
      inv2.id,
      (
        await pay(
          testnet,
          await funded(testnet),
          f.kp.publicKey(),
          testnet.usdc,
          "1001",
          Memo.text(inv2.invoiceNumber),
        )
      ).toXDR(),
      "Sender wallet does not trust this asset. Add a trustline and try again.",
    );
    // The freelancer's trustline limit is too small (lowered after the invoice was sent).
    const capped = await freelancer(testnet, true);
    const inv3 = await processing(capped, { currency: "USDC" });
    await trust(testnet, capped.kp, testnet.usdc, "10");
    await expectLedgerError(
      inv3.id,
      (
        await pay(
          testnet,
          usdcPayer,
          capped.kp.publicKey(),
          testnet.usdc,
          "1001",
          Memo.text(inv3.invoiceNumber),
        )
      ).toXDR(),
      "The recipient wallet cannot receive more of this asset (limit reached).",
    );
    // The freelancer's account does not exist on this network.
    const ghost = Keypair.random();
    const ghostApi = client(app.url, (await signIn(app.url, ghost)).token);
    // Sent while Horizon did not answer: send's readiness check is then unknown and does not
    // block (docs/decisions.md, Recipient readiness).
    testnet.ledger.setFailure({ status: 503, paths: /^\/accounts\// });
    const inv4 = await sentInvoice({ kp: ghost, api: ghostApi }).finally(() =>
      testnet.ledger.setFailure(null),
    );
    const intent = await anon.post(`/api/payments/${inv4.id}/pay-intent`, {
      networkPassphrase: TESTNET,
    });
    expect(intent.status).toBe(400);
    expect(intent.body.error).toBe(
      "Recipient wallet is not activated on this network. It must be funded first.",
    );
    await sql`update invoices set status = 'PROCESSING' where id = ${inv4.id}`;
    await expectLedgerError(
      inv4.id,
      (
        await pay(
          testnet,
          await funded(testnet),
          ghost.publicKey(),
          Asset.native(),
          "1001",
          Memo.text(inv4.invoiceNumber),
        )
      ).toXDR(),
      "Recipient wallet is not activated on this network. It must be funded first.",
    );
    // An issuer the network does not know (the invoice asset's issuer has no account).
    const missingIssuer = Keypair.random().publicKey();
    const phantom = new Asset("USDC", missingIssuer);
    await sql`update invoices set status = 'PROCESSING' where id = ${inv2.id}`;
    const tx = await pay(
      testnet,
      usdcPayer,
      f.kp.publicKey(),
      phantom,
      "1001",
      Memo.text(inv2.invoiceNumber),
    );
    // This transaction pays in a USDC the invoice does not accept, so submit refuses it first.
    const refused = await anon.post("/api/payments/submit", {
      invoiceId: inv2.id,
      signedTransactionXdr: tx.toXDR(),
    });
    expect(refused.body.error).toBe("Transaction does not match invoice");
    const onLedger = await testnet.server.submitTransaction(tx).catch((e) => e.response?.data);
    expect(onLedger.extras.result_codes.operations).toEqual(["op_no_issuer"]);
  });

  it("a transaction signed for the public network is a network mismatch, and nothing is sent", async () => {
    const f = await freelancer();
    const inv = await processing(f);
    const payer = await funded(testnet);
    const tx = await pay(
      testnet,
      payer,
      f.kp.publicKey(),
      Asset.native(),
      "1001",
      Memo.text(inv.invoiceNumber),
      { passphrase: MAINNET },
    );
    const res = await anon.post("/api/payments/submit", {
      invoiceId: inv.id,
      signedTransactionXdr: tx.toXDR(),
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(
      "Network mismatch: Transaction signed for 'Public Global Stellar Network ; September 2015' but invoice requires 'Test SDF Network ; September 2015'",
    );
    expect((await statusOf(inv.id)).status).toBe("PROCESSING");
  });

  it("Horizon 429, 503 and a 504 on submit", async () => {
    const f = await freelancer();
    const payer = await funded(testnet);
    const inv = await sentInvoice(f);
    testnet.ledger.setFailure({ status: 429 });
    const busy = await anon.post(`/api/payments/${inv.id}/pay-intent`, {
      networkPassphrase: TESTNET,
      senderPublicKey: payer.publicKey(),
    });
    expect(busy.status).toBe(429);
    expect(busy.body.error).toBe("Network is busy. Please wait a moment and try again.");
    testnet.ledger.setFailure({ status: 503 });
    const down = await anon.post(`/api/payments/${inv.id}/pay-intent`, {
      networkPassphrase: TESTNET,
      senderPublicKey: payer.publicKey(),
    });
    expect(down.status).toBe(503);
    expect(down.body.error).toBe(
      "Stellar network is temporarily unavailable. Please try again later.",
    );
    testnet.ledger.setFailure(null);
    const tx = await pay(
      testnet,
      payer,
      f.kp.publicKey(),
      Asset.native(),
      "1001",
      Memo.text(inv.invoiceNumber),
    );
    testnet.ledger.setFailure({
      status: 504,
      applyAnyway: true,
      paths: /^\/transactions$/,
    } as never);
    const res = await anon.post("/api/payments/submit", {
      invoiceId: inv.id,
      signedTransactionXdr: tx.toXDR(),
    });
    testnet.ledger.setFailure(null);
    expect(res.status).toBe(200);
    expect(res.body.transactionHash).toBe(tx.hash().toString("hex"));
    expect((await statusOf(inv.id)).status).toBe("PAID");
  });
});

describe("pay-intent rules", () => {
  it("answers the spec's messages", async () => {
    const f = await freelancer();
    const draft = await f.api.post("/api/invoices", invoiceBody());
    const notSent = await anon.post(`/api/payments/${draft.body.id}/pay-intent`, {
      networkPassphrase: TESTNET,
    });
    expect(notSent.status).toBe(400);
    expect(notSent.body.error).toBe("Invoice cannot be paid. Current status: DRAFT");
    const inv = await sentInvoice(f);
    const own = await anon.post(`/api/payments/${inv.id}/pay-intent`, {
      networkPassphrase: TESTNET,
      senderPublicKey: f.kp.publicKey(),
    });
    expect(own.body.error).toBe("Cannot pay your own invoice");
    const wrongNet = await anon.post(`/api/payments/${inv.id}/pay-intent`, {
      networkPassphrase: MAINNET,
    });
    expect(wrongNet.body.error).toBe("Selected wallet network does not match");
    const badNet = await anon.post(`/api/payments/${inv.id}/pay-intent`, {
      networkPassphrase: "nope",
    });
    expect(badNet.body.error).toBe("Invalid network passphrase");
    const missing = await anon.post("/api/payments/zzzzzzzzzzzzzzzzzzzzzzzz/pay-intent", {
      networkPassphrase: TESTNET,
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe("Invoice not found");
    const cancelled = await sentInvoice(f);
    await f.api.post(`/api/invoices/${cancelled.id}/cancel`, {});
    const c = await anon.post(`/api/payments/${cancelled.id}/pay-intent`, {
      networkPassphrase: TESTNET,
    });
    expect(c.body.error).toBe("Invoice cannot be paid. Current status: CANCELLED");
    const poor = await funded(testnet);
    await send(
      testnet,
      await pay(testnet, poor, f.kp.publicKey(), Asset.native(), "9990", Memo.text("INV-X")),
    );
    const under = await anon.post(`/api/payments/${inv.id}/pay-intent`, {
      networkPassphrase: TESTNET,
      senderPublicKey: poor.publicKey(),
    });
    expect(under.body.error).toBe(
      "Insufficient balance. Make sure the wallet has enough XLM for amount, reserve, and fees.",
    );
    const confirmMissing = await anon.post("/api/payments/confirm", {
      invoiceId: inv.id,
      transactionHash: "a".repeat(64),
    });
    expect(confirmMissing.status).toBe(404);
    expect(confirmMissing.body.error).toBe("Transaction not found on network");
  });
});

describe("verify-tx", () => {
  it("lists every payment operation, path payments and create_account included", async () => {
    const payer = await funded(testnet);
    const dest = await funded(testnet);
    await trust(testnet, dest, testnet.usdc);
    const fresh = Keypair.random();
    const tx = await build(
      testnet,
      payer,
      [
        Operation.payment({ destination: dest.publicKey(), asset: Asset.native(), amount: "1.5" }),
        Operation.pathPaymentStrictReceive({
          sendAsset: Asset.native(),
          sendMax: "100",
          destination: dest.publicKey(),
          destAsset: testnet.usdc,
          destAmount: "2",
          path: [],
        }),
        Operation.createAccount({ destination: fresh.publicKey(), startingBalance: "5" }),
      ],
      { memo: Memo.text("hello") },
    );
    const hash = await send(testnet, tx);
    const res = await anon.post("/api/payments/verify-tx", { transactionHash: hash });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      successful: true,
      hash,
      ledger: expect.any(Number),
      networkPassphrase: TESTNET,
    });
    expect(res.body.payments).toEqual([
      {
        type: "payment",
        from: payer.publicKey(),
        to: dest.publicKey(),
        amount: "1.5000000",
        assetCode: "XLM",
      },
      {
        type: "path_payment_strict_receive",
        from: payer.publicKey(),
        to: dest.publicKey(),
        amount: "2.0000000",
        assetCode: "USDC",
        assetIssuer: testnet.usdc.getIssuer(),
      },
      {
        type: "create_account",
        from: payer.publicKey(),
        to: fresh.publicKey(),
        amount: "5.0000000",
        assetCode: "XLM",
      },
    ]);
    const missing = await anon.post("/api/payments/verify-tx", { transactionHash: "b".repeat(64) });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe("Transaction not found");
    const noHash = await anon.post("/api/payments/verify-tx", {});
    expect(noHash.status).toBe(400);
    expect(noHash.body.error).toBe("transactionHash required");
  });
});

describe("watcher crash safety", () => {
  it("a tick that dies between reading and recording loses nothing and counts nothing twice", async () => {
    const { openDatabase } = await import("@/db/client");
    const { parseConfig } = await import("@/lib/config");
    const { watcherTick } = await import("@/lib/jobs/watcher");
    const { logger } = await import("@/lib/logger");
    const handle = await openDatabase({
      databaseUrl: db.url,
      dataDir: "/nonexistent",
      migrate: false,
    });
    const ctx = {
      db: handle.db,
      config: parseConfig({
        JWT_SECRET: "s".repeat(40),
        DATABASE_URL: db.url,
        ...chainEnv(testnet, mainnet),
      }),
      now: () => new Date(),
      logger,
    };
    try {
      const f = await freelancer();
      const inv = await sentInvoice(f);
      await watcherTick(ctx, "testnet");
      const payer = await funded(testnet);
      const hash = await send(
        testnet,
        await pay(
          testnet,
          payer,
          f.kp.publicKey(),
          Asset.native(),
          "1001",
          Memo.text(inv.invoiceNumber),
        ),
      );
      // This in-process tick reads Horizon (its own cursor row, whatever the server reads).
      const [before] =
        await sql`select cursor from watcher_cursors where network = 'testnet' and source = 'horizon'`;
      let sawIt = false;
      await expect(
        watcherTick(ctx, "testnet", {
          afterRead: async (records) => {
            sawIt = records.some((r) => r.transaction_hash === hash);
            throw new Error("killed");
          },
        }),
      ).rejects.toThrow("killed");
      expect(sawIt).toBe(true);
      const [after] =
        await sql`select cursor from watcher_cursors where network = 'testnet' and source = 'horizon'`;
      expect(after.cursor).toBe(before.cursor);
      expect((await statusOf(inv.id)).status).toBe("PENDING");

      const restarted = await watcherTick(ctx, "testnet");
      expect(restarted.matched).toBe(1);
      expect(await statusOf(inv.id)).toMatchObject({ status: "PAID", transactionHash: hash });
      // Replaying the same page from the old cursor (a crash after commit) changes nothing.
      await sql`update watcher_cursors set cursor = ${before.cursor} where network = 'testnet' and source = 'horizon'`;
      const replay = await watcherTick(ctx, "testnet");
      expect(replay.matched).toBe(0);
      expect(await tally(inv.id)).toEqual({
        payments: 1,
        paid_audits: 1,
        paid_events: 1,
        confirmed_events: 1,
      });
    } finally {
      await handle.close();
    }
  });
});
