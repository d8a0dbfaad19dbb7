/**
 * Stellar Asset Contract calls on the local ledger, through the SDK's own clients only:
 * `invokeHostFunction` transfers and mints of XLM/USDC between G accounts and C addresses
 * (local smart wallets), Soroban authorization (source-account and address credentials signed
 * with the SDK's `authorizeEntry`), `simulateTransaction` + `assembleTransaction`, CAP-67 events
 * in getEvents/getTransaction, Horizon's invoke_host_function records, and snapshots.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  Account,
  Address,
  Asset,
  authorizeEntry,
  Contract,
  Keypair,
  Memo,
  MuxedAccount,
  nativeToScVal,
  Operation,
  rpc,
  scValToNative,
  type Transaction,
  TransactionBuilder,
  xdr,
} from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLedger } from "../server";
import { balanceOf, buildTx, type Ctx, codes, funded, setup, submit } from "./helpers";

let ctx: Ctx;
let server: rpc.Server;
let xlmSac: string;
let usdcSac: string;

beforeAll(async () => {
  ctx = await setup();
  server = new rpc.Server(ctx.ledger.rpcUrl, { allowHttp: true });
  xlmSac = Asset.native().contractId(ctx.passphrase);
  usdcSac = ctx.usdc.contractId(ctx.passphrase);
});
afterAll(async () => {
  await ctx.ledger.stop();
});

const i128 = (stroops: bigint) => nativeToScVal(stroops, { type: "i128" });
const addr = (a: string) => new Address(a).toScVal();

/** POST /local/smart-wallets: the local smart wallet of `signer`. */
async function smartWallet(url: string, signer: string): Promise<string> {
  const res = await fetch(`${url}/local/smart-wallets`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ signer }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { contractId: string; signer: string };
  expect(body.signer).toBe(signer);
  return body.contractId;
}

/** An unsigned transaction from `source` calling `fn` on `contractId`. */
async function call(
  source: Keypair,
  contractId: string,
  fn: string,
  args: xdr.ScVal[],
  s: rpc.Server = server,
  passphrase = ctx.passphrase,
): Promise<Transaction> {
  const account = await s.getAccount(source.publicKey());
  return new TransactionBuilder(account, { fee: "100", networkPassphrase: passphrase })
    .addOperation(new Contract(contractId).call(fn, ...args))
    .setTimeout(60)
    .build();
}

/**
 * simulate → sign every address-credential entry with `signers` (SDK authorizeEntry) →
 * assemble → sign the envelope: what a wallet does.
 */
async function prepare(
  tx: Transaction,
  source: Keypair,
  signers: Keypair[] = [],
  opts: { validUntil?: number; s?: rpc.Server; passphrase?: string } = {},
): Promise<{ tx: Transaction; sim: rpc.Api.SimulateTransactionSuccessResponse }> {
  const s = opts.s ?? server;
  const passphrase = opts.passphrase ?? ctx.passphrase;
  const sim = await s.simulateTransaction(tx);
  if (!rpc.Api.isSimulationSuccess(sim)) throw new Error(`simulation failed: ${sim.error}`);
  const latest = (await s.getLatestLedger()).sequence;
  const validUntil = opts.validUntil ?? latest + 100;
  const auth = [];
  for (const entry of sim.result?.auth ?? []) {
    if (entry.credentials().switch().name !== "sorobanCredentialsAddress") {
      auth.push(entry);
      continue;
    }
    const who = Address.fromScAddress(entry.credentials().address().address()).toString();
    const signer = signers.find((k) => k.publicKey() === who) ?? signers[0];
    auth.push(await authorizeEntry(entry, signer, validUntil, passphrase));
  }
  const op = tx.operations[0] as { func: xdr.HostFunction };
  const withAuth = TransactionBuilder.cloneFrom(tx, { fee: tx.fee, networkPassphrase: passphrase })
    .clearOperations()
    .addOperation(Operation.invokeHostFunction({ func: op.func, auth }))
    .build();
  const assembled = rpc.assembleTransaction(withAuth, sim).build();
  assembled.sign(source);
  return { tx: assembled, sim };
}

/** sendTransaction, then poll getTransaction as the SDK does. */
async function send(tx: Transaction, s: rpc.Server = server) {
  const sent = await s.sendTransaction(tx);
  expect(sent.status, JSON.stringify(sent)).toBe("PENDING");
  return s.pollTransaction(sent.hash, { attempts: 50, sleepStrategy: () => 20 });
}

/** The SAC `balance(holder)` through simulation, in stroops. */
async function sacBalance(sac: string, holder: string, s = server, passphrase = ctx.passphrase) {
  const account = new Account(ctx.ledger.issuers.USDC.issuer, "1"); // simulation only
  const tx = new TransactionBuilder(account, { fee: "100", networkPassphrase: passphrase })
    .addOperation(new Contract(sac).call("balance", addr(holder)))
    .setTimeout(60)
    .build();
  const sim = await s.simulateTransaction(tx);
  if (!rpc.Api.isSimulationSuccess(sim)) throw new Error(sim.error);
  return scValToNative(sim.result?.retval ?? xdr.ScVal.scvVoid()) as bigint;
}

