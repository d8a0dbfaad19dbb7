import { MuxedAccount as SdkMuxedAccount } from "@stellar/stellar-sdk";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toStroops } from "@/lib/domain/money";
import { parseSep7PayUri } from "@/lib/stellar/sep7";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp, TEST_CRON_SECRET } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import {
  Asset,
  build,
  type Chain,
  chainEnv,
  funded,
  type Keypair,
  Memo,
  Operation,
  send,
  TESTNET,
  TransactionBuilder,
} from "./helpers/stellar";

// Per-invoice muxed addresses (docs/decisions.md, Muxed addresses): every invoice has an M...
// address (the freelancer's wallet + the invoice's 64-bit id); a payment to it pays the
// invoice with or without a memo, through the watcher, confirm and submit; a memo naming
// another invoice is recorded unapplied where the money went; a payer who sent from a muxed
// account is refunded at that M address. Real PostgreSQL, the local ledger (which answers
// Horizon's to_muxed/to_muxed_id and from_muxed) and real signed transactions.

let testnet: Chain;
let mainnet: Chain;
let app: RunningApp;
/** The same database and ledgers, served with MUXED_DESTINATIONS=on. */
let muxedApp: RunningApp;
let db: LedgerApp["db"];
let prices: LedgerApp["prices"];
let sql: postgres.Sql;
let anon: Api;

beforeAll(async () => {
  ({ testnet, mainnet, app, db, sql, anon, prices } = await startLedgerApp());
  muxedApp = await startApp({
    DATABASE_URL: db.url,
    RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
    RATE_LIMIT_PAY_INTENT_PER_5_MINUTES: "100000",
    ...chainEnv(testnet, mainnet),
    ...prices.env,
    MUXED_DESTINATIONS: "on",
  });
});

afterAll(async () => {
  await muxedApp?.stop();
  await stopLedgerApp({ sql, app, testnet, mainnet, db, prices });
});

type Freelancer = { kp: Keypair; api: Api };
type Invoice = { id: string; invoiceNumber: string; muxedAddress: string };

async function freelancer(): Promise<Freelancer> {
  const kp = await funded(testnet);
  const { token } = await signIn(app.url, kp);
  return { kp, api: client(app.url, token) };
}

async function sentInvoice(f: Freelancer, total = "25"): Promise<Invoice> {
  const created = await f.api.post(
    "/api/invoices",
    invoiceBody({ lineItems: [{ description: "Work", quantity: "1", rate: total }] }),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await f.api.post(`/api/invoices/${created.body.id}/send`)).status).toBe(200);
  return created.body as Invoice;
}

const tick = () =>
  fetch(`${app.url}/api/cron/watcher`, {
    headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
  }).then((r) => r.json());

const statusOf = async (id: string) => (await anon.get(`/api/payments/${id}/status`)).body;

const rowsOf = (id: string) =>
  sql`select amount::text, applied, unapplied_reason, from_wallet, from_address
      from payments where invoice_id = ${id} order by ledger_number, operation_index`;

/** Pays `amount` XLM to `destination` (a G or M address) with `memo`; the hash. */
async function payTo(
  payer: Keypair,
  destination: string,
  amount: string,
  memo: Memo = Memo.none(),
) {
  const tx = await build(
    testnet,
    payer,
    [Operation.payment({ destination, asset: Asset.native(), amount })],
    { memo },
  );
  return send(testnet, tx);
}

describe("each invoice's muxed address", () => {
  it("is shown on the invoice and the payer's view: the freelancer's wallet with the stored 64-bit id", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f);
    const [{ muxed_id }] = await sql`select muxed_id::text from invoices where id = ${inv.id}`;
    const m = SdkMuxedAccount.fromAddress(inv.muxedAddress, "0");
    expect(m.baseAccount().accountId()).toBe(f.kp.publicKey());
    expect(m.id()).toBe(muxed_id);
    expect(BigInt(muxed_id)).toBeGreaterThan(0n);
    expect(BigInt(muxed_id)).toBeLessThan(2n ** 63n);
    expect((await f.api.get(`/api/invoices/${inv.id}/owner`)).body.muxedAddress).toBe(
      inv.muxedAddress,
    );
    expect((await anon.get(`/api/invoices/${inv.id}`)).body.muxedAddress).toBe(inv.muxedAddress);
    // Another invoice of the same wallet has another id.
    const second = await sentInvoice(f);
    expect(second.muxedAddress).not.toBe(inv.muxedAddress);
  });
});

