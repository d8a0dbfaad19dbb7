import fs from "node:fs";
import path from "node:path";
import {
  Asset,
  Horizon,
  Keypair,
  Memo,
  MuxedAccount,
  Operation,
  TransactionBuilder,
} from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalLedger, startLedger } from "@/ledger/server";
import { LedgerSourceError } from "../errors";
import type { LedgerSource } from "../interface";
import { rpcFor } from "./client";
import { eventFilters, firstUnreadLedger, RPC_WALLET_FILTER_LIMIT, rpcSourceOf } from "./index";
import { pageFromEvents, sacContracts } from "./transform";

const fixture = (name: string) =>
  JSON.parse(
    fs.readFileSync(path.join(import.meta.dirname, "../../../ledger/fixtures/rpc", name), "utf8"),
  );

describe("pageFromEvents (Stellar RPC's own getEvents sample)", () => {
  it("reads two native transfers of one transaction as its payments, to be read whole", () => {
    const { response } = fixture("getEvents.json");
    const passphrase = "Test SDF Network ; September 2015";
    const contracts = sacContracts(passphrase, [{ code: "XLM", issuer: null }]);
    const page = pageFromEvents(response.result, contracts, "199616", 2);
    expect(page.full).toBe(true);
    expect(page.read).toBe(2);
    expect(page.cursor).toBe(response.result.events[1].id);
    expect(page.transactions).toHaveLength(1);
    expect(page.transactions[0].transaction.operations).toHaveLength(2);
    const [first] = page.transactions;
    expect(first.maybeCut).toBe(true);
    expect(first.transaction.hash).toBe(response.result.events[0].txHash);
    expect(first.transaction.ledger).toBe(3727845);
    expect(first.transaction.createdAt.toISOString()).toBe("2026-07-21T18:01:10.000Z");
    const op = first.transaction.operations[0];
    expect(op.assetCode).toBe("XLM");
    expect(op.assetIssuer).toBeNull();
    // i128 0xB2D05E00 stroops = 300 XLM
    expect(op.amount).toBe("300.0000000");
    expect(op.from).toMatch(/^G/);
    expect(op.to).toMatch(/^C/);
    // Horizon's operation id: the event TOID + 1
    expect(op.id).toBe((BigInt(response.result.events[0].id.split("-")[0]) + 1n).toString());
  });

  it("ignores events of contracts that are not ours, even with a transfer topic", () => {
    const { response } = fixture("getEvents.json");
    const contracts = sacContracts("Public Global Stellar Network ; September 2015", [
      { code: "XLM", issuer: null },
    ]);
    const page = pageFromEvents(response.result, contracts, "1", 10);
    expect(page.transactions).toEqual([]);
    expect(page.full).toBe(false);
  });

  it("a cursor's first unread ledger", () => {
    expect(firstUnreadLedger("120")).toBe(120);
    const toid = (ledger: number, low: bigint) => ((BigInt(ledger) << 32n) | low).toString();
    expect(firstUnreadLedger(`${toid(7, 0x3001n).padStart(19, "0")}-0000000000`)).toBe(7);
    expect(firstUnreadLedger(`${toid(7, 0xffffffffn).padStart(19, "0")}-9999999999`)).toBe(8);
  });
});

