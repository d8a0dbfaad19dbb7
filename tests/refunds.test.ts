import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toStroops } from "@/lib/domain/money";
import { parseSep7PayUri } from "@/lib/stellar/sep7";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, TEST_CRON_SECRET } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import {
  type Chain,
  funded,
  holder,
  type Keypair,
  MAINNET,
  Memo,
  pay,
  send,
  TESTNET,
  TransactionBuilder,
  trust,
} from "./helpers/stellar";

// Refunds end to end on a local ledger (docs/decisions.md, Refunds): an invoice of 25 USDC
// overpaid with 30, the 5 overpaid sent back by the freelancer's wallet, through submit and
// through the ledger directly (the watcher), exactly once.

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
  await trust(testnet, kp, testnet.usdc);
  const { token } = await signIn(app.url, kp);
  return { kp, api: client(app.url, token) };
}

const tick = () =>
  fetch(`${app.url}/api/cron/watcher`, {
    headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
  }).then((r) => r.json());

async function usdcBalance(account: string): Promise<string> {
  const a = await testnet.server.loadAccount(account);
  const line = a.balances.find(
    (b) =>
      "asset_code" in b && b.asset_code === "USDC" && b.asset_issuer === testnet.usdc.getIssuer(),
  );
  return line?.balance ?? "0";
}

/** An invoice of 25 USDC paid with 30 in one operation, confirmed: PAID, 5 overpaid. */
async function overpaidInvoice(f: Freelancer) {
  const created = await f.api.post(
    "/api/invoices",
    invoiceBody({
      currency: "USDC",
      lineItems: [{ description: "Work", quantity: "1", rate: "25" }],
    }),
  );
  expect(created.status).toBe(201);
  const inv = created.body as { id: string; invoiceNumber: string };
  expect((await f.api.post(`/api/invoices/${inv.id}/send`)).status).toBe(200);
  const payer = await holder(testnet, testnet.usdc, "100");
  const tx = await pay(
    testnet,
    payer,
    f.kp.publicKey(),
    testnet.usdc,
    "30",
    Memo.text(inv.invoiceNumber),
  );
  const hash = await send(testnet, tx);
  const confirmed = await anon.post("/api/payments/confirm", {
    invoiceId: inv.id,
    transactionHash: hash,
  });
  expect(confirmed.status).toBe(200);
  const [payment] = await sql`select id from payments where invoice_id = ${inv.id}`;
  return { inv, payer, paymentId: payment.id as string };
}

async function tally(invoiceId: string) {
  const [row] = await sql`select
    (select status from invoices where id = ${invoiceId}) as status,
    (select amount_paid::text from invoices where id = ${invoiceId}) as amount_paid,
    (select count(*) from invoice_audit_logs where invoice_id = ${invoiceId} and action = 'REFUNDED')::int as refunded_audits,
    (select count(*) from events where invoice_id = ${invoiceId} and type = 'payment.refunded')::int as refunded_events`;
  return row;
}

const paymentRow = async (id: string) =>
  (await sql`select status, amount_refunded::text from payments where id = ${id}`)[0];

