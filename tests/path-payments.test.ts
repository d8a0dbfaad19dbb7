import type { Keypair, Operation as Op, Transaction } from "@stellar/stellar-sdk";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, TEST_CRON_SECRET } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import {
  Asset,
  build,
  type Chain,
  funded,
  holder,
  Keypair as KP,
  Memo,
  Operation,
  send,
  TESTNET,
  TransactionBuilder,
  trust,
} from "./helpers/stellar";

// Paying with another asset (docs/decisions.md, Path payments): pay-intent's `sendAsset` asks
// the network's Horizon (here the local ledger, USDC 0.1 and EURC 0.09 per XLM) for the
// cheapest strict-receive path and builds one path_payment_strict_receive that delivers
// exactly the amount due; the payment is recorded at the amount received. Real PostgreSQL,
// the real server, the local ledger and signed transactions.

let testnet: Chain;
let mainnet: Chain;
let app: RunningApp;
let db: LedgerApp["db"];
let sql: postgres.Sql;
let anon: Api;
let prices: LedgerApp["prices"];

beforeAll(async () => {
  ({ testnet, mainnet, app, db, sql, anon, prices } = await startLedgerApp());
});

afterAll(() => stopLedgerApp({ sql, app, testnet, mainnet, db, prices }));

type Freelancer = { kp: Keypair; api: Api };

async function freelancer(): Promise<Freelancer> {
  const kp = await funded(testnet);
  await trust(testnet, kp, testnet.usdc);
  const { token } = await signIn(app.url, kp);
  return { kp, api: client(app.url, token) };
}

async function sentInvoice(f: Freelancer, total: string, over: Record<string, unknown> = {}) {
  const created = await f.api.post(
    "/api/invoices",
    invoiceBody({
      currency: "USDC",
      lineItems: [{ description: "Work", quantity: "1", rate: total }],
      ...over,
    }),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await f.api.post(`/api/invoices/${created.body.id}/send`)).status).toBe(200);
  return created.body as { id: string; invoiceNumber: string; total: string };
}

const intent = (id: string, sender: Keypair, sendAsset?: unknown) =>
  anon.post(`/api/payments/${id}/pay-intent`, {
    senderPublicKey: sender.publicKey(),
    networkPassphrase: TESTNET,
    ...(sendAsset === undefined ? {} : { sendAsset }),
  });

const signed = (xdrB64: string, kp: Keypair) => {
  const tx = TransactionBuilder.fromXDR(xdrB64, TESTNET) as Transaction;
  tx.sign(kp);
  return tx;
};

const balance = async (kp: Keypair, asset: Asset) => {
  const account = await testnet.server.loadAccount(kp.publicKey());
  const line = account.balances.find((b) =>
    asset.isNative()
      ? b.asset_type === "native"
      : "asset_code" in b &&
        b.asset_code === asset.getCode() &&
        b.asset_issuer === asset.getIssuer(),
  );
  return line?.balance;
};

const stroops = (s: string) => BigInt(s.replace(".", ""));

const rowsOf = (id: string) =>
  sql`select amount::text, asset, applied from payments where invoice_id = ${id}`;

