/**
 * The RPC endpoint's raw results against Stellar RPC's own examples (ledger/fixtures/rpc/, from
 * the OpenRPC specification in stellar/stellar-docs): same keys, same JSON types, same key
 * order. Raw results are read with the SDK's rpc.Server raw methods (_getEvents, ...).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  Account,
  Address,
  Asset,
  Contract,
  Keypair,
  nativeToScVal,
  Operation,
  rpc,
  TransactionBuilder,
  xdr,
} from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTx, type Ctx, funded, setup, submit } from "./helpers";

type Json = Record<string, unknown>;

const fixture = (name: string): Json =>
  (
    JSON.parse(readFileSync(join(import.meta.dirname, "..", "fixtures", "rpc", name), "utf8")) as {
      response: { result: Json };
    }
  ).response.result;

function kind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

/** Keys (in order) and JSON types, recursively; arrays by their first element. */
function shape(v: unknown, skip: string[] = [], path = ""): unknown {
  if (Array.isArray(v)) return v.length === 0 ? [] : [shape(v[0], skip, `${path}[]`)];
  if (kind(v) !== "object") return kind(v);
  return Object.entries(v as Json)
    .filter(([k]) => !skip.includes(path ? `${path}.${k}` : k))
    .map(([k, val]) => [k, shape(val, skip, path ? `${path}.${k}` : k)]);
}

let ctx: Ctx;
let server: rpc.Server;
let txHash: string;
let ledger: number;

beforeAll(async () => {
  ctx = await setup();
  server = new rpc.Server(ctx.ledger.rpcUrl, { allowHttp: true });
  const payer = await funded(ctx);
  const payee = await funded(ctx);
  const res = await submit(
    ctx,
    await buildTx(ctx, payer, [
      Operation.payment({ destination: payee.publicKey(), asset: Asset.native(), amount: "1" }),
    ]),
  );
  txHash = res.hash;
  ledger = res.ledger;
});
afterAll(async () => {
  await ctx.ledger.stop();
});

