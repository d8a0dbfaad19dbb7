/**
 * The local ledger's Stellar RPC endpoint, driven only through the SDK's own rpc.Server client:
 * getHealth, getNetwork, getLatestLedger, getEvents (CAP-67 SAC events of real signed classic
 * payments), getTransaction(s), getLedgers, sendTransaction.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  Account,
  Asset,
  Keypair,
  Memo,
  MuxedAccount,
  Operation,
  rpc,
  scValToNative,
  TransactionBuilder,
  xdr,
} from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTx, type Ctx, funded, setup, submit } from "./helpers";

const TRANSFER = "AAAADwAAAAh0cmFuc2Zlcg=="; // ScVal symbol "transfer"

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

/** Decoded topics and value of an event the SDK parsed. */
function decode(e: rpc.Api.EventResponse) {
  return {
    contractId: e.contractId?.contractId(),
    topics: e.topic.map((t) => scValToNative(t)),
    value: scValToNative(e.value),
  };
}

async function transfersIn(ledger: number, contractIds: string[]) {
  const res = await server.getEvents({
    startLedger: ledger,
    endLedger: ledger + 1,
    filters: [{ type: "contract", contractIds, topics: [[TRANSFER, "*", "*", "*"]] }],
  });
  return res.events.map(decode);
}

describe("network and ledger methods", () => {
  it("getHealth reports the retention window", async () => {
    const health = await server.getHealth();
    const latest = (await server.getLatestLedger()).sequence;
    expect(health).toEqual({
      status: "healthy",
      latestLedger: latest,
      oldestLedger: 1,
      ledgerRetentionWindow: 120960,
    });
  });

  it("getNetwork names this ledger's passphrase and friendbot", async () => {
    const network = await server.getNetwork();
    expect(network.passphrase).toBe(ctx.passphrase);
    expect(Number(network.protocolVersion)).toBe(23);
    expect(network.friendbotUrl).toBe(`${ctx.ledger.url}/friendbot`);
  });

  it("getLatestLedger matches Horizon's latest ledger, with decodable header XDR", async () => {
    const info = await ctx.ledger.close();
    const latest = await server.getLatestLedger();
    expect(latest.sequence).toBe(info.sequence);
    expect(latest.id).toBe(info.hash);
    expect(latest.headerXdr.ledgerSeq()).toBe(info.sequence);
    expect(Number(latest.closeTime)).toBe(Date.parse(info.closedAt) / 1000);
    const horizonLedger = await ctx.server.ledgers().ledger(info.sequence).call();
    expect((horizonLedger as unknown as { hash: string }).hash).toBe(latest.id);
  });

  it("getLedgers pages ledgers by cursor", async () => {
    const first = await server.getLedgers({ startLedger: 1, pagination: { limit: 2 } });
    expect(first.ledgers.map((l) => l.sequence)).toEqual([1, 2]);
    expect(first.ledgers[1].headerXdr.header().ledgerSeq()).toBe(2);
    const next = await server.getLedgers({ pagination: { cursor: first.cursor, limit: 1 } });
    expect(next.ledgers.map((l) => l.sequence)).toEqual([3]);
  });
});

