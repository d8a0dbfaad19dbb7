import {
  Address,
  authorizeEntry,
  nativeToScVal,
  Operation,
  rpc,
  StrKey,
  Transaction,
  TransactionBuilder,
  type xdr,
} from "@stellar/stellar-sdk";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toStroops } from "@/lib/domain/money";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, TEST_CRON_SECRET } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import { type Chain, funded, holder, type Keypair, TESTNET, trust } from "./helpers/stellar";

// Smart-wallet payers (docs/decisions.md, Smart-wallet payers; issue 31, item 3), with real
// signed transactions on the local ledger: a local smart wallet (a C contract account whose
// authorization is its signer's ed25519 signature over the Soroban authorization entry) pays a
// USDC invoice through the USDC asset contract's `transfer`, as pay-intent builds it (simulated
// through the ledger's Stellar RPC), its auth entry signed with the SDK's `authorizeEntry` and
// the envelope by its G fee payer. The invoice turns PAID once, the payment names the C, verify
// lists the transfer, and a refund goes back to the C.
//
// The payment itself is matched by the invoice's muxed address (pay-intent's `destination` for a
// contract sender): a Soroban transaction carries no memo. The tests marked "(muxed)" need the
// per-invoice muxed addresses of issue 31, item 2 (lib/domain/muxed.ts): they run once it is in.

let testnet: Chain;
let mainnet: Chain;
let app: RunningApp;
let db: LedgerApp["db"];
let sql: postgres.Sql;
let anon: Api;
let server: rpc.Server;

beforeAll(async () => {
  ({ testnet, mainnet, app, db, sql, anon } = await startLedgerApp());
  server = new rpc.Server(testnet.ledger.rpcUrl, { allowHttp: true });
});

afterAll(() => stopLedgerApp({ sql, app, testnet, mainnet, db }));

type Freelancer = { kp: Keypair; api: Api };

async function freelancer(): Promise<Freelancer> {
  const kp = await funded(testnet);
  await trust(testnet, kp, testnet.usdc);
  const { token } = await signIn(app.url, kp);
  return { kp, api: client(app.url, token) };
}

async function usdcInvoice(f: Freelancer, rate = "25") {
  const created = await f.api.post(
    "/api/invoices",
    invoiceBody({ currency: "USDC", lineItems: [{ description: "Work", quantity: "1", rate }] }),
  );
  expect(created.status).toBe(201);
  const inv = created.body as { id: string; invoiceNumber: string };
  expect((await f.api.post(`/api/invoices/${inv.id}/send`)).status).toBe(200);
  return inv;
}

const transferOp = (from: string, to: string, amount: string) =>
  Operation.invokeContractFunction({
    contract: testnet.usdc.contractId(TESTNET),
    function: "transfer",
    args: [
      new Address(from).toScVal(),
      new Address(to).toScVal(),
      nativeToScVal(toStroops(amount), { type: "i128" }),
    ],
  });

/** Simulates, assembles, signs and sends an invocation whose source authorizes it. */
async function invoke(source: Keypair, op: xdr.Operation): Promise<string> {
  const account = await server.getAccount(source.publicKey());
  const tx = new TransactionBuilder(account, { fee: "100", networkPassphrase: TESTNET })
    .addOperation(op)
    .setTimeout(60)
    .build();
  const prepared = await server.prepareTransaction(tx);
  prepared.sign(source);
  await testnet.server.submitTransaction(prepared);
  return prepared.hash().toString("hex");
}

/** A local smart wallet for a fresh signer (its G also the fee payer), holding 60 USDC. */
async function smartWallet(): Promise<{ signer: Keypair; wallet: string }> {
  const signer = await holder(testnet, testnet.usdc, "100");
  const res = await fetch(`${testnet.ledger.url}/local/smart-wallets`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ signer: signer.publicKey() }),
  });
  expect(res.status).toBe(200);
  const { contractId: wallet } = (await res.json()) as { contractId: string };
  expect(StrKey.isValidContract(wallet)).toBe(true);
  // Funded the way a real one is: the G's transfer through the asset contract.
  await invoke(signer, transferOp(signer.publicKey(), wallet, "60"));
  return { signer, wallet };
}

const sacBalance = async (address: string) =>
  (await server.getSACBalance(address, testnet.usdc, TESTNET)).balanceEntry?.amount ?? "0";

/**
 * What the payer's wallet does with pay-intent's answer: signs each authorization entry of the
 * contract account (authorizeEntry with its signer key), puts them back into the operation,
 * and the fee payer signs the envelope.
 */