describe("raw results have Stellar RPC's shapes", () => {
  it("getHealth", async () => {
    expect(shape(await server.getHealth())).toEqual(shape(fixture("getHealth.json")));
  });

  it("getNetwork", async () => {
    expect(shape(await server.getNetwork())).toEqual(shape(fixture("getNetwork.json")));
  });

  it("getLatestLedger", async () => {
    expect(shape(await server._getLatestLedger())).toEqual(shape(fixture("getLatestLedger.json")));
  });

  it("getLedgers", async () => {
    const raw = await server._getLedgers({ startLedger: 1, pagination: { limit: 2 } });
    expect(shape(raw)).toEqual(shape(fixture("getLedgers.json")));
  });

  it("getEvents", async () => {
    const raw = await server._getEvents({
      startLedger: ledger,
      filters: [
        {
          type: "contract",
          contractIds: [Asset.native().contractId(ctx.passphrase)],
          topics: [["AAAADwAAAAh0cmFuc2Zlcg==", "*", "*", "**"]],
        },
      ],
      limit: 2,
    });
    expect(raw.events.length).toBeGreaterThan(0);
    expect(shape(raw)).toEqual(shape(fixture("getEvents.json")));
  });

  it("getTransaction: the docs' fields in their order, plus txHash, feeBump, events", async () => {
    const raw = (await server._getTransaction(txHash)) as unknown as Json;
    // the fields newer Stellar RPC versions add (the SDK's RawGetTransactionResponse)
    expect(raw.txHash).toBe(txHash);
    expect(raw.feeBump).toBe(false);
    expect(kind(raw.events)).toBe("object");
    const fixtureShape = shape({ ...fixture("getTransaction-failed.json"), status: "SUCCESS" });
    expect(shape(raw, ["txHash", "feeBump", "events"])).toEqual(fixtureShape);
  });

  it("sendTransaction PENDING and ERROR", async () => {
    const payer = await funded(ctx);
    const pay = (amount: string) =>
      Operation.payment({ destination: payer.publicKey(), asset: Asset.native(), amount });
    const tx = await buildTx(ctx, payer, [pay("1")]);
    const pending = await server._sendTransaction(tx);
    expect(pending.status).toBe("PENDING");
    expect(shape(pending)).toEqual(shape(fixture("sendTransaction-pending.json")));
    // the same sequence number again: rejected at once (tx_bad_seq) once the first is in
    await server.pollTransaction(pending.hash, { attempts: 20 });
    const stale = await buildTx(ctx, payer, [pay("2")], undefined, {
      account: new Account(payer.publicKey(), (BigInt(tx.sequence) - 1n).toString()),
    });
    const error = await server._sendTransaction(stale);
    expect(error.status).toBe("ERROR");
    expect(shape(error)).toEqual(shape(fixture("sendTransaction-error.json")));
  });

  it("getTransaction NOT_FOUND", async () => {
    const raw = (await server._getTransaction("00".repeat(32))) as unknown as Json;
    expect(shape(raw, ["txHash"])).toEqual(shape(fixture("getTransaction-not-found.json")));
  });

  it("simulateTransaction success and error", async () => {
    const payer = await funded(ctx);
    const xlmSac = Asset.native().contractId(ctx.passphrase);
    const transfer = async (amount: bigint) =>
      new TransactionBuilder(await server.getAccount(payer.publicKey()), {
        fee: "100",
        networkPassphrase: ctx.passphrase,
      })
        .addOperation(
          new Contract(xlmSac).call(
            "transfer",
            new Address(payer.publicKey()).toScVal(),
            new Address(xlmSac).toScVal(),
            nativeToScVal(amount, { type: "i128" }),
          ),
        )
        .setTimeout(60)
        .build();
    const ok = (await server._simulateTransaction(await transfer(1n))) as unknown as Json;
    // the docs' example records no auth; ours records the payer's source-account entry
    expect(shape(ok, ["results[].auth"])).toEqual(
      shape(fixture("simulateTransaction-success.json"), ["results[].auth"]),
    );
    expect(shape((ok.results as Json[])[0].auth)).toEqual(["string"]);
    // 20,000 XLM from an account holding 10,000: the SAC's balance error
    const failed = (await server._simulateTransaction(
      await transfer(200_000_000_000n),
    )) as unknown as Json;
    expect(failed.error).toMatch(/^HostError: Error\(Contract, #10\)/);
    expect(shape(failed, ["events"])).toEqual(
      shape(fixture("simulateTransaction-error.json"), ["events"]),
    );
  });

  it("getLedgerEntries: an account and a contract's SAC balance", async () => {
    const payer = await funded(ctx);
    const holder = StrKeyContract();
    const xlmSac = Asset.native().contractId(ctx.passphrase);
    const tx = await server.prepareTransaction(
      new TransactionBuilder(await server.getAccount(payer.publicKey()), {
        fee: "100",
        networkPassphrase: ctx.passphrase,
      })
        .addOperation(
          new Contract(xlmSac).call(
            "transfer",
            new Address(payer.publicKey()).toScVal(),
            new Address(holder).toScVal(),
            nativeToScVal(12_345n, { type: "i128" }),
          ),
        )
        .setTimeout(60)
        .build(),
    );
    tx.sign(payer);
    await server.pollTransaction((await server.sendTransaction(tx)).hash, { attempts: 20 });
    const balanceKey = xdr.LedgerKey.contractData(
      new xdr.LedgerKeyContractData({
        contract: new Address(xlmSac).toScAddress(),
        key: xdr.ScVal.scvVec([xdr.ScVal.scvSymbol("Balance"), new Address(holder).toScVal()]),
        durability: xdr.ContractDataDurability.persistent(),
      }),
    );
    const raw = (await server._getLedgerEntries(balanceKey)) as unknown as Json;
    expect(shape(raw, ["entries[].liveUntilLedgerSeq"])).toEqual(
      shape(fixture("getLedgerEntries.json")),
    );
    // the SDK's own readers over it
    const balance = await server.getSACBalance(holder, Asset.native(), ctx.passphrase);
    expect(balance.balanceEntry?.amount).toBe("12345");
    const account = await server.getAccount(payer.publicKey());
    expect(account.accountId()).toBe(payer.publicKey());
  });
});

/** Any contract address: SAC balances can be held by contracts that do not exist yet. */
function StrKeyContract(): string {
  return Asset.native().contractId(`another network ${Keypair.random().publicKey()}`);
}