describe("getEvents: CAP-67 transfer events of classic payments", () => {
  it("a signed XLM payment is a transfer event of the native SAC with from, to and amount", async () => {
    const payer = await funded(ctx);
    const payee = await funded(ctx);
    const tx = await buildTx(ctx, payer, [
      Operation.payment({ destination: payee.publicKey(), asset: Asset.native(), amount: "12.5" }),
    ]);
    const res = await submit(ctx, tx);
    const events = await transfersIn(res.ledger, [xlmSac]);
    expect(events).toEqual([
      {
        contractId: xlmSac,
        topics: ["transfer", payer.publicKey(), payee.publicKey(), "native"],
        value: 125_000_000n,
      },
    ]);
    // the raw fields: event id, tx hash, indexes
    const raw = await server.getEvents({
      startLedger: res.ledger,
      filters: [{ type: "contract", contractIds: [xlmSac], topics: [[TRANSFER, "**"]] }],
    });
    expect(raw.events[0].txHash).toBe(res.hash);
    expect(raw.events[0].ledger).toBe(res.ledger);
    expect(raw.events[0].operationIndex).toBe(0);
    // Stellar RPC's event id: TOID (ledger << 32 | tx order << 12 | 0-based op index), index
    const [op] = (await ctx.server.operations().forTransaction(res.hash).call()).records;
    const toid = (BigInt(op.id) - 1n).toString().padStart(19, "0");
    expect(raw.events[0].id).toBe(`${toid}-0000000000`);
    expect(raw.events[0].transactionIndex).toBe(Number((BigInt(op.id) >> 12n) & 0xfffffn));
  });

  it("a USDC payment to a muxed M... address carries to_muxed_id; the topic is the G account", async () => {
    const payer = await funded(ctx);
    const payee = await funded(ctx);
    for (const kp of [payer, payee]) {
      await submit(ctx, await buildTx(ctx, kp, [Operation.changeTrust({ asset: ctx.usdc })]));
    }
    await ctx.ledger.fund(payer.publicKey(), "100", "USDC");
    const muxed = new MuxedAccount(new Account(payee.publicKey(), "0"), "9007199254740993");
    const tx = await buildTx(ctx, payer, [
      Operation.payment({ destination: muxed.accountId(), asset: ctx.usdc, amount: "42.0000001" }),
    ]);
    const res = await submit(ctx, tx);
    const events = await transfersIn(res.ledger, [usdcSac]);
    expect(events).toEqual([
      {
        contractId: usdcSac,
        topics: ["transfer", payer.publicKey(), payee.publicKey(), `USDC:${ctx.usdc.getIssuer()}`],
        value: { amount: 420_000_001n, to_muxed_id: 9007199254740993n },
      },
    ]);
  });

  it("a memo stands for to_muxed_id on a G destination (CAP-67)", async () => {
    const payer = await funded(ctx);
    const payee = await funded(ctx);
    const tx = await buildTx(
      ctx,
      payer,
      [Operation.payment({ destination: payee.publicKey(), asset: Asset.native(), amount: "1" })],
      (b) => b.addMemo(Memo.text("INV-0042")).setTimeout(60),
    );
    const res = await submit(ctx, tx);
    const [event] = await transfersIn(res.ledger, [xlmSac]);
    expect(event.value).toEqual({ amount: 10_000_000n, to_muxed_id: "INV-0042" });
  });

  it("create_account is a native transfer; the issuer's payment is a mint", async () => {
    const kp = Keypair.random();
    await ctx.server.friendbot(kp.publicKey()).call();
    const tx = await ctx.server.transactions().forAccount(kp.publicKey()).call();
    const ledger = tx.records[0].ledger_attr;
    const [created] = await transfersIn(ledger, [xlmSac]);
    expect(created.topics).toEqual([
      "transfer",
      ctx.ledger.core.root.publicKey(),
      kp.publicKey(),
      "native",
    ]);
    expect(created.value).toBe(10_000n * 10_000_000n);

    await submit(ctx, await buildTx(ctx, kp, [Operation.changeTrust({ asset: ctx.usdc })]));
    const funded = await ctx.ledger.fund(kp.publicKey(), "5", "USDC");
    if (funded.kind !== "applied") throw new Error("funding failed");
    const mint = await server.getEvents({
      startLedger: funded.record.ledger,
      filters: [{ contractIds: [usdcSac], topics: [["AAAADwAAAARtaW50", "*", "*"]] }],
    });
    expect(mint.events.map(decode)).toEqual([
      {
        contractId: usdcSac,
        topics: ["mint", kp.publicKey(), `USDC:${ctx.usdc.getIssuer()}`],
        value: 50_000_000n,
      },
    ]);
  });

  it("a path payment XLM -> USDC: the payer's XLM to the issuer, the USDC minted to the payee", async () => {
    const payer = await funded(ctx);
    const payee = await funded(ctx);
    await submit(ctx, await buildTx(ctx, payee, [Operation.changeTrust({ asset: ctx.usdc })]));
    const tx = await buildTx(ctx, payer, [
      Operation.pathPaymentStrictReceive({
        sendAsset: Asset.native(),
        sendMax: "100",
        destination: payee.publicKey(),
        destAsset: ctx.usdc,
        destAmount: "2",
        path: [],
      }),
    ]);
    const res = await submit(ctx, tx);
    const all = await server.getEvents({
      startLedger: res.ledger,
      endLedger: res.ledger + 1,
      filters: [],
    });
    expect(all.events.map(decode)).toEqual([
      {
        contractId: xlmSac,
        topics: ["transfer", payer.publicKey(), ctx.usdc.getIssuer(), "native"],
        value: 200_000_000n, // 2 USDC at 0.1 USDC per XLM
      },
      {
        contractId: usdcSac,
        topics: ["mint", payee.publicKey(), `USDC:${ctx.usdc.getIssuer()}`],
        value: 20_000_000n,
      },
    ]);
  });

  it("topic filters: exact segments, '*' for one, '**' for the rest; contractIds narrow", async () => {
    const payer = await funded(ctx);
    const payee = await funded(ctx);
    const res = await submit(
      ctx,
      await buildTx(ctx, payer, [
        Operation.payment({ destination: payee.publicKey(), asset: Asset.native(), amount: "3" }),
      ]),
    );
    const to = xdr.ScVal.scvAddress(
      xdr.ScAddress.scAddressTypeAccount(xdr.PublicKey.publicKeyTypeEd25519(payee.rawPublicKey())),
    ).toXDR("base64");
    const count = async (filter: rpc.Api.EventFilter) =>
      (
        await server.getEvents({
          startLedger: res.ledger,
          endLedger: res.ledger + 1,
          filters: [filter],
        })
      ).events.length;
    expect(await count({ topics: [[TRANSFER, "*", to, "*"]] })).toBe(1);
    expect(await count({ topics: [[TRANSFER, to, "*", "*"]] })).toBe(0); // payee is not "from"
    expect(await count({ topics: [[TRANSFER, "*", "*"]] })).toBe(0); // 4 topics, not 3
    expect(await count({ topics: [[TRANSFER, "**"]] })).toBe(1);
    expect(await count({ topics: [["*", "*", to, "**"]] })).toBe(1);
    expect(await count({ contractIds: [usdcSac], topics: [[TRANSFER, "**"]] })).toBe(0);
    expect(await count({ type: "system" })).toBe(0);
  });

  it("pages by cursor with limit, and a drained cursor sees only later events", async () => {
    const payer = await funded(ctx);
    const payee = await funded(ctx);
    const ops = [1, 2, 3, 4, 5].map((n) =>
      Operation.payment({
        destination: payee.publicKey(),
        asset: Asset.native(),
        amount: String(n),
      }),
    );
    const res = await submit(ctx, await buildTx(ctx, payer, ops, undefined, { fee: "500" }));
    const to = xdr.ScVal.scvAddress(
      xdr.ScAddress.scAddressTypeAccount(xdr.PublicKey.publicKeyTypeEd25519(payee.rawPublicKey())),
    ).toXDR("base64");
    const filters = [
      { type: "contract" as const, contractIds: [xlmSac], topics: [[TRANSFER, "*", to, "*"]] },
    ];
    const seen: bigint[] = [];
    let page = await server.getEvents({ startLedger: res.ledger, filters, limit: 2 });
    while (page.events.length > 0) {
      seen.push(...page.events.map((e) => scValToNative(e.value) as bigint));
      page = await server.getEvents({ cursor: page.cursor, filters, limit: 2 });
    }
    // funded(): friendbot's create_account came first, in an earlier ledger
    expect(seen).toEqual([1n, 2n, 3n, 4n, 5n].map((n) => n * 10_000_000n));

    const later = await submit(
      ctx,
      await buildTx(ctx, payer, [
        Operation.payment({ destination: payee.publicKey(), asset: Asset.native(), amount: "6" }),
      ]),
    );
    const next = await server.getEvents({ cursor: page.cursor, filters, limit: 2 });
    expect(next.events.map((e) => [e.txHash, scValToNative(e.value)])).toEqual([
      [later.hash, 60_000_000n],
    ]);
  });

  it("a failed transaction emits no event", async () => {
    const payer = await funded(ctx);
    const tx = await buildTx(ctx, payer, [
      Operation.payment({
        destination: Keypair.random().publicKey(),
        asset: Asset.native(),
        amount: "1",
      }),
    ]);
    const sent = await server.sendTransaction(tx);
    expect(sent.status).toBe("PENDING");
    const got = await server.pollTransaction(sent.hash, { attempts: 20 });
    expect(got.status).toBe("FAILED");
    if (got.status !== "FAILED") return;
    expect(got.resultXdr.result().results()[0].tr().paymentResult().switch().name).toBe(
      "paymentNoDestination",
    );
    expect(await transfersIn(got.ledger, [xlmSac])).toEqual([]);
  });
});