describe("pay-intent with sendAsset", () => {
  it("XLM for a USDC invoice: one path_payment_strict_receive of exactly the total; submit records it and the freelancer receives the total", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, "25");
    const payer = await funded(testnet); // XLM only
    const res = await intent(inv.id, payer, "XLM");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      amount: "25",
      asset: { code: "USDC", issuer: testnet.usdc.getIssuer() },
      // 25 USDC at 0.1 USDC per XLM; sendMax + 1 % (PATH_SLIPPAGE_BPS default 100)
      pathPayment: {
        sendAsset: { code: "XLM", issuer: null },
        sourceAmount: "250.0000000",
        sendMax: "252.5000000",
        path: [],
      },
    });
    // The SEP-7 URI stays a plain payment of the amount in the invoice's asset.
    expect(res.body.sep7Uri).toContain("amount=25");
    const tx = signed(res.body.transactionXdr, payer);
    expect(tx.operations).toHaveLength(1);
    const op = tx.operations[0] as Op.PathPaymentStrictReceive;
    expect(op).toMatchObject({
      type: "pathPaymentStrictReceive",
      destination: f.kp.publicKey(),
      destAmount: "25.0000000",
      sendMax: "252.5000000",
      path: [],
    });
    expect(op.sendAsset.isNative()).toBe(true);
    expect(op.destAsset.equals(testnet.usdc)).toBe(true);
    expect(tx.memo.value?.toString()).toBe(inv.invoiceNumber);

    const before = stroops(String(await balance(payer, Asset.native())));
    const submitted = await anon.post("/api/payments/submit", {
      invoiceId: inv.id,
      signedTransactionXdr: tx.toXDR(),
    });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body).toMatchObject({ success: true, status: "PAID" });
    expect(await balance(f.kp, testnet.usdc)).toBe("25.0000000");
    // 250 XLM at the ledger's rate, plus the 100-stroop fee
    expect(before - stroops(String(await balance(payer, Asset.native())))).toBe(2_500_000_100n);
    const status = (await anon.get(`/api/payments/${inv.id}/status`)).body;
    expect(status).toMatchObject({ status: "PAID", amountPaid: inv.total });
    expect(await rowsOf(inv.id)).toEqual([{ amount: "25.0000000", asset: "USDC", applied: true }]);
  });

  it("EURC through XLM: the cheapest path, and the watcher records the amount received", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, "10");
    const payer = await holder(testnet, testnet.eurc, "100");
    const res = await intent(inv.id, payer, { code: "EURC", issuer: testnet.eurc.getIssuer() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // 10 USDC = 100 XLM = 9 EURC; sendMax 9.09
    expect(res.body.pathPayment).toEqual({
      sendAsset: { code: "EURC", issuer: testnet.eurc.getIssuer() },
      sourceAmount: "9.0000000",
      sendMax: "9.0900000",
      path: [{ code: "XLM", issuer: null }],
    });
    // Submitted by the wallet itself: the watcher finds it.
    await send(testnet, signed(res.body.transactionXdr, payer));
    const tick = await fetch(`${app.url}/api/cron/watcher`, {
      headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
    });
    expect(tick.status).toBe(200);
    expect((await anon.get(`/api/payments/${inv.id}/status`)).body).toMatchObject({
      status: "PAID",
      amountPaid: inv.total,
    });
    expect(await rowsOf(inv.id)).toEqual([{ amount: "10.0000000", asset: "USDC", applied: true }]);
    expect(await balance(f.kp, testnet.usdc)).toBe("10.0000000");
    expect(await balance(payer, testnet.eurc)).toBe("91.0000000");
  });

  it("a wallet's own path payment (verify-tx and confirm) counts the amount received, not the amount sent", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, "3");
    const payer = await funded(testnet);
    const tx = await build(
      testnet,
      payer,
      [
        Operation.pathPaymentStrictReceive({
          sendAsset: Asset.native(),
          sendMax: "100",
          destination: f.kp.publicKey(),
          destAsset: testnet.usdc,
          destAmount: "3",
          path: [],
        }),
      ],
      { memo: Memo.text(inv.invoiceNumber) },
    );
    const hash = await send(testnet, tx);
    const verified = await anon.post("/api/payments/verify-tx", {
      transactionHash: hash,
      networkPassphrase: TESTNET,
    });
    expect(verified.body.payments).toMatchObject([
      { type: "path_payment_strict_receive", amount: "3.0000000", assetCode: "USDC" },
    ]);
    const confirmed = await anon.post("/api/payments/confirm", {
      invoiceId: inv.id,
      transactionHash: hash,
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(await rowsOf(inv.id)).toEqual([{ amount: "3.0000000", asset: "USDC", applied: true }]);
  });

  it("400 `No payment path found` when Horizon has no path, writing nothing", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, "5");
    const payer = await funded(testnet);
    const stranger = KP.random().publicKey();
    const res = await intent(inv.id, payer, { code: "ABC", issuer: stranger });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("No payment path found");
    expect((await anon.get(`/api/payments/${inv.id}/status`)).body.status).toBe("PENDING");
    // a malformed sendAsset is a validation error
    const bad = await intent(inv.id, payer, { code: "USDC" });
    expect(bad.status).toBe(400);
  });

  it("the invoice's own asset as sendAsset is a plain payment, as without it", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, "2");
    const payer = await holder(testnet, testnet.usdc, "10");
    const res = await intent(inv.id, payer, { code: "USDC", issuer: testnet.usdc.getIssuer() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.pathPayment).toBeNull();
    const op = signed(res.body.transactionXdr, payer).operations[0];
    expect(op.type).toBe("payment");
  });

  it("a fiat-priced invoice: destAmount is the live quote's amount", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, "20.00", { priceCurrency: "USD", currency: "XLM" });
    const payer = await holder(testnet, testnet.usdc, "1000");
    const res = await intent(inv.id, payer, { code: "USDC", issuer: testnet.usdc.getIssuer() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const quoteAmount = res.body.quote.assetAmount as string;
    const op = signed(res.body.transactionXdr, payer).operations[0] as Op.PathPaymentStrictReceive;
    expect(op.type).toBe("pathPaymentStrictReceive");
    expect(op.destAsset.isNative()).toBe(true);
    expect(op.destAmount).toBe(quoteAmount);
    // XLM -> USDC at 0.1, rounded up to the stroop
    const expected = (stroops(quoteAmount) + 9n) / 10n;
    expect(stroops(res.body.pathPayment.sourceAmount)).toBe(expected);
    expect(stroops(res.body.pathPayment.sendMax)).toBe((expected * 10_100n + 9_999n) / 10_000n);
    const submitted = await anon.post("/api/payments/submit", {
      invoiceId: inv.id,
      signedTransactionXdr: signed(res.body.transactionXdr, payer).toXDR(),
    });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.status).toBe("PAID");
    expect(await rowsOf(inv.id)).toEqual([{ amount: quoteAmount, asset: "XLM", applied: true }]);
  });
});