describe("the RPC source on the local ledger (real signed transactions, real RPC bodies)", () => {
  let ledger: LocalLedger;
  let horizon: Horizon.Server;
  let source: LedgerSource;
  let passphrase: string;
  let usdc: Asset;
  let payer: Keypair;
  let wallet: Keypair;

  const build = async (
    signer: Keypair,
    ops: ReturnType<typeof Operation.payment>[],
    memo?: Memo,
  ) => {
    const account = await horizon.loadAccount(signer.publicKey());
    let b = new TransactionBuilder(account, { fee: "100", networkPassphrase: passphrase });
    for (const op of ops) b = b.addOperation(op);
    if (memo) b = b.addMemo(memo);
    const tx = b.setTimeout(60).build();
    tx.sign(signer);
    return tx;
  };
  /** The page of payments of the ledger the transaction was applied in. */
  const pageOf = async (ledgerSeq: number) => source.paymentsPage(String(ledgerSeq), 200);

  beforeAll(async () => {
    ledger = await startLedger({
      networkPassphrase: "Test SDF Network ; September 2015",
      closeIntervalMs: 0,
      closeOnSubmit: true,
    });
    passphrase = ledger.networkPassphrase;
    horizon = new Horizon.Server(ledger.url, { allowHttp: true });
    usdc = new Asset("USDC", ledger.issuers.USDC.issuer);
    const config = {
      rpc: { testnet: ledger.rpcUrl, mainnet: undefined },
      horizon: { timeoutMs: 5000 },
    };
    const contracts = sacContracts(passphrase, [
      { code: "XLM", issuer: null },
      { code: "USDC", issuer: usdc.getIssuer() },
    ]);
    source = rpcSourceOf(rpcFor(config, "testnet"), contracts, {
      account: async () => null,
      baseFee: async () => 100,
      strictReceivePaths: async () => [],
    });
    payer = Keypair.random();
    wallet = Keypair.random();
    await horizon.friendbot(payer.publicKey()).call();
    await horizon.friendbot(wallet.publicKey()).call();
    const trust = await build(wallet, [Operation.changeTrust({ asset: usdc })]);
    await source.submit(trust.toXDR());
  });
  afterAll(async () => {
    await ledger?.stop();
  });

  it("a classic payment with a text memo: the page names it, the whole read is exact", async () => {
    const tx = await build(
      payer,
      [
        Operation.payment({
          destination: wallet.publicKey(),
          asset: Asset.native(),
          amount: "12.5",
        }),
      ],
      Memo.text("INV-0001"),
    );
    const sent = await source.submit(tx.toXDR());
    expect(sent).toMatchObject({ hash: tx.hash().toString("hex"), successful: true });
    const page = await pageOf(sent.ledger);
    const seen = page.transactions.find((t) => t.transaction.hash === sent.hash);
    expect(seen?.maybeCut).toBe(true);
    expect(seen?.transaction).toMatchObject({
      memoType: "text",
      memo: "INV-0001",
      successful: true,
    });
    expect(seen?.transaction.operations).toEqual([
      expect.objectContaining({
        from: payer.publicKey(),
        to: wallet.publicKey(),
        amount: "12.5000000",
        assetCode: "XLM",
        assetIssuer: null,
        index: 0,
      }),
    ]);
    const whole = await source.transaction(sent.hash);
    expect(whole).toMatchObject({
      hash: sent.hash,
      innerHash: null,
      successful: true,
      memoType: "text",
      memo: "INV-0001",
      ledger: sent.ledger,
      sourceAccount: payer.publicKey(),
    });
    expect(whole?.operations).toEqual([
      {
        type: "payment",
        index: 0,
        id: seen?.transaction.operations[0].id,
        from: payer.publicKey(),
        to: wallet.publicKey(),
        toMuxedId: null,
        assetCode: "XLM",
        assetIssuer: null,
        amount: "12.5000000",
      },
    ]);
    // The same operation id Horizon gives it (one identity whichever source read it).
    const ops = await horizon.operations().forTransaction(sent.hash).call();
    expect(whole?.operations[0].id).toBe(ops.records[0].id);
  });

  it("create_account and a path payment: types, payer and delivered amount from the whole read", async () => {
    const fresh = Keypair.random();
    const tx = await build(
      payer,
      [
        Operation.createAccount({ destination: fresh.publicKey(), startingBalance: "5" }),
        Operation.pathPaymentStrictSend({
          sendAsset: Asset.native(),
          sendAmount: "10",
          destination: wallet.publicKey(),
          destAsset: usdc,
          destMin: "0.0000001",
          path: [],
        }),
      ],
      Memo.text("INV-0002"),
    );
    const sent = await source.submit(tx.toXDR());
    const page = await pageOf(sent.ledger);
    const seen = page.transactions.find((t) => t.transaction.hash === sent.hash);
    // The events alone: the path payment's delivery comes from the issuer (a mint).
    const toWallet = seen?.transaction.operations.find((o) => o.to === wallet.publicKey());
    expect(toWallet?.from).toBe(usdc.getIssuer());
    const whole = await source.transaction(sent.hash);
    const delivered = await horizon.operations().forTransaction(sent.hash).call();
    const pp = delivered.records[1] as unknown as { amount: string };
    expect(whole?.operations.map((o) => [o.type, o.from, o.to, o.assetCode, o.amount])).toEqual([
      ["create_account", payer.publicKey(), fresh.publicKey(), "XLM", "5.0000000"],
      ["path_payment_strict_send", payer.publicKey(), wallet.publicKey(), "USDC", pp.amount],
    ]);
  });

  it("a muxed destination: its id on the page and in the whole read, the memo only in the whole read", async () => {
    const muxed = new MuxedAccount(await horizon.loadAccount(wallet.publicKey()), "777");
    const tx = await build(
      payer,
      [Operation.payment({ destination: muxed.accountId(), asset: Asset.native(), amount: "1" })],
      Memo.text("INV-0003"),
    );
    const sent = await source.submit(tx.toXDR());
    const page = await pageOf(sent.ledger);
    const seen = page.transactions.find((t) => t.transaction.hash === sent.hash);
    expect(seen?.transaction.memoType).toBe("none");
    expect(seen?.transaction.operations[0]).toMatchObject({
      to: wallet.publicKey(),
      toMuxedId: "777",
    });
    const whole = await source.transaction(sent.hash);
    expect(whole).toMatchObject({ memoType: "text", memo: "INV-0003" });
    expect(whole?.operations[0]).toMatchObject({ to: wallet.publicKey(), toMuxedId: "777" });
  });

  it("an id memo to a G address: ambiguous on the page, an id memo in the whole read", async () => {
    const tx = await build(
      payer,
      [Operation.payment({ destination: wallet.publicKey(), asset: Asset.native(), amount: "1" })],
      Memo.id("42"),
    );
    const sent = await source.submit(tx.toXDR());
    const page = await pageOf(sent.ledger);
    const seen = page.transactions.find((t) => t.transaction.hash === sent.hash);
    expect(seen?.transaction.operations[0].toMuxedId).toBe("42");
    const whole = await source.transaction(sent.hash);
    expect(whole).toMatchObject({ memoType: "id", memo: "42" });
    expect(whole?.operations[0].toMuxedId).toBeNull();
  });

  it("a fee-bump transaction: the outer hash whichever hash is asked, the inner beside it", async () => {
    const inner = await build(
      payer,
      [Operation.payment({ destination: wallet.publicKey(), asset: Asset.native(), amount: "2" })],
      Memo.text("INV-0004"),
    );
    const bump = TransactionBuilder.buildFeeBumpTransaction(wallet, "200", inner, passphrase);
    bump.sign(wallet);
    const sent = await source.submit(bump.toXDR());
    const outer = bump.hash().toString("hex");
    expect(sent.hash).toBe(outer);
    for (const asked of [outer, inner.hash().toString("hex")]) {
      const whole = await source.transaction(asked);
      expect(whole).toMatchObject({
        hash: outer,
        innerHash: inner.hash().toString("hex"),
        memo: "INV-0004",
        sourceAccount: payer.publicKey(),
      });
    }
  });

  it("a failed submission throws transaction_failed with Horizon's result codes", async () => {
    const tx = await build(payer, [
      Operation.payment({
        destination: wallet.publicKey(),
        asset: Asset.native(),
        amount: "1000000",
      }),
    ]);
    const err = await source.submit(tx.toXDR()).catch((e) => e);
    expect(err).toBeInstanceOf(LedgerSourceError);
    expect(err.failure).toMatchObject({
      kind: "transaction_failed",
      transaction: "tx_failed",
      operations: ["op_underfunded"],
    });
    expect(err.source).toBe("rpc");
  });

  it("filtered to a few wallets, a page holds only payments to and from them", async () => {
    const other = Keypair.random();
    const first = await source.submit(
      (
        await build(payer, [
          Operation.createAccount({ destination: other.publicKey(), startingBalance: "3" }),
        ])
      ).toXDR(),
    );
    const toWallet = await build(
      payer,
      [Operation.payment({ destination: wallet.publicKey(), asset: Asset.native(), amount: "1" })],
      Memo.text("INV-0005"),
    );
    const fromWallet = await build(
      wallet,
      [Operation.payment({ destination: payer.publicKey(), asset: Asset.native(), amount: "1" })],
      Memo.text("RF-x"),
    );
    await source.submit(toWallet.toXDR());
    await source.submit(fromWallet.toXDR());
    const all = await source.paymentsPage(String(first.ledger), 200);
    const ours = await source.paymentsPage(String(first.ledger), 200, {
      wallets: [wallet.publicKey()],
    });
    const hashes = (p: typeof all) => p.transactions.map((t) => t.transaction.hash);
    expect(hashes(all)).toContain(first.hash);
    expect(hashes(ours)).toEqual([
      toWallet.hash().toString("hex"),
      fromWallet.hash().toString("hex"),
    ]);
    expect(ours.cursor).toBe(all.cursor);
  });

  it("more wallets than getEvents' filters hold: every transfer and mint of our contracts", () => {
    const ids = ["C1"];
    const wallets = Array.from({ length: RPC_WALLET_FILTER_LIMIT + 1 }, () =>
      Keypair.random().publicKey(),
    );
    expect(eventFilters(ids, wallets)).toHaveLength(1);
    const few = eventFilters(ids, wallets.slice(0, RPC_WALLET_FILTER_LIMIT));
    expect(few.length).toBeLessThanOrEqual(5);
    for (const f of few) expect(f.topics?.length).toBeLessThanOrEqual(5);
    expect(few.flatMap((f) => f.topics)).toHaveLength(3 * RPC_WALLET_FILTER_LIMIT);
  });

  it("an unknown hash is null; the latest cursor is the latest ledger", async () => {
    expect(await source.transaction("ab".repeat(32))).toBeNull();
    const latest = (await horizon.ledgers().order("desc").limit(1).call()).records[0].sequence;
    expect(await source.latestCursor()).toBe(String(latest));
  });
});