async function signContractPayment(
  intent: {
    transactionXdr: string;
    contractPayment: { from: string; authEntries: string[]; authValidUntilLedger: number };
  },
  signer: Keypair,
): Promise<Transaction> {
  const tx = TransactionBuilder.fromXDR(intent.transactionXdr, TESTNET) as Transaction;
  const envelope = tx.toEnvelope();
  const invoke = envelope.v1().tx().operations()[0].body().invokeHostFunctionOp();
  const signed = await Promise.all(
    invoke
      .auth()
      .map((entry) =>
        entry.credentials().switch().name === "sorobanCredentialsAddress"
          ? authorizeEntry(entry, signer, intent.contractPayment.authValidUntilLedger, TESTNET)
          : entry,
      ),
  );
  invoke.auth(signed);
  const out = new Transaction(envelope, TESTNET);
  out.sign(signer);
  return out;
}

const tick = () =>
  fetch(`${app.url}/api/cron/watcher`, {
    headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
  }).then((r) => r.json());

describe("pay-intent for a contract account sender (a smart wallet)", () => {
  it("answers the asset contract transfer, simulated and assembled, with the auth entry to sign", async () => {
    const f = await freelancer();
    const inv = await usdcInvoice(f);
    const { signer, wallet } = await smartWallet();
    const res = await anon.post(`/api/payments/${inv.id}/pay-intent`, {
      senderPublicKey: wallet,
      feeAccount: signer.publicKey(),
      networkPassphrase: TESTNET,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      amount: "25",
      asset: { code: "USDC", issuer: testnet.usdc.getIssuer() },
      status: "PROCESSING",
      pathPayment: null,
      contractPayment: {
        from: wallet,
        feeAccount: signer.publicKey(),
        contractId: testnet.usdc.contractId(TESTNET),
        authEntries: [expect.any(String)],
        authValidUntilLedger: expect.any(Number),
      },
    });
    const tx = TransactionBuilder.fromXDR(res.body.transactionXdr, TESTNET) as Transaction;
    // The fee payer sends it, without a memo; one invocation of transfer(C, destination, 25).
    expect(tx.source).toBe(signer.publicKey());
    expect(tx.memo.type).toBe("none");
    expect(tx.operations).toHaveLength(1);
    const op = tx.operations[0] as Operation.InvokeHostFunction;
    const call = op.func.invokeContract();
    expect(call.functionName().toString()).toBe("transfer");
    const [from, to, amount] = call.args();
    expect(Address.fromScVal(from).toString()).toBe(wallet);
    expect(Address.fromScVal(to).toString()).toBe(res.body.destination);
    expect(amount.i128().lo().toString()).toBe("250000000");
    // Assembled: footprint and resource fee from the simulation, above the base fee.
    expect(tx.toEnvelope().v1().tx().ext().sorobanData().resourceFee().toBigInt()).toBeGreaterThan(
      0n,
    );
    expect(Number(tx.fee)).toBeGreaterThan(100);
    // The auth entry is the contract account's, for exactly this call.
    const [entry] = op.auth ?? [];
    expect(Address.fromScAddress(entry.credentials().address().address()).toString()).toBe(wallet);
    expect(entry.toXDR("base64")).toBe(res.body.contractPayment.authEntries[0]);
  });

  it("400s naming the field: no feeAccount, a feeAccount for a G, a path payment, a bad C, an unknown fee account", async () => {
    const f = await freelancer();
    const inv = await usdcInvoice(f);
    const { signer, wallet } = await smartWallet();
    const path = `/api/payments/${inv.id}/pay-intent`;
    const base = { networkPassphrase: TESTNET };
    const noFee = await anon.post(path, { ...base, senderPublicKey: wallet });
    expect(noFee.status).toBe(400);
    expect(noFee.body.details).toHaveProperty("feeAccount");
    const feeForG = await anon.post(path, {
      ...base,
      senderPublicKey: signer.publicKey(),
      feeAccount: signer.publicKey(),
    });
    expect(feeForG.status).toBe(400);
    expect(feeForG.body.details).toHaveProperty("feeAccount");
    const viaPath = await anon.post(path, {
      ...base,
      senderPublicKey: wallet,
      feeAccount: signer.publicKey(),
      sendAsset: "XLM",
    });
    expect(viaPath.status).toBe(400);
    expect(viaPath.body.details).toHaveProperty("sendAsset");
    const badChecksum = await anon.post(path, {
      ...base,
      senderPublicKey: `${wallet.slice(0, -1)}${wallet.endsWith("A") ? "B" : "A"}`,
      feeAccount: signer.publicKey(),
    });
    expect(badChecksum.status).toBe(400);
    const unknownFee = await anon.post(path, {
      ...base,
      senderPublicKey: wallet,
      feeAccount: (await import("./helpers/stellar")).Keypair.random().publicKey(),
    });
    expect(unknownFee.status).toBe(400);
    expect(unknownFee.body.error).toBe(
      "The fee account is not activated on this network. It must be funded first.",
    );
    // Nothing of it moved the invoice.
    const [row] = await sql`select status from invoices where id = ${inv.id}`;
    expect(row.status).toBe("PENDING");
  });

  it("a smart wallet without enough USDC: the ledger's underfunded message, from the simulation", async () => {
    const f = await freelancer();
    const inv = await usdcInvoice(f, "61");
    const { signer, wallet } = await smartWallet();
    const res = await anon.post(`/api/payments/${inv.id}/pay-intent`, {
      senderPublicKey: wallet,
      feeAccount: signer.publicKey(),
      networkPassphrase: TESTNET,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(
      "Insufficient balance. Make sure the wallet has enough USDC for the amount, and XLM for reserve and fees.",
    );
  });
});

describe("verify-tx", () => {
  it("lists a smart wallet's asset contract transfer among the payments, from the C", async () => {
    const f = await freelancer();
    const { signer, wallet } = await smartWallet();
    // The wallet pays the freelancer 7.5 USDC directly (its entry signed by its key).
    const account = await server.getAccount(signer.publicKey());
    const tx = new TransactionBuilder(account, { fee: "100", networkPassphrase: TESTNET })
      .addOperation(transferOp(wallet, f.kp.publicKey(), "7.5"))
      .setTimeout(60)
      .build();
    const sim = await server.simulateTransaction(tx);
    if (!rpc.Api.isSimulationSuccess(sim)) throw new Error("simulation failed");
    const prepared = rpc.assembleTransaction(tx, sim).build();
    const latest = (await server.getLatestLedger()).sequence;
    const signed = await signContractPayment(
      {
        transactionXdr: prepared.toXDR(),
        contractPayment: { from: wallet, authEntries: [], authValidUntilLedger: latest + 50 },
      },
      signer,
    );
    await testnet.server.submitTransaction(signed);
    const hash = signed.hash().toString("hex");
    const res = await anon.post("/api/payments/verify-tx", {
      transactionHash: hash,
      network: "testnet",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ successful: true, hash, memoType: "none", memo: null });
    expect(res.body.payments).toEqual([
      {
        type: "contract_transfer",
        from: wallet,
        to: f.kp.publicKey(),
        amount: "7.5000000",
        assetCode: "USDC",
        assetIssuer: testnet.usdc.getIssuer(),
      },
    ]);
  });
});

describe("a smart wallet pays a USDC invoice (muxed)", () => {
  it("through submit: PAID once, the payment from the C, verify lists it, a refund returns to the C", async () => {
    const f = await freelancer();
    const inv = await usdcInvoice(f);
    const { signer, wallet } = await smartWallet();
    const intent = await anon.post(`/api/payments/${inv.id}/pay-intent`, {
      senderPublicKey: wallet,
      feeAccount: signer.publicKey(),
      networkPassphrase: TESTNET,
    });
    expect(intent.status).toBe(200);
    const signed = await signContractPayment(intent.body, signer);
    const hash = signed.hash().toString("hex");
    const submitted = await anon.post("/api/payments/submit", {
      invoiceId: inv.id,
      signedTransactionXdr: signed.toXDR(),
    });
    expect(submitted.body).toMatchObject({ success: true, status: "PAID", transactionHash: hash });
    expect(submitted.status).toBe(200);
    expect(await sacBalance(wallet)).toBe(String(35n * 10_000_000n));

    // Confirming it again and the watcher seeing it record nothing more.
    const again = await anon.post("/api/payments/confirm", {
      invoiceId: inv.id,
      transactionHash: hash,
    });
    expect(again.status).toBe(200);
    await tick();
    const rows = await sql`select from_wallet, to_wallet, amount::text, applied, operation_index
      from payments where invoice_id = ${inv.id}`;
    expect(rows).toEqual([
      {
        from_wallet: wallet,
        to_wallet: f.kp.publicKey(),
        amount: "25.0000000",
        applied: true,
        operation_index: 0,
      },
    ]);
    const [paid] =
      await sql`select status, payer_wallet, amount_paid::text from invoices where id = ${inv.id}`;
    expect(paid).toEqual({ status: "PAID", payer_wallet: wallet, amount_paid: "25.0000000" });
    const paidEvents =
      await sql`select count(*)::int as n from events where invoice_id = ${inv.id} and type = 'invoice.paid'`;
    expect(paidEvents[0].n).toBe(1);

    // The checkout's receipt and the owner's payment list name the C.
    const status = await anon.get(`/api/payments/${inv.id}/status`);
    expect(status.body).toMatchObject({ status: "PAID", payerWallet: wallet });
    expect(status.body.payments).toEqual([
      expect.objectContaining({ fromWallet: wallet, amount: "25.0000000", applied: true }),
    ]);
    const owner = await f.api.get(`/api/invoices/${inv.id}/owner`);
    expect(owner.body.payerWallet).toBe(wallet);
    expect(owner.body.payments).toEqual([
      expect.objectContaining({ fromWallet: wallet, amount: "25.0000000", applied: true }),
    ]);

    const verified = await anon.post("/api/payments/verify-tx", { transactionHash: hash });
    expect(verified.body.payments).toEqual([
      expect.objectContaining({ type: "contract_transfer", from: wallet, to: f.kp.publicKey() }),
    ]);

    // A refund of 5 goes back to the C, through its asset contract.
    const [payment] = await sql`select id from payments where invoice_id = ${inv.id}`;
    const built = await f.api.post(`/api/invoices/${inv.id}/payments/${payment.id}/refund`, {
      amount: "5",
    });
    expect(built.status).toBe(201);
    expect(built.body).toMatchObject({ destination: wallet, amount: "5" });
    const refundTx = TransactionBuilder.fromXDR(built.body.transactionXdr, TESTNET) as Transaction;
    expect(refundTx.source).toBe(f.kp.publicKey());
    expect(refundTx.operations[0].type).toBe("invokeHostFunction");
    refundTx.sign(f.kp);
    const refunded = await f.api.post("/api/refunds/submit", {
      refundId: built.body.refundId,
      signedTransactionXdr: refundTx.toXDR(),
    });
    expect(refunded.body).toMatchObject({ status: "CONFIRMED", amount: "5" });
    expect(refunded.status).toBe(200);
    expect(await sacBalance(wallet)).toBe(String(40n * 10_000_000n));
    const [after] = await sql`select amount_paid::text from invoices where id = ${inv.id}`;
    expect(after.amount_paid).toBe("20.0000000");
  });

  it("sent to the ledger by the wallet itself and never confirmed: the watcher finds it, PAID once", async () => {
    const f = await freelancer();
    const inv = await usdcInvoice(f, "7");
    const { signer, wallet } = await smartWallet();
    const intent = await anon.post(`/api/payments/${inv.id}/pay-intent`, {
      senderPublicKey: wallet,
      feeAccount: signer.publicKey(),
      networkPassphrase: TESTNET,
    });
    const signed = await signContractPayment(intent.body, signer);
    // Sent by the wallet, not through the service: no submit, no confirm, no memo. Only the
    // ledger (its payments, or RPC's transfer events with LEDGER_SOURCE=rpc) tells.
    await testnet.server.submitTransaction(signed);
    let row: Record<string, unknown> | undefined;
    for (let i = 0; i < 5; i++) {
      await tick();
      [row] = await sql`select status, payer_wallet, amount_paid::text from invoices
        where id = ${inv.id}`;
      if (row?.status === "PAID") break;
    }
    expect(row).toEqual({ status: "PAID", payer_wallet: wallet, amount_paid: "7.0000000" });
    await tick();
    const rows = await sql`select from_wallet, amount::text, applied from payments
      where invoice_id = ${inv.id}`;
    expect(rows).toEqual([{ from_wallet: wallet, amount: "7.0000000", applied: true }]);
  });

  it("sent to the ledger by the wallet itself: confirm by hash records it, from the C", async () => {
    const f = await freelancer();
    const inv = await usdcInvoice(f, "12");
    const { signer, wallet } = await smartWallet();
    const intent = await anon.post(`/api/payments/${inv.id}/pay-intent`, {
      senderPublicKey: wallet,
      feeAccount: signer.publicKey(),
      networkPassphrase: TESTNET,
    });
    const signed = await signContractPayment(intent.body, signer);
    await testnet.server.submitTransaction(signed);
    const confirmed = await anon.post("/api/payments/confirm", {
      invoiceId: inv.id,
      transactionHash: signed.hash().toString("hex"),
    });
    expect(confirmed.body).toMatchObject({ status: "confirmed" });
    const [row] = await sql`select status, payer_wallet from invoices where id = ${inv.id}`;
    expect(row).toEqual({ status: "PAID", payer_wallet: wallet });
  });
});