describe("pay-intent", () => {
  it("by default asks for the freelancer's G address (the spec's intent), and shows the muxed one", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f);
    const payer = await funded(testnet);
    const intent = await anon.post(`/api/payments/${inv.id}/pay-intent`, {
      senderPublicKey: payer.publicKey(),
      networkPassphrase: TESTNET,
    });
    expect(intent.status, JSON.stringify(intent.body)).toBe(200);
    expect(intent.body).toMatchObject({
      destination: f.kp.publicKey(),
      muxedAddress: inv.muxedAddress,
      memo: inv.invoiceNumber,
    });
    expect(parseSep7PayUri(intent.body.sep7Uri).destination).toBe(f.kp.publicKey());
    const tx = TransactionBuilder.fromXDR(intent.body.transactionXdr, TESTNET);
    expect("operations" in tx && tx.operations[0]).toMatchObject({
      type: "payment",
      destination: f.kp.publicKey(),
    });
  });

  it("with MUXED_DESTINATIONS=on asks for the invoice's M address, memo kept; submitted, it pays the invoice", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f);
    const payer = await funded(testnet);
    const muxedAnon = client(muxedApp.url);
    const intent = await muxedAnon.post(`/api/payments/${inv.id}/pay-intent`, {
      senderPublicKey: payer.publicKey(),
      networkPassphrase: TESTNET,
    });
    expect(intent.status, JSON.stringify(intent.body)).toBe(200);
    expect(intent.body).toMatchObject({
      destination: inv.muxedAddress,
      muxedAddress: inv.muxedAddress,
      memo: inv.invoiceNumber,
    });
    expect(parseSep7PayUri(intent.body.sep7Uri)).toMatchObject({
      destination: inv.muxedAddress,
      memo: inv.invoiceNumber,
      memo_type: "MEMO_TEXT",
    });
    const tx = TransactionBuilder.fromXDR(intent.body.transactionXdr, TESTNET);
    if (!("memo" in tx)) throw new Error("not a transaction");
    expect(tx.operations[0]).toMatchObject({ type: "payment", destination: inv.muxedAddress });
    expect(tx.memo.value?.toString()).toBe(inv.invoiceNumber);
    tx.sign(payer);
    const submitted = await muxedAnon.post("/api/payments/submit", {
      invoiceId: inv.id,
      signedTransactionXdr: tx.toXDR(),
    });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(await statusOf(inv.id)).toMatchObject({ status: "PAID", amountPaid: "25.0000000" });
  });
});

describe("a payment to the muxed address", () => {
  it("without a memo is matched by the watcher: PAID once", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f);
    const payer = await funded(testnet);
    const hash = await payTo(payer, inv.muxedAddress, "25");
    await tick();
    await tick();
    expect(await statusOf(inv.id)).toMatchObject({ status: "PAID", amountPaid: "25.0000000" });
    expect(await rowsOf(inv.id)).toEqual([
      {
        amount: "25.0000000",
        applied: true,
        unapplied_reason: null,
        from_wallet: payer.publicKey(),
        from_address: null,
      },
    ]);
    const [paid] =
      await sql`select count(*)::int as n from events where invoice_id = ${inv.id} and type = 'invoice.paid'`;
    expect(paid.n).toBe(1);
    // verify-tx names the muxed id it was sent to.
    const [{ muxed_id }] = await sql`select muxed_id::text from invoices where id = ${inv.id}`;
    const verified = await anon.post("/api/payments/verify-tx", {
      transactionHash: hash,
      network: "testnet",
    });
    expect(verified.body).toMatchObject({
      memoType: "none",
      payments: [{ to: f.kp.publicKey(), toMuxedId: muxed_id, amount: "25.0000000" }],
    });
  });

  it("without a memo, seen by the watcher and confirm at once: recorded once", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f);
    const payer = await funded(testnet);
    const hash = await payTo(payer, inv.muxedAddress, "25");
    const [confirmed] = await Promise.all([
      anon.post("/api/payments/confirm", { invoiceId: inv.id, transactionHash: hash }),
      tick(),
      tick(),
    ]);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    await tick();
    expect(await statusOf(inv.id)).toMatchObject({ status: "PAID", amountPaid: "25.0000000" });
    expect(await rowsOf(inv.id)).toHaveLength(1);
  });

  it("without a memo, to a cancelled invoice: still recorded, unapplied", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f);
    const cancelled = await f.api.post(`/api/invoices/${inv.id}/cancel`, {});
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const payer = await funded(testnet);
    await payTo(payer, inv.muxedAddress, "25");
    await tick();
    await tick();
    expect(await rowsOf(inv.id)).toEqual([
      expect.objectContaining({
        amount: "25.0000000",
        applied: false,
        unapplied_reason: "invoice_cancelled",
      }),
    ]);
  });

  it("without a memo is matched by confirm", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f);
    const payer = await funded(testnet);
    const hash = await payTo(payer, inv.muxedAddress, "25");
    const confirmed = await anon.post("/api/payments/confirm", {
      invoiceId: inv.id,
      transactionHash: hash,
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body).toMatchObject({ status: "confirmed", transactionHash: hash });
    // Another invoice of the wallet is not paid by it.
    const other = await sentInvoice(f);
    const refused = await anon.post("/api/payments/confirm", {
      invoiceId: other.id,
      transactionHash: hash,
    });
    expect(refused.body.error).toBe("Transaction does not match invoice");
    expect(await rowsOf(other.id)).toEqual([]);
  });

  it("written as the G address with the id as a memo id (a wallet without M addresses) pays it too", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f);
    const [{ muxed_id }] = await sql`select muxed_id::text from invoices where id = ${inv.id}`;
    const payer = await funded(testnet);
    const hash = await payTo(payer, f.kp.publicKey(), "25", Memo.id(muxed_id));
    const confirmed = await anon.post("/api/payments/confirm", {
      invoiceId: inv.id,
      transactionHash: hash,
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(await statusOf(inv.id)).toMatchObject({ status: "PAID", amountPaid: "25.0000000" });
  });

  it("with a memo naming another invoice: recorded unapplied (memo_mismatch) where it was sent; the memo's invoice is not paid", async () => {
    const f = await freelancer();
    const named = await sentInvoice(f);
    const sentTo = await sentInvoice(f);
    const payer = await funded(testnet);
    const hash = await payTo(payer, sentTo.muxedAddress, "25", Memo.text(named.invoiceNumber));
    // Confirm for the invoice the memo names: not its payment.
    const refused = await anon.post("/api/payments/confirm", {
      invoiceId: named.id,
      transactionHash: hash,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("Transaction does not match invoice");
    await tick();
    await tick();
    expect(await rowsOf(named.id)).toEqual([]);
    expect(await statusOf(named.id)).toMatchObject({ status: "PENDING", amountPaid: "0.0000000" });
    expect(await rowsOf(sentTo.id)).toEqual([
      {
        amount: "25.0000000",
        applied: false,
        unapplied_reason: "memo_mismatch",
        from_wallet: payer.publicKey(),
        from_address: null,
      },
    ]);
    expect(await statusOf(sentTo.id)).toMatchObject({ status: "PENDING", amountPaid: "0.0000000" });
    // The owner's view names the reason; the unapplied event carries it.
    const view = await f.api.get(`/api/invoices/${sentTo.id}/owner`);
    expect(view.body.payments).toEqual([
      expect.objectContaining({ applied: false, unappliedReason: "memo_mismatch" }),
    ]);
    const [event] =
      await sql`select data from events where invoice_id = ${sentTo.id} and type = 'payment.unapplied'`;
    expect(event.data).toMatchObject({ reason: "memo_mismatch" });
  });

  it("from the freelancer themself stays a self-payment: never recorded", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f);
    const hash = await payTo(f.kp, inv.muxedAddress, "25");
    const confirmed = await anon.post("/api/payments/confirm", {
      invoiceId: inv.id,
      transactionHash: hash,
    });
    expect(confirmed.body.error).toBe("Cannot pay your own invoice");
    await tick();
    expect(await rowsOf(inv.id)).toEqual([]);
  });
});