describe("GET /api/payments/{invoiceId}/pay-options", () => {
  it("every asset the payer holds and can afford, priced, the invoice's asset first", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, "25");
    const payer = await holder(testnet, testnet.usdc, "30");
    await trust(testnet, payer, testnet.eurc);
    await testnet.ledger.fund(payer.publicKey(), "1", "EURC"); // too little for 22.5 EURC
    const res = await anon.get(`/api/payments/${inv.id}/pay-options?account=${payer.publicKey()}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      invoiceId: inv.id,
      amount: "25",
      asset: { code: "USDC", issuer: testnet.usdc.getIssuer() },
      options: [
        {
          sendAsset: { code: "USDC", issuer: testnet.usdc.getIssuer() },
          sourceAmount: "25.0000000",
          sendMax: "25.0000000",
          path: [],
        },
        {
          sendAsset: { code: "XLM", issuer: null },
          sourceAmount: "250.0000000",
          sendMax: "252.5000000",
          path: [],
        },
      ],
    });
    const bad = await anon.get(`/api/payments/${inv.id}/pay-options?account=nope`);
    expect(bad.status).toBe(400);
    // reading options changes nothing
    expect((await anon.get(`/api/payments/${inv.id}/status`)).body.status).toBe("PENDING");
  });

  it("a recipient that cannot receive the invoice's asset: pay-intent's 400, not options that would all fail (issue 27, item 15)", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, "25");
    const payer = await holder(testnet, testnet.usdc, "30");
    const options = () =>
      anon.get(`/api/payments/${inv.id}/pay-options?account=${payer.publicKey()}`);
    expect((await options()).body.options).toHaveLength(2);
    // The freelancer removes the USDC trustline after sending: nothing can deliver USDC now.
    await trust(testnet, f.kp, testnet.usdc, "0");
    const res = await options();
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toBe(
      "The recipient wallet cannot receive this asset yet. Ask the sender of this invoice to add a trustline.",
    );
    // The same words as pay-intent, with or without a path.
    for (const sendAsset of [undefined, "XLM"]) {
      const intentRes = await intent(inv.id, payer, sendAsset);
      expect(intentRes.status).toBe(400);
      expect(intentRes.body.error).toBe(res.body.error);
    }
  });

  it("a link that creates the recipient's account offers the plain XLM payment only, no path (issue 27, item 15)", async () => {
    const fresh = KP.random(); // no account on the ledger
    const { token } = await signIn(app.url, fresh);
    const seller = client(app.url, token);
    const link = await seller.post("/api/links", {
      amount: "5",
      asset: "XLM",
      networkPassphrase: TESTNET,
      activateNewAccounts: true,
    });
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    const payer = await holder(testnet, testnet.usdc, "30"); // holds XLM and USDC
    const res = await anon.get(
      `/api/payments/${link.body.id}/pay-options?account=${payer.publicKey()}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.options.map((o: { sendAsset: { code: string } }) => o.sendAsset.code)).toEqual([
      "XLM",
    ]);
    // Without the option, the unfunded recipient cannot be paid at all.
    const plain = await seller.post("/api/links", {
      amount: "5",
      asset: "XLM",
      networkPassphrase: TESTNET,
    });
    const refused = await anon.get(
      `/api/payments/${plain.body.id}/pay-options?account=${payer.publicKey()}`,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(
      "Recipient wallet is not activated on this network. It must be funded first.",
    );
  });
});