async function trustUsdc(kp: Keypair) {
  await submit(ctx, await buildTx(ctx, kp, [Operation.changeTrust({ asset: ctx.usdc })]));
}

const issuerKp = () => Keypair.fromSecret(ctx.ledger.issuers.USDC.secret);

/** The issuer's `mint(to, amount)` of USDC, a real transaction (source-account auth). */
async function mintUsdc(to: string, stroops: bigint) {
  const issuer = issuerKp();
  const { tx } = await prepare(
    await call(issuer, usdcSac, "mint", [addr(to), i128(stroops)]),
    issuer,
  );
  const res = await send(tx);
  if (res.status !== "SUCCESS") throw new Error(`mint failed: ${res.status}`);
  return res;
}

/** A funded smart wallet (C) holding `stroops` USDC, and its signer. */
async function usdcWallet(stroops: bigint) {
  const signer = Keypair.random();
  const wallet = await smartWallet(ctx.ledger.url, signer.publicKey());
  await mintUsdc(wallet, stroops);
  return { signer, wallet };
}

/** Keys (in order) and JSON types, recursively; arrays by their first element. */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 0 ? [] : [shape(v[0])];
  if (v === null || typeof v !== "object") return v === null ? "null" : typeof v;
  return Object.entries(v).map(([k, val]) => [k, shape(val)]);
}

function opCode(result: xdr.TransactionResult): string {
  const r = result.result();
  return r.results()[0].tr().invokeHostFunctionResult().switch().name;
}