describe("retention", () => {
  it("a cursor older than RPC's history is a gap, continued at the oldest ledger it holds", async () => {
    const ledger = await startLedger({
      networkPassphrase: "Test SDF Network ; September 2015",
      closeIntervalMs: 0,
      rpcRetentionLedgers: 3,
    });
    try {
      for (let i = 0; i < 6; i++) await ledger.close();
      const source = rpcSourceOf(
        rpcFor(
          { rpc: { testnet: ledger.rpcUrl, mainnet: undefined }, horizon: { timeoutMs: 5000 } },
          "testnet",
        ),
        sacContracts(ledger.networkPassphrase, [{ code: "XLM", issuer: null }]),
        { account: async () => null, baseFee: async () => 100, strictReceivePaths: async () => [] },
      );
      const latest = Number(await source.latestCursor());
      const page = await source.paymentsPage("2", 200);
      expect(page.gap).toEqual({ fromLedger: 2, toLedger: latest - 3 });
      expect(page.cursor).toBe(String(latest - 2));
      expect(page.transactions).toEqual([]);
      // From there on, pages are ordinary.
      const next = await source.paymentsPage(page.cursor, 200);
      expect(next.gap).toBeUndefined();
    } finally {
      await ledger.stop();
    }
  });
});

describe("transactionFromRpc: an invocation of another contract that moves our assets", () => {
  it("records its transfers to the first recipient as one contract_transfer, as Horizon's source does", async () => {
    const { Account, Address, Contract, StrKey, nativeToScVal, xdr } = await import(
      "@stellar/stellar-sdk"
    );
    const { transactionFromRpc } = await import("./transform");
    const passphrase = "Test SDF Network ; September 2015";
    const issuer = Keypair.random().publicKey();
    const usdc = new Asset("USDC", issuer);
    const contracts = sacContracts(passphrase, [{ code: "USDC", issuer }]);
    const feePayer = Keypair.random();
    const wallet = StrKey.encodeContract(Buffer.alloc(32, 7));
    const freelancer = Keypair.random().publicKey();
    const someoneElse = Keypair.random().publicKey();
    // A smart wallet's own entry point (not the asset contract): the ledger runs no such
    // contract, so the body is the one Stellar RPC answers for it, built here.
    const tx = new TransactionBuilder(new Account(feePayer.publicKey(), "1"), {
      fee: "1000",
      networkPassphrase: passphrase,
    })
      .addOperation(new Contract(wallet).call("exec", nativeToScVal(1, { type: "u32" })))
      .setTimeout(0)
      .build();
    tx.sign(feePayer);
    const transfer = (to: string, stroops: bigint) =>
      new xdr.ContractEvent({
        ext: new xdr.ExtensionPoint(0),
        contractId: StrKey.decodeContract(usdc.contractId(passphrase)) as never,
        type: xdr.ContractEventType.contract(),
        body: new xdr.ContractEventBody(
          0,
          new xdr.ContractEventV0({
            topics: [
              xdr.ScVal.scvSymbol("transfer"),
              new Address(wallet).toScVal(),
              new Address(to).toScVal(),
              xdr.ScVal.scvString(`USDC:${issuer}`),
            ],
            data: nativeToScVal(stroops, { type: "i128" }),
          }),
        ),
      }).toXDR("base64");
    const got = transactionFromRpc(
      {
        status: "SUCCESS",
        ledger: 42,
        createdAt: 1_800_000_000,
        applicationOrder: 1,
        envelopeXdr: tx.toXDR(),
        events: {
          contractEventsXdr: [
            [
              transfer(freelancer, 10_000_000n),
              transfer(someoneElse, 5_000_000n),
              transfer(freelancer, 25_000_000n),
            ],
          ],
        },
      },
      passphrase,
      contracts,
    );
    expect(got?.operations).toEqual([
      expect.objectContaining({
        type: "contract_transfer",
        index: 0,
        from: wallet,
        to: freelancer,
        toMuxedId: null,
        assetCode: "USDC",
        assetIssuer: issuer,
        amount: "3.5000000",
      }),
    ]);
  });
});