describe("bad requests", () => {
  it("answer JSON-RPC errors naming the parameter", async () => {
    const six = Array.from({ length: 6 }, () => ({ type: "contract" as const }));
    await expect(server.getEvents({ startLedger: 1, filters: six })).rejects.toMatchObject({
      code: -32602,
      message: "maximum 5 filters per request",
    });
    await expect(
      server.getEvents({ startLedger: 1, filters: [{ topics: [["not-xdr"]] }] }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("segment 1") });
    await expect(server.getEvents({ cursor: "nope", filters: [] })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(server.getTransaction("xyz")).rejects.toMatchObject({ code: -32602 });
  });
});

describe("transactions", () => {
  it("sendTransaction answers PENDING, then getTransaction reaches SUCCESS with its XDR and events", async () => {
    const payer = await funded(ctx);
    const payee = await funded(ctx);
    const tx = await buildTx(ctx, payer, [
      Operation.payment({ destination: payee.publicKey(), asset: Asset.native(), amount: "7" }),
    ]);
    const sent = await server.sendTransaction(tx);
    expect(sent.status).toBe("PENDING");
    expect(sent.hash).toBe(tx.hash().toString("hex"));

    let got = await server.getTransaction(sent.hash);
    for (let i = 0; i < 50 && got.status === "NOT_FOUND"; i++) {
      await new Promise((r) => setTimeout(r, 20));
      got = await server.getTransaction(sent.hash);
    }
    expect(got.status).toBe("SUCCESS");
    if (got.status !== "SUCCESS") return;
    expect(got.envelopeXdr.toXDR("base64")).toBe(tx.toEnvelope().toXDR("base64"));
    expect(got.resultXdr.result().switch().name).toBe("txSuccess");
    expect(got.feeBump).toBe(false);
    const horizonTx = await ctx.server.transactions().transaction(sent.hash).call();
    expect(got.ledger).toBe(horizonTx.ledger_attr);
    expect(got.createdAt).toBe(String(Date.parse(horizonTx.created_at) / 1000));
    const [opEvents] = got.events.contractEventsXdr;
    expect(
      opEvents.map((e) =>
        e
          .body()
          .v0()
          .topics()
          .map((t) => scValToNative(t)),
      ),
    ).toEqual([["transfer", payer.publicKey(), payee.publicKey(), "native"]]);
    // resending an included transaction
    expect((await server.sendTransaction(tx)).status).toBe("DUPLICATE");
  });

  it("sendTransaction answers ERROR with the result XDR for a bad sequence number", async () => {
    const payer = await funded(ctx);
    const account = await ctx.server.loadAccount(payer.publicKey());
    const stale = new Account(payer.publicKey(), (BigInt(account.sequence) + 5n).toString());
    const tx = new TransactionBuilder(stale, { fee: "100", networkPassphrase: ctx.passphrase })
      .addOperation(Operation.bumpSequence({ bumpTo: "0" }))
      .setTimeout(60)
      .build();
    tx.sign(payer);
    const sent = await server.sendTransaction(tx);
    expect(sent.status).toBe("ERROR");
    expect(sent.errorResult?.result().switch().name).toBe("txBadSeq");
    expect((await server.getTransaction(sent.hash)).status).toBe("NOT_FOUND");
  });

  it("getTransaction of an unknown hash is NOT_FOUND with the ledger window", async () => {
    const got = await server.getTransaction("ab".repeat(32));
    expect(got.status).toBe("NOT_FOUND");
    expect(got.oldestLedger).toBe(1);
    expect(got.latestLedger).toBe((await server.getLatestLedger()).sequence);
  });

  it("getTransactions lists the applied transactions of a ledger range, paged by cursor", async () => {
    const first = await server.getTransactions({ startLedger: 1, pagination: { limit: 1 } });
    expect(first.transactions).toHaveLength(1);
    const horizonFirst = await ctx.server.transactions().order("asc").limit(2).call();
    expect(first.transactions[0].txHash).toBe(horizonFirst.records[0].hash);
    const second = await server.getTransactions({ pagination: { cursor: first.cursor, limit: 1 } });
    expect(second.transactions[0].txHash).toBe(horizonFirst.records[1].hash);
    expect(second.transactions[0].status).toBe("SUCCESS");
  });
});

describe("fee bumps and snapshots", () => {
  it("a fee-bumped payment: feeBump true, the inner payment's transfer event", async () => {
    const payer = await funded(ctx);
    const sponsor = await funded(ctx);
    const payee = await funded(ctx);
    const inner = await buildTx(ctx, payer, [
      Operation.payment({ destination: payee.publicKey(), asset: Asset.native(), amount: "2" }),
    ]);
    const bump = TransactionBuilder.buildFeeBumpTransaction(sponsor, "200", inner, ctx.passphrase);
    bump.sign(sponsor);
    const sent = await server.sendTransaction(bump);
    expect(sent.status).toBe("PENDING");
    const got = await server.pollTransaction(sent.hash, { attempts: 20 });
    expect(got.status).toBe("SUCCESS");
    if (got.status !== "SUCCESS") return;
    expect(got.feeBump).toBe(true);
    expect(await transfersIn(got.ledger, [xlmSac])).toEqual([
      {
        contractId: xlmSac,
        topics: ["transfer", payer.publicKey(), payee.publicKey(), "native"],
        value: 20_000_000n,
      },
    ]);
  });

  it("events survive a restart from a snapshot", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ledger-rpc-"));
    const snapshotFile = join(dir, "testnet.json");
    const first = await setup({ snapshotFile });
    const payer = await funded(first);
    const payee = await funded(first);
    const res = await submit(
      first,
      await buildTx(first, payer, [
        Operation.payment({ destination: payee.publicKey(), asset: Asset.native(), amount: "9" }),
      ]),
    );
    await first.ledger.stop();
    const again = await setup({ snapshotFile });
    try {
      const s = new rpc.Server(again.ledger.rpcUrl, { allowHttp: true });
      const { events } = await s.getEvents({
        startLedger: res.ledger,
        endLedger: res.ledger + 1,
        filters: [{ topics: [[TRANSFER, "**"]] }],
      });
      expect(events.map((e) => [e.txHash, scValToNative(e.value)])).toEqual([
        [res.hash, 90_000_000n],
      ]);
      expect((await s.getTransaction(res.hash)).status).toBe("SUCCESS");
    } finally {
      await again.ledger.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("retention window", () => {
  it("reports oldestLedger and refuses older start ledgers", async () => {
    const short = await setup({ rpcRetentionLedgers: 3 });
    try {
      const s = new rpc.Server(short.ledger.rpcUrl, { allowHttp: true });
      for (let i = 0; i < 5; i++) await short.ledger.close();
      const latest = (await s.getLatestLedger()).sequence;
      const health = await s.getHealth();
      expect(health.oldestLedger).toBe(latest - 2);
      expect(health.ledgerRetentionWindow).toBe(3);
      await expect(s.getEvents({ startLedger: 1, filters: [] })).rejects.toMatchObject({
        code: -32600,
        message: expect.stringContaining(`oldest ledger: ${latest - 2}`),
      });
      const events = await s.getEvents({ startLedger: latest - 2, filters: [] });
      expect(events.oldestLedger).toBe(latest - 2);
      // a cursor from before the window (a watcher that fell behind) is refused, not skipped
      const stale = `${(BigInt(latest - 3) << 32n).toString().padStart(19, "0")}-0000000000`;
      await expect(s.getEvents({ cursor: stale, filters: [] })).rejects.toMatchObject({
        code: -32600,
      });
      await expect(
        s.getTransactions({ pagination: { cursor: (BigInt(latest - 3) << 32n).toString() } }),
      ).rejects.toMatchObject({ code: -32600 });
      await expect(s.getTransactions({ startLedger: latest - 3 })).rejects.toMatchObject({
        code: -32600,
      });
    } finally {
      await short.ledger.stop();
    }
  });
});