describe("local smart wallets", () => {
  it("POST /local/smart-wallets is deterministic per signer and idempotent", async () => {
    const signer = Keypair.random().publicKey();
    const a = await smartWallet(ctx.ledger.url, signer);
    const b = await smartWallet(ctx.ledger.url, signer);
    expect(a).toBe(b);
    expect(a).toMatch(/^C[A-Z2-7]{55}$/);
    expect(await smartWallet(ctx.ledger.url, Keypair.random().publicKey())).not.toBe(a);
    expect(ctx.ledger.smartWallet(signer)).toBe(a);
    const bad = await fetch(`${ctx.ledger.url}/local/smart-wallets`, {
      method: "POST",
      body: JSON.stringify({ signer: "nope" }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { extras: { invalid_field: string } }).extras.invalid_field).toBe(
      "signer",
    );
  });
});

describe("funding a smart wallet", () => {
  it("POST /local/fund and LocalLedger.fund credit a C address with real SAC transactions (issuer mint, root transfer)", async () => {
    const wallet = await smartWallet(ctx.ledger.url, Keypair.random().publicKey());
    const res = await fetch(`${ctx.ledger.url}/local/fund`, {
      method: "POST",
      body: JSON.stringify({ account: wallet, assetCode: "USDC", amount: "10.5" }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { hash: string; account: string; amount: string };
    expect(body).toMatchObject({ account: wallet, amount: "10.5000000" });
    expect(await sacBalance(usdcSac, wallet)).toBe(105_000_000n);
    const [op] = (await ctx.server.operations().forTransaction(body.hash).call()).records;
    expect(op.type).toBe("invoke_host_function");
    const xlm = await ctx.ledger.fund(wallet, "2", "XLM");
    expect(xlm.kind === "applied" && xlm.record.successful).toBe(true);
    expect(await sacBalance(xlmSac, wallet)).toBe(20_000_000n);
  });
});

describe("SAC transfer through invokeHostFunction", () => {
  it("a G account pays a C address in XLM through Horizon's POST /transactions; fee = inclusion + resource fee", async () => {
    const payer = await funded(ctx);
    const wallet = await smartWallet(ctx.ledger.url, Keypair.random().publicKey());
    const tx = await call(payer, xlmSac, "transfer", [
      addr(payer.publicKey()),
      addr(wallet),
      i128(25_000_000n),
    ]);
    const { tx: ready, sim } = await prepare(tx, payer);
    // the payer is the source: source-account credentials, no signature needed
    expect(sim.result?.auth.map((a) => a.credentials().switch().name)).toEqual([
      "sorobanCredentialsSourceAccount",
    ]);
    const res = await submit(ctx, ready);
    expect(res.successful).toBe(true);
    const resourceFee = BigInt(sim.minResourceFee);
    expect(resourceFee).toBeGreaterThan(0n);
    expect(BigInt(res.fee_charged)).toBe(100n + resourceFee);
    expect(await sacBalance(xlmSac, wallet)).toBe(25_000_000n);
    const account = await ctx.server.loadAccount(payer.publicKey());
    const left = 10_000n * 10_000_000n - 25_000_000n - (100n + resourceFee);
    expect(balanceOf(account, Asset.native())).toBe(
      `${left / 10_000_000n}.${(left % 10_000_000n).toString().padStart(7, "0")}`,
    );
    // CAP-67 transfer event from G to C
    const { events } = await server.getEvents({
      startLedger: res.ledger,
      endLedger: res.ledger + 1,
      filters: [{ type: "contract", contractIds: [xlmSac] }],
    });
    expect(
      events.map((e) => ({ topic: e.topic.map(scValToNative), value: scValToNative(e.value) })),
    ).toEqual([{ topic: ["transfer", payer.publicKey(), wallet, "native"], value: 25_000_000n }]);
  });

  it("a smart wallet pays a G's muxed address in USDC with an auth entry signed by authorizeEntry (RPC sendTransaction)", async () => {
    const { signer, wallet } = await usdcWallet(1_000_000_000n);
    const payee = await funded(ctx);
    await trustUsdc(payee);
    const relayer = await funded(ctx); // pays the fee; not the payer
    const muxed = new MuxedAccount(new Account(payee.publicKey(), "0"), "18446744073709551615");
    const tx = await call(relayer, usdcSac, "transfer", [
      addr(wallet),
      addr(muxed.accountId()),
      i128(123_456_789n),
    ]);
    const { tx: ready, sim } = await prepare(tx, relayer, [signer]);
    // the wallet is not the source: address credentials with a fresh nonce and a void signature
    const [entry] = sim.result?.auth ?? [];
    expect(entry.credentials().switch().name).toBe("sorobanCredentialsAddress");
    expect(Address.fromScAddress(entry.credentials().address().address()).toString()).toBe(wallet);
    expect(entry.credentials().address().signature().switch().name).toBe("scvVoid");
    // footprint: the SAC instance read-only; the balances and the nonce read-write
    const fp = sim.transactionData.build().resources().footprint();
    expect(fp.readOnly().map((k) => k.switch().name)).toContain("contractData");
    expect(
      fp
        .readWrite()
        .map((k) => k.switch().name)
        .sort(),
    ).toEqual(["contractData", "contractData", "trustline"].sort());

    const res = await send(ready);
    expect(res.status).toBe("SUCCESS");
    if (res.status !== "SUCCESS") return;
    expect(opCode(res.resultXdr)).toBe("invokeHostFunctionSuccess");
    // the SDK parses the CAP-67 event from the transaction's events
    const [[event]] = res.events.contractEventsXdr;
    expect(event.body().v0().topics().map(scValToNative)).toEqual([
      "transfer",
      wallet,
      payee.publicKey(),
      `USDC:${ctx.usdc.getIssuer()}`,
    ]);
    expect(scValToNative(event.body().v0().data())).toEqual({
      amount: 123_456_789n,
      to_muxed_id: 18446744073709551615n,
    });

    // getEvents: from = C, to = G, to_muxed_id
    const { events } = await server.getEvents({
      startLedger: res.ledger,
      endLedger: res.ledger + 1,
      filters: [
        {
          type: "contract",
          contractIds: [usdcSac],
          topics: [["AAAADwAAAAh0cmFuc2Zlcg==", addr(wallet).toXDR("base64"), "*", "*"]],
        },
      ],
    });
    expect(events).toHaveLength(1);
    expect(events[0].txHash).toBe(res.txHash);
    expect(events[0].topic.map(scValToNative)).toEqual([
      "transfer",
      wallet,
      payee.publicKey(),
      `USDC:${ctx.usdc.getIssuer()}`,
    ]);
    expect(scValToNative(events[0].value)).toEqual({
      amount: 123_456_789n,
      to_muxed_id: 18446744073709551615n,
    });

    // balances moved
    expect(await sacBalance(usdcSac, wallet)).toBe(1_000_000_000n - 123_456_789n);
    const account = await ctx.server.loadAccount(payee.publicKey());
    expect(balanceOf(account, ctx.usdc)).toBe("12.3456789");

    // Horizon: the payment of that transaction, as Horizon 23 shows a SAC transfer
    const payments = await ctx.server.payments().forTransaction(res.txHash).call();
    expect(payments.records).toHaveLength(1);
    const p = payments.records[0] as unknown as Record<string, unknown>;
    expect(p).toMatchObject({
      type: "invoke_host_function",
      type_i: 24,
      transaction_successful: true,
      source_account: relayer.publicKey(),
      function: "HostFunctionTypeHostFunctionTypeInvokeContract",
      address: "",
      salt: "",
      asset_balance_changes: [
        {
          asset_type: "credit_alphanum4",
          asset_code: "USDC",
          asset_issuer: ctx.usdc.getIssuer(),
          type: "transfer",
          from: wallet,
          to: payee.publicKey(),
          amount: "12.3456789",
          destination_muxed_id: "18446744073709551615",
        },
      ],
    });
    // keys, order and JSON types of Horizon's own record of such a payment (stellar-docs)
    const { _source, ...sample } = JSON.parse(
      readFileSync(
        join(import.meta.dirname, "..", "fixtures", "invoke-host-function-payment.json"),
        "utf8",
      ),
    );
    void _source;
    const raw = (await (
      await fetch(`${ctx.ledger.url}/transactions/${res.txHash}/payments`)
    ).json()) as {
      _embedded: { records: unknown[] };
    };
    expect(shape(raw._embedded.records[0])).toEqual(shape(sample));
    expect((p.parameters as Array<{ type: string }>).map((x) => x.type)).toEqual([
      "Address",
      "Sym",
      "Address",
      "Address",
      "I128",
    ]);
    // the payee sees it among its account's payments; /operations and the tx resource too
    const mine = await ctx.server.payments().forAccount(payee.publicKey()).order("desc").call();
    expect(mine.records[0].transaction_hash).toBe(res.txHash);
    const ops = await ctx.server.operations().forTransaction(res.txHash).call();
    expect(ops.records[0].type).toBe("invoke_host_function");
    const txRecord = await ctx.server.transactions().transaction(res.txHash).call();
    expect(txRecord.successful).toBe(true);
    expect(txRecord.operation_count).toBe(1);
  });

  it("a G holding USDC pays a smart wallet; the wallet then pays back with its signer's authorization", async () => {
    const holder = await funded(ctx);
    await trustUsdc(holder);
    await ctx.ledger.fund(holder.publicKey(), "50", "USDC");
    const signer = Keypair.random();
    const wallet = await smartWallet(ctx.ledger.url, signer.publicKey());
    const { tx: pay } = await prepare(
      await call(holder, usdcSac, "transfer", [
        addr(holder.publicKey()),
        addr(wallet),
        i128(200_000_000n),
      ]),
      holder,
    );
    expect((await send(pay)).status).toBe("SUCCESS");
    const { tx: back } = await prepare(
      await call(holder, usdcSac, "transfer", [
        addr(wallet),
        addr(holder.publicKey()),
        i128(50_000_000n),
      ]),
      holder,
      [signer],
    );
    expect((await send(back)).status).toBe("SUCCESS");
    expect(await sacBalance(usdcSac, wallet)).toBe(150_000_000n);
    expect(balanceOf(await ctx.server.loadAccount(holder.publicKey()), ctx.usdc)).toBe(
      "35.0000000",
    );
    // the issuer's mint shows as mint (no `from`) in Horizon and getEvents
    const minted = await mintUsdc(wallet, 7n);
    const [m] = (await ctx.server.payments().forTransaction(minted.txHash).call())
      .records as unknown as Array<Record<string, unknown>>;
    expect(m.asset_balance_changes).toEqual([
      {
        asset_type: "credit_alphanum4",
        asset_code: "USDC",
        asset_issuer: ctx.usdc.getIssuer(),
        type: "mint",
        to: wallet,
        amount: "0.0000007",
      },
    ]);
    const { events } = await server.getEvents({
      startLedger: minted.ledger,
      endLedger: minted.ledger + 1,
      filters: [{ type: "contract", contractIds: [usdcSac] }],
    });
    expect(events.map((e) => e.topic.map(scValToNative))).toEqual([
      ["mint", wallet, `USDC:${ctx.usdc.getIssuer()}`],
    ]);
  });
});

describe("fee bumps and transaction lists", () => {
  it("a sponsor fee-bumps a prepared SAC transfer; getTransactions lists it with its events", async () => {
    const payer = await funded(ctx);
    const sponsor = await funded(ctx);
    const wallet = await smartWallet(ctx.ledger.url, Keypair.random().publicKey());
    const { tx: inner, sim } = await prepare(
      await call(payer, xlmSac, "transfer", [addr(payer.publicKey()), addr(wallet), i128(3n)]),
      payer,
    );
    const bump = TransactionBuilder.buildFeeBumpTransaction(sponsor, "100", inner, ctx.passphrase);
    bump.sign(sponsor);
    const res = await submit(ctx, bump);
    expect(res.successful).toBe(true);
    // the sponsor pays the inclusion fee of 2 operations (as for any fee bump) + the resource fee
    expect(BigInt(res.fee_charged)).toBe(200n + BigInt(sim.minResourceFee));
    expect(await sacBalance(xlmSac, wallet)).toBe(3n);
    const list = await server.getTransactions({
      startLedger: res.ledger,
      pagination: { limit: 5 },
    });
    const found = list.transactions.find((t) => t.txHash === res.hash);
    expect(found?.status).toBe("SUCCESS");
    expect(found?.feeBump).toBe(true);
    expect(
      found?.events.contractEventsXdr[0].map((e) => e.body().v0().topics().map(scValToNative)),
    ).toEqual([["transfer", payer.publicKey(), wallet, "native"]]);
    expect(found?.returnValue?.switch().name).toBe("scvVoid");
  });
});

describe("Horizon streams", () => {
  it("an account's payments stream delivers a smart wallet's SAC transfer to it", async () => {
    const { signer, wallet } = await usdcWallet(100_000_000n);
    const payee = await funded(ctx);
    await trustUsdc(payee);
    const listeners = ctx.ledger.core.closeListenerCount();
    const received: Array<Record<string, unknown>> = [];
    const stop = ctx.server
      .payments()
      .forAccount(payee.publicKey())
      .cursor("now")
      .stream({
        onmessage: (r) => {
          received.push(r as unknown as Record<string, unknown>);
        },
      });
    try {
      await waitFor(() => ctx.ledger.core.closeListenerCount() > listeners);
      const { tx } = await prepare(
        await call(payee, usdcSac, "transfer", [addr(wallet), addr(payee.publicKey()), i128(5n)]),
        payee,
        [signer],
      );
      const res = await send(tx);
      await waitFor(() => received.length >= 1);
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({
        type: "invoke_host_function",
        transaction_hash: res.txHash,
        asset_balance_changes: [
          expect.objectContaining({
            type: "transfer",
            from: wallet,
            to: payee.publicKey(),
            amount: "0.0000005",
          }),
        ],
      });
    } finally {
      stop();
    }
  });
});

async function waitFor(cond: () => boolean, ms = 5000) {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("authorization failures give the real result codes", () => {
  it("a replayed nonce fails: INVOKE_HOST_FUNCTION_TRAPPED (op_trapped), nothing moves", async () => {
    const { signer, wallet } = await usdcWallet(500_000_000n);
    const payee = await funded(ctx);
    await trustUsdc(payee);
    const relayer = await funded(ctx);
    const { tx: first } = await prepare(
      await call(relayer, usdcSac, "transfer", [
        addr(wallet),
        addr(payee.publicKey()),
        i128(10_000_000n),
      ]),
      relayer,
      [signer],
    );
    expect((await send(first)).status).toBe("SUCCESS");
    // the same signed auth entry (same nonce) in a new transaction
    const op = first.operations[0] as Operation.InvokeHostFunction;
    const again = await call(relayer, usdcSac, "transfer", [
      addr(wallet),
      addr(payee.publicKey()),
      i128(10_000_000n),
    ]);
    const replay = TransactionBuilder.cloneFrom(again, {
      fee: first.fee,
      networkPassphrase: ctx.passphrase,
      sorobanData: first.toEnvelope().v1().tx().ext().sorobanData(),
    })
      .clearOperations()
      .addOperation(Operation.invokeHostFunction({ func: op.func, auth: op.auth ?? [] }))
      .build();
    replay.sign(relayer);
    expect(await codes(submit(ctx, replay))).toEqual({
      transaction: "tx_failed",
      operations: ["op_trapped"],
    });
    const res = await server.getTransaction(replay.hash().toString("hex"));
    expect(res.status).toBe("FAILED");
    if (res.status !== "FAILED") return;
    expect(opCode(res.resultXdr)).toBe("invokeHostFunctionTrapped");
    expect(await sacBalance(usdcSac, wallet)).toBe(490_000_000n);
    // failed transactions emit no events
    const { events } = await server.getEvents({
      startLedger: res.ledger,
      filters: [{ type: "contract", contractIds: [usdcSac] }],
    });
    expect(events.filter((e) => e.txHash === replay.hash().toString("hex"))).toEqual([]);
  });

  it("an expired auth entry fails with op_trapped", async () => {
    const { signer, wallet } = await usdcWallet(100_000_000n);
    const relayer = await funded(ctx);
    await trustUsdc(relayer);
    const latest = (await server.getLatestLedger()).sequence;
    const { tx } = await prepare(
      await call(relayer, usdcSac, "transfer", [addr(wallet), addr(relayer.publicKey()), i128(1n)]),
      relayer,
      [signer],
      { validUntil: latest }, // the transaction lands in latest + 1
    );
    expect(await codes(submit(ctx, tx))).toEqual({
      transaction: "tx_failed",
      operations: ["op_trapped"],
    });
  });

  it("an entry signed by another key, or with a bad signature, fails with op_trapped", async () => {
    const { wallet } = await usdcWallet(100_000_000n);
    const relayer = await funded(ctx);
    await trustUsdc(relayer);
    const intruder = Keypair.random();
    const { tx } = await prepare(
      await call(relayer, usdcSac, "transfer", [addr(wallet), addr(relayer.publicKey()), i128(1n)]),
      relayer,
      [intruder],
    );
    expect(await codes(submit(ctx, tx))).toEqual({
      transaction: "tx_failed",
      operations: ["op_trapped"],
    });

    // a G payer's entry whose signature bytes were altered
    const payer = await funded(ctx);
    const unsigned = await call(relayer, xlmSac, "transfer", [
      addr(payer.publicKey()),
      addr(relayer.publicKey()),
      i128(1n),
    ]);
    const { tx: good } = await prepare(unsigned, relayer, [payer]);
    const op = good.operations[0] as Operation.InvokeHostFunction;
    const [entry] = op.auth ?? [];
    const sig = entry.credentials().address().signature().vec()?.[0].map()?.[1].val().bytes();
    if (!sig) throw new Error("no signature");
    sig[0] ^= 0xff;
    const tampered = TransactionBuilder.cloneFrom(good, {
      fee: good.fee,
      networkPassphrase: ctx.passphrase,
      sorobanData: good.toEnvelope().v1().tx().ext().sorobanData(),
    })
      .clearOperations()
      .addOperation(Operation.invokeHostFunction({ func: op.func, auth: [entry] }))
      .build();
    tampered.sign(relayer);
    expect(await codes(submit(ctx, tampered))).toEqual({
      transaction: "tx_failed",
      operations: ["op_trapped"],
    });
  });

  it("a transfer from a G that is not the source, without an auth entry, fails with op_trapped", async () => {
    const victim = await funded(ctx);
    const thief = await funded(ctx);
    const { tx: ok, sim } = await prepare(
      await call(thief, xlmSac, "transfer", [
        addr(victim.publicKey()),
        addr(thief.publicKey()),
        i128(1n),
      ]),
      thief,
      [victim],
    );
    const op = ok.operations[0] as Operation.InvokeHostFunction;
    const noAuth = TransactionBuilder.cloneFrom(ok, {
      fee: ok.fee,
      networkPassphrase: ctx.passphrase,
      sorobanData: sim.transactionData.build(),
    })
      .clearOperations()
      .addOperation(Operation.invokeHostFunction({ func: op.func, auth: [] }))
      .build();
    noAuth.sign(thief);
    expect(await codes(submit(ctx, noAuth))).toEqual({
      transaction: "tx_failed",
      operations: ["op_trapped"],
    });
  });
});

describe("unfunded transfers", () => {
  it("simulation answers an error; submitted anyway, the transfer fails with op_trapped", async () => {
    const signer = Keypair.random();
    const wallet = await smartWallet(ctx.ledger.url, signer.publicKey());
    const relayer = await funded(ctx);
    await trustUsdc(relayer);
    const unfunded = await call(relayer, usdcSac, "transfer", [
      addr(wallet),
      addr(relayer.publicKey()),
      i128(10_000_000n),
    ]);
    const sim = await server.simulateTransaction(unfunded);
    expect(rpc.Api.isSimulationError(sim)).toBe(true);
    if (rpc.Api.isSimulationError(sim)) expect(sim.error).toContain("Error(Contract, #10)");
    await expect(server.prepareTransaction(unfunded)).rejects.toThrow(/Error\(Contract, #10\)/);

    // a G payer without a USDC trustline: the SAC's trustline-missing error
    const noTrust = await funded(ctx);
    const sim2 = await server.simulateTransaction(
      await call(noTrust, usdcSac, "transfer", [addr(noTrust.publicKey()), addr(wallet), i128(1n)]),
    );
    expect(rpc.Api.isSimulationError(sim2) && sim2.error).toContain("Error(Contract, #13)");

    // fund the wallet with 1 unit, simulate 1 unit, then submit a transfer of 2 with that data
    await mintUsdc(wallet, 10_000_000n);
    const { tx: one, sim: oneSim } = await prepare(unfunded, relayer, [signer]);
    expect((await send(one)).status).toBe("SUCCESS");
    const two = await call(relayer, usdcSac, "transfer", [
      addr(wallet),
      addr(relayer.publicKey()),
      i128(20_000_000n),
    ]);
    const [template] = oneSim.result?.auth ?? [];
    const entry = new xdr.SorobanAuthorizationEntry({
      credentials: xdr.SorobanCredentials.sorobanCredentialsAddress(
        new xdr.SorobanAddressCredentials({
          address: new Address(wallet).toScAddress(),
          nonce: xdr.Int64.fromString("42"),
          signatureExpirationLedger: 0,
          signature: xdr.ScVal.scvVoid(),
        }),
      ),
      rootInvocation: new xdr.SorobanAuthorizedInvocation({
        function: xdr.SorobanAuthorizedFunction.sorobanAuthorizedFunctionTypeContractFn(
          (two.operations[0] as Operation.InvokeHostFunction).func.invokeContract(),
        ),
        subInvocations: [],
      }),
    });
    void template;
    const signed = await authorizeEntry(
      entry,
      signer,
      (await server.getLatestLedger()).sequence + 10,
      ctx.passphrase,
    );
    // footprint with this nonce: the simulation's data, its nonce key replaced
    const data = oneSim.transactionData.build();
    const fp = data.resources().footprint();
    const nonceKey = xdr.LedgerKey.contractData(
      new xdr.LedgerKeyContractData({
        contract: new Address(wallet).toScAddress(),
        key: xdr.ScVal.scvLedgerKeyNonce(new xdr.ScNonceKey({ nonce: xdr.Int64.fromString("42") })),
        durability: xdr.ContractDataDurability.temporary(),
      }),
    );
    fp.readWrite(
      fp
        .readWrite()
        .filter(
          (k) =>
            k.switch().name !== "contractData" ||
            k.contractData().key().switch().name !== "scvLedgerKeyNonce",
        )
        .concat([nonceKey]),
    );
    const tooMuch = TransactionBuilder.cloneFrom(two, {
      fee: "100",
      networkPassphrase: ctx.passphrase,
      sorobanData: data,
    })
      .clearOperations()
      .addOperation(
        Operation.invokeHostFunction({
          func: (two.operations[0] as Operation.InvokeHostFunction).func,
          auth: [signed],
        }),
      )
      .build();
    tooMuch.sign(relayer);
    const res = await send(tooMuch);
    expect(res.status).toBe("FAILED");
    if (res.status === "FAILED") expect(opCode(res.resultXdr)).toBe("invokeHostFunctionTrapped");
    expect(await sacBalance(usdcSac, wallet)).toBe(0n);
  });
});

describe("calls the asset contracts do not accept", () => {
  it("a wrong argument type, a muxed `from`, an unknown function or contract: simulation errors", async () => {
    const payer = await funded(ctx);
    const muxed = new MuxedAccount(new Account(payer.publicKey(), "0"), "7").accountId();
    const wallet = await smartWallet(ctx.ledger.url, Keypair.random().publicKey());
    const cases: Array<[string, string, xdr.ScVal[], RegExp]> = [
      [
        xlmSac,
        "transfer",
        [addr(payer.publicKey()), addr(wallet), nativeToScVal(1, { type: "u64" })],
        /Error\(Value, UnexpectedType\)/,
      ],
      [xlmSac, "transfer", [addr(muxed), addr(wallet), i128(1n)], /Error\(Value, UnexpectedType\)/],
      [
        xlmSac,
        "transfer",
        [addr(payer.publicKey()), addr(wallet), i128(-1n)],
        /Error\(Contract, #8\)/,
      ],
      [xlmSac, "burn_everything", [], /Error\(Value, UnexpectedType\)/],
      [xlmSac, "mint", [addr(wallet), i128(1n)], /Error\(Contract, #2\)/],
      [
        wallet,
        "transfer",
        [addr(payer.publicKey()), addr(wallet), i128(1n)],
        /Error\(Storage, MissingValue\)/,
      ],
    ];
    for (const [contract, fn, args, error] of cases) {
      const sim = await server.simulateTransaction(await call(payer, contract, fn, args));
      expect(rpc.Api.isSimulationError(sim) ? sim.error : "no error", `${fn} ${contract}`).toMatch(
        error,
      );
    }
    // and `balance` answers through simulation without auth or fees
    const tx = await call(payer, xlmSac, "balance", [addr(wallet)]);
    const sim = await server.simulateTransaction(tx);
    expect(
      rpc.Api.isSimulationSuccess(sim) && scValToNative(sim.result?.retval ?? xdr.ScVal.scvVoid()),
    ).toBe(0n);
  });

  it("someone else's mint (not the issuer) fails with op_trapped", async () => {
    const wallet = await smartWallet(ctx.ledger.url, Keypair.random().publicKey());
    const forger = await funded(ctx);
    const tx = await call(forger, usdcSac, "mint", [addr(wallet), i128(1_000n)]);
    const sim = await server.simulateTransaction(tx);
    // the simulation records the issuer's address credentials: only the issuer can sign them
    expect(
      rpc.Api.isSimulationSuccess(sim) && sim.result?.auth[0].credentials().switch().name,
    ).toBe("sorobanCredentialsAddress");
    const { tx: forged } = await prepare(tx, forger, [forger]);
    expect(await codes(submit(ctx, forged))).toEqual({
      transaction: "tx_failed",
      operations: ["op_trapped"],
    });
    expect(await sacBalance(usdcSac, wallet)).toBe(0n);
  });
});

describe("transaction-level Soroban rules", () => {
  it("a Soroban operation beside another operation is tx_malformed; without SorobanTransactionData too", async () => {
    const payer = await funded(ctx);
    const transfer = new Contract(xlmSac).call(
      "transfer",
      addr(payer.publicKey()),
      addr(payer.publicKey()),
      i128(1n),
    );
    const mixed = await buildTx(ctx, payer, [
      transfer,
      Operation.payment({ destination: payer.publicKey(), asset: Asset.native(), amount: "1" }),
    ]);
    expect(await codes(submit(ctx, mixed))).toEqual({ transaction: "tx_malformed" });
    const bare = await buildTx(ctx, payer, [transfer]);
    expect(await codes(submit(ctx, bare))).toEqual({ transaction: "tx_malformed" });
    // RPC: ERROR with the same result
    const sent = await server.sendTransaction(bare);
    expect(sent.status).toBe("ERROR");
    expect(sent.errorResult?.result().switch().name).toBe("txMalformed");
  });

  it("a memo or a muxed source on a Soroban transaction is tx_malformed (CAP-67)", async () => {
    const payer = await funded(ctx);
    const wallet = await smartWallet(ctx.ledger.url, Keypair.random().publicKey());
    const { tx: ok, sim } = await prepare(
      await call(payer, xlmSac, "transfer", [addr(payer.publicKey()), addr(wallet), i128(1n)]),
      payer,
    );
    const op = ok.operations[0] as Operation.InvokeHostFunction;
    const rebuild = (account: Account | MuxedAccount, memo?: Memo) => {
      let b = new TransactionBuilder(account, {
        fee: "100",
        networkPassphrase: ctx.passphrase,
        sorobanData: sim.transactionData.build(),
      })
        .addOperation(Operation.invokeHostFunction({ func: op.func, auth: op.auth ?? [] }))
        .setTimeout(60);
      if (memo) b = b.addMemo(memo);
      const tx = b.build();
      tx.sign(payer);
      return tx;
    };
    const account = await ctx.server.loadAccount(payer.publicKey());
    const plain = () => new Account(payer.publicKey(), account.sequenceNumber());
    expect(await codes(submit(ctx, rebuild(plain(), Memo.id("42"))))).toEqual({
      transaction: "tx_malformed",
    });
    const muxed = new MuxedAccount(new Account(payer.publicKey(), account.sequenceNumber()), "42");
    expect(await codes(submit(ctx, rebuild(muxed)))).toEqual({ transaction: "tx_malformed" });
    // without them it goes through
    expect((await submit(ctx, rebuild(plain()))).successful).toBe(true);
  });

  it("a declared resource fee below the non-refundable fee is tx_soroban_invalid", async () => {
    const payer = await funded(ctx);
    const { sim } = await prepare(
      await call(payer, xlmSac, "transfer", [addr(payer.publicKey()), addr(xlmSac), i128(1n)]),
      payer,
    );
    const data = sim.transactionData.setResourceFee(1n).build();
    const tx = await call(payer, xlmSac, "transfer", [
      addr(payer.publicKey()),
      addr(xlmSac),
      i128(1n),
    ]);
    const cheap = TransactionBuilder.cloneFrom(tx, {
      fee: "100",
      networkPassphrase: ctx.passphrase,
      sorobanData: data,
    })
      .clearOperations()
      .addOperation(
        Operation.invokeHostFunction({
          func: (tx.operations[0] as Operation.InvokeHostFunction).func,
          auth: sim.result?.auth ?? [],
        }),
      )
      .build();
    cheap.sign(payer);
    expect(await codes(submit(ctx, cheap))).toEqual({ transaction: "tx_soroban_invalid" });
  });
});

describe("snapshots", () => {
  it("keep contract balances, smart wallets and used nonces", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ledger-soroban-"));
    const snapshotFile = join(dir, "testnet.json");
    const passphrase = "Test SDF Network ; September 2015";
    const issuers = { USDC: ctx.ledger.issuers.USDC.secret, EURC: ctx.ledger.issuers.EURC.secret };
    try {
      const first = await startLedger({
        networkPassphrase: passphrase,
        closeIntervalMs: 0,
        closeOnSubmit: true,
        snapshotFile,
        issuers,
      });
      const s1 = new rpc.Server(first.rpcUrl, { allowHttp: true });
      const signer = Keypair.random();
      const wallet = await smartWallet(first.url, signer.publicKey());
      const relayer = Keypair.random();
      await fetch(`${first.url}/friendbot?addr=${relayer.publicKey()}`);
      const sac = Asset.native().contractId(passphrase);
      const { tx: fund } = await prepare(
        await call(
          relayer,
          sac,
          "transfer",
          [addr(relayer.publicKey()), addr(wallet), i128(90_000_000n)],
          s1,
        ),
        relayer,
        [],
        { s: s1 },
      );
      expect((await send(fund, s1)).status).toBe("SUCCESS");
      const { tx: spend } = await prepare(
        await call(
          relayer,
          sac,
          "transfer",
          [addr(wallet), addr(relayer.publicKey()), i128(30_000_000n)],
          s1,
        ),
        relayer,
        [signer],
        { s: s1 },
      );
      expect((await send(spend, s1)).status).toBe("SUCCESS");
      await first.stop();

      const second = await startLedger({
        networkPassphrase: passphrase,
        closeIntervalMs: 0,
        closeOnSubmit: true,
        snapshotFile,
        issuers,
      });
      try {
        const s2 = new rpc.Server(second.rpcUrl, { allowHttp: true });
        expect(await smartWallet(second.url, signer.publicKey())).toBe(wallet);
        expect(await sacBalance(sac, wallet, s2, passphrase)).toBe(60_000_000n);
        // the nonce used before the restart is still used: the same entry cannot be replayed
        const op = spend.operations[0] as Operation.InvokeHostFunction;
        const again = await call(
          relayer,
          sac,
          "transfer",
          [addr(wallet), addr(relayer.publicKey()), i128(30_000_000n)],
          s2,
        );
        const replay = TransactionBuilder.cloneFrom(again, {
          fee: spend.fee,
          networkPassphrase: passphrase,
          sorobanData: spend.toEnvelope().v1().tx().ext().sorobanData(),
        })
          .clearOperations()
          .addOperation(Operation.invokeHostFunction({ func: op.func, auth: op.auth ?? [] }))
          .build();
        replay.sign(relayer);
        const res = await send(replay, s2);
        expect(res.status).toBe("FAILED");
        // and the wallet can still pay with a fresh authorization
        const { tx: fresh } = await prepare(
          await call(
            relayer,
            sac,
            "transfer",
            [addr(wallet), addr(relayer.publicKey()), i128(10_000_000n)],
            s2,
          ),
          relayer,
          [signer],
          { s: s2 },
        );
        expect((await send(fresh, s2)).status).toBe("SUCCESS");
        expect(await sacBalance(sac, wallet, s2, passphrase)).toBe(50_000_000n);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