describe("refund of an overpayment", () => {
  it("built, signed by the freelancer, submitted: the payer gets 5 back, once", async () => {
    const f = await freelancer();
    const { inv, payer, paymentId } = await overpaidInvoice(f);
    expect(await tally(inv.id)).toMatchObject({ status: "PAID", amount_paid: "30.0000000" });
    const path = `/api/invoices/${inv.id}/payments/${paymentId}/refund`;

    // Another wallet is refused (403, docs/decisions.md); more than was received is refused.
    const other = await freelancer();
    const notOwner = await other.api.post(path);
    expect(notOwner.status).toBe(403);
    expect(notOwner.body.error).toBe("Unauthorized");
    const tooMuch = await f.api.post(path, { amount: "30.0000001" });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error).toBe("Refund exceeds the amount received");
    expect((await f.api.post(path, { amount: "0.12345678" })).status).toBe(400);

    const built = await f.api.post(path);
    expect(built.status).toBe(201);
    expect(built.body).toMatchObject({
      refundId: expect.any(String),
      amount: "5",
      asset: { code: "USDC", issuer: testnet.usdc.getIssuer() },
      destination: payer.publicKey(),
      memo: `RF-${built.body.refundId}`,
      networkPassphrase: TESTNET,
    });
    expect(Buffer.byteLength(built.body.memo)).toBeLessThanOrEqual(28);
    expect(parseSep7PayUri(built.body.sep7Uri)).toMatchObject({
      destination: payer.publicKey(),
      amount: "5",
      asset_code: "USDC",
      asset_issuer: testnet.usdc.getIssuer(),
      memo: built.body.memo,
    });
    const unsigned = TransactionBuilder.fromXDR(built.body.transactionXdr, TESTNET);
    expect("source" in unsigned && unsigned.source).toBe(f.kp.publicKey());
    const bounds = "timeBounds" in unsigned ? unsigned.timeBounds : undefined;
    expect(Number(bounds?.maxTime) - Math.floor(Date.now() / 1000)).toBeGreaterThan(280);
    expect(Number(bounds?.maxTime) - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(300);

    // While this refund is open, only the remaining 25 may be refunded.
    const beyond = await f.api.post(path, { amount: "25.0000001" });
    expect(beyond.body.error).toBe("Refund exceeds the amount received");

    // Someone else cannot submit it; a transaction signed by someone else is not it.
    const stranger = await other.api.post("/api/refunds/submit", {
      refundId: built.body.refundId,
      signedTransactionXdr: built.body.transactionXdr,
    });
    expect(stranger.status).toBe(403);
    expect(stranger.body.error).toBe("Unauthorized");

    const before = await usdcBalance(payer.publicKey());
    unsigned.sign(f.kp);
    const submitted = await f.api.post("/api/refunds/submit", {
      refundId: built.body.refundId,
      signedTransactionXdr: unsigned.toXDR(),
    });
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({
      refundId: built.body.refundId,
      paymentId,
      invoiceId: inv.id,
      status: "CONFIRMED",
      amount: "5",
      transactionHash: unsigned.hash().toString("hex"),
      ledgerNumber: expect.any(Number),
    });
    const after = await usdcBalance(payer.publicKey());
    // Exactly 5: the freelancer's wallet pays the fee.
    expect(toStroops(after) - toStroops(before)).toBe(50_000_000n);

    expect(await paymentRow(paymentId)).toEqual({
      status: "CONFIRMED",
      amount_refunded: "5.0000000",
    });
    expect(await tally(inv.id)).toEqual({
      status: "PAID",
      amount_paid: "25.0000000",
      refunded_audits: 1,
      refunded_events: 1,
    });
    const [event] =
      await sql`select data from events where invoice_id = ${inv.id} and type = 'payment.refunded'`;
    expect(event.data).toMatchObject({
      refund: { id: built.body.refundId, amount: "5.0000000", memo: built.body.memo },
      amountRefunded: "5.0000000",
    });

    // Submitting again, and the watcher seeing the transaction, record nothing more.
    const again = await f.api.post("/api/refunds/submit", {
      refundId: built.body.refundId,
      signedTransactionXdr: unsigned.toXDR(),
    });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe("CONFIRMED");
    await tick();
    expect(await tally(inv.id)).toMatchObject({ refunded_audits: 1, refunded_events: 1 });

    // Nothing overpaid is left: the default now needs an amount; an explicit one may still go.
    const noDefault = await f.api.post(path);
    expect(noDefault.status).toBe(400);
  });

  it("a refund sent to the ledger directly is recognised by the watcher, once", async () => {
    const f = await freelancer();
    const { inv, payer, paymentId } = await overpaidInvoice(f);
    const built = await f.api.post(`/api/invoices/${inv.id}/payments/${paymentId}/refund`, {
      amount: "30",
    });
    expect(built.status).toBe(201);
    await tick(); // the watcher keeps reading while a refund is open
    const before = await usdcBalance(payer.publicKey());
    const tx = TransactionBuilder.fromXDR(built.body.transactionXdr, TESTNET);
    tx.sign(f.kp);
    await send(testnet, tx);
    expect(toStroops(await usdcBalance(payer.publicKey())) - toStroops(before)).toBe(300_000_000n);

    await tick();
    await tick();
    const [refund] =
      await sql`select status, transaction_hash from refunds where id = ${built.body.refundId}`;
    expect(refund).toEqual({ status: "CONFIRMED", transaction_hash: tx.hash().toString("hex") });
    expect(await paymentRow(paymentId)).toEqual({
      status: "REFUNDED",
      amount_refunded: "30.0000000",
    });
    // The whole applied payment went back: amountPaid is 0, the PAID invoice stays PAID.
    expect(await tally(inv.id)).toEqual({
      status: "PAID",
      amount_paid: "0.0000000",
      refunded_audits: 1,
      refunded_events: 1,
    });
    // The freelancer signed it: the trail names them, not the service that noticed it
    // (issue 28, item 15), and the owner's page reads it in words.
    const [entry] = await sql`select actor_wallet from invoice_audit_logs
      where invoice_id = ${inv.id} and action = 'REFUNDED'`;
    expect(entry.actor_wallet).toBe(f.kp.publicKey());
    // Submitting it afterwards changes nothing.
    const late = await f.api.post("/api/refunds/submit", {
      refundId: built.body.refundId,
      signedTransactionXdr: tx.toXDR(),
    });
    expect(late.status).toBe(200);
    expect(await tally(inv.id)).toMatchObject({ refunded_events: 1 });
    const full = await f.api.post(`/api/invoices/${inv.id}/payments/${paymentId}/refund`, {
      amount: "0.0000001",
    });
    expect(full.body.error).toBe("Refund exceeds the amount received");
  });

  it("a refund marked FAILED is not sent once another took its amount, and when it reaches the ledger anyway it is recorded, never beyond what was received (issue 27, item 15)", async () => {
    const f = await freelancer();
    const { inv, payer, paymentId } = await overpaidInvoice(f);
    const path = `/api/invoices/${inv.id}/payments/${paymentId}/refund`;
    const first = await f.api.post(path, { amount: "30" });
    expect(first.status).toBe(201);
    const firstTx = TransactionBuilder.fromXDR(first.body.transactionXdr, TESTNET);
    firstTx.sign(f.kp);
    // The ledger refused it (as when the wallet was short of funds): it holds nothing now,
    // and a second refund of the whole payment may be built.
    await sql`update refunds set status = 'FAILED' where id = ${first.body.refundId}`;
    const second = await f.api.post(path, { amount: "30" });
    expect(second.status).toBe(201);

    // Sending the failed one again would give back 60 of the 30 received: refused, unsent.
    const before = await usdcBalance(payer.publicKey());
    const resent = await f.api.post("/api/refunds/submit", {
      refundId: first.body.refundId,
      signedTransactionXdr: firstTx.toXDR(),
    });
    expect(resent.status, JSON.stringify(resent.body)).toBe(400);
    expect(resent.body.error).toBe("Refund exceeds the amount received");
    expect(await usdcBalance(payer.publicKey())).toBe(before);

    const secondTx = TransactionBuilder.fromXDR(second.body.transactionXdr, TESTNET);
    secondTx.sign(f.kp);
    const done = await f.api.post("/api/refunds/submit", {
      refundId: second.body.refundId,
      signedTransactionXdr: secondTx.toXDR(),
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await paymentRow(paymentId)).toEqual({
      status: "REFUNDED",
      amount_refunded: "30.0000000",
    });

    // The freelancer then sends the first one by other means (its memo, its amount): the
    // money moved, so the watcher records it, but the payment had nothing left to refund.
    await testnet.ledger.fund(f.kp.publicKey(), "30", "USDC");
    const open = await f.api.post(
      "/api/invoices",
      invoiceBody({
        currency: "USDC",
        lineItems: [{ description: "More", quantity: "1", rate: "1" }],
      }),
    );
    expect((await f.api.post(`/api/invoices/${open.body.id}/send`)).status).toBe(200); // the watcher reads
    const late = await send(
      testnet,
      await pay(testnet, f.kp, payer.publicKey(), testnet.usdc, "30", Memo.text(first.body.memo)),
    );
    await tick();
    await tick();
    const [refund] =
      await sql`select status, transaction_hash from refunds where id = ${first.body.refundId}`;
    expect(refund).toEqual({ status: "CONFIRMED", transaction_hash: late });
    expect(await paymentRow(paymentId)).toEqual({
      status: "REFUNDED",
      amount_refunded: "30.0000000",
    });
    expect(await tally(inv.id)).toEqual({
      status: "PAID",
      amount_paid: "0.0000000",
      refunded_audits: 2,
      refunded_events: 2,
    });
    const [audit] = await sql`select changes from invoice_audit_logs
      where invoice_id = ${inv.id} and action = 'REFUNDED' and changes->>'refundId' = ${first.body.refundId}`;
    expect(audit.changes).toMatchObject({
      amount: "30.0000000",
      refundStatus: { from: "FAILED", to: "CONFIRMED" },
      beyondReceived: "30.0000000",
      amountPaid: { from: "0.0000000", to: "0.0000000" },
    });
  });

  it("racing submits and watcher ticks record the refund once", async () => {
    const f = await freelancer();
    const { inv, payer, paymentId } = await overpaidInvoice(f);
    const built = await f.api.post(`/api/invoices/${inv.id}/payments/${paymentId}/refund`);
    expect(built.status).toBe(201);
    await tick();
    const before = await usdcBalance(payer.publicKey());
    const tx = TransactionBuilder.fromXDR(built.body.transactionXdr, TESTNET);
    tx.sign(f.kp);
    const body = { refundId: built.body.refundId, signedTransactionXdr: tx.toXDR() };
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () => f.api.post("/api/refunds/submit", body)),
      ...Array.from({ length: 3 }, () => tick()),
    ]);
    await tick();
    // One submit reached the ledger first; the others found it confirmed or were refused by
    // the ledger (the sequence was used): never a second refund.
    expect(answers.slice(0, 5).some((a) => "status" in a && a.status === 200)).toBe(true);
    expect(toStroops(await usdcBalance(payer.publicKey())) - toStroops(before)).toBe(50_000_000n);
    const [refund] = await sql`select status from refunds where id = ${built.body.refundId}`;
    expect(refund.status).toBe("CONFIRMED");
    expect(await paymentRow(paymentId)).toEqual({
      status: "CONFIRMED",
      amount_refunded: "5.0000000",
    });
    expect(await tally(inv.id)).toEqual({
      status: "PAID",
      amount_paid: "25.0000000",
      refunded_audits: 1,
      refunded_events: 1,
    });
  });

  it("refuses a signed transaction that is not the refund built", async () => {
    const f = await freelancer();
    const { inv, payer, paymentId } = await overpaidInvoice(f);
    const built = await f.api.post(`/api/invoices/${inv.id}/payments/${paymentId}/refund`);
    expect(built.status).toBe(201);
    const other = await pay(
      testnet,
      f.kp,
      payer.publicKey(),
      testnet.usdc,
      "6",
      Memo.text(built.body.memo),
    );
    const refused = await f.api.post("/api/refunds/submit", {
      refundId: built.body.refundId,
      signedTransactionXdr: other.toXDR(),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("Transaction does not match refund");
    const wrongNet = TransactionBuilder.fromXDR(built.body.transactionXdr, TESTNET);
    const mainnetTx = TransactionBuilder.fromXDR(wrongNet.toXDR(), MAINNET);
    mainnetTx.sign(f.kp);
    const mismatch = await f.api.post("/api/refunds/submit", {
      refundId: built.body.refundId,
      signedTransactionXdr: mainnetTx.toXDR(),
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error).toMatch(/^Network mismatch/);
    expect(await tally(inv.id)).toMatchObject({ refunded_events: 0, amount_paid: "30.0000000" });
  });
});