describe("refund to a payer who paid from a muxed account", () => {
  it("goes back to that M address", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f);
    const payer = await funded(testnet);
    const payerM = new SdkMuxedAccount(
      await testnet.server.loadAccount(payer.publicKey()),
      "8070450532247928832",
    ).accountId();
    const tx = await build(
      testnet,
      payer,
      [
        Operation.payment({
          destination: f.kp.publicKey(),
          asset: Asset.native(),
          amount: "30",
          source: payerM,
        }),
      ],
      { memo: Memo.text(inv.invoiceNumber) },
    );
    const hash = await send(testnet, tx);
    const confirmed = await anon.post("/api/payments/confirm", {
      invoiceId: inv.id,
      transactionHash: hash,
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    const [payment] = await sql`select id, from_wallet, from_address from payments
      where invoice_id = ${inv.id}`;
    expect(payment).toMatchObject({ from_wallet: payer.publicKey(), from_address: payerM });

    const built = await f.api.post(`/api/invoices/${inv.id}/payments/${payment.id}/refund`);
    expect(built.status, JSON.stringify(built.body)).toBe(201);
    expect(built.body).toMatchObject({ amount: "5", destination: payerM });
    expect(parseSep7PayUri(built.body.sep7Uri).destination).toBe(payerM);
    const unsigned = TransactionBuilder.fromXDR(built.body.transactionXdr, TESTNET);
    if (!("operations" in unsigned)) throw new Error("not a transaction");
    expect(unsigned.operations[0]).toMatchObject({ type: "payment", destination: payerM });

    const before = (await testnet.server.loadAccount(payer.publicKey())).balances.find(
      (b) => b.asset_type === "native",
    )?.balance;
    unsigned.sign(f.kp);
    const submitted = await f.api.post("/api/refunds/submit", {
      refundId: built.body.refundId,
      signedTransactionXdr: unsigned.toXDR(),
    });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body).toMatchObject({ status: "CONFIRMED", destination: payerM });
    const after = (await testnet.server.loadAccount(payer.publicKey())).balances.find(
      (b) => b.asset_type === "native",
    )?.balance;
    // Exactly 5 XLM: the freelancer's wallet pays the fee.
    expect(toStroops(after ?? "0") - toStroops(before ?? "0")).toBe(50_000_000n);
    // The ledger shows the refund at the payer's M address.
    const ops = await testnet.server
      .payments()
      .forTransaction(unsigned.hash().toString("hex"))
      .call();
    expect(ops.records[0]).toMatchObject({ to: payer.publicKey(), to_muxed: payerM });
    const [event] =
      await sql`select data from events where invoice_id = ${inv.id} and type = 'payment.refunded'`;
    expect(event.data).toMatchObject({ refund: { destination: payerM } });
  });
});
