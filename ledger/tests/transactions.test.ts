import {
  Account,
  Asset,
  Keypair,
  Memo,
  Operation,
  TransactionBuilder,
  xdr,
} from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balanceOf, buildTx, type Ctx, funded, getJson, setup, submit } from "./helpers";

let ctx: Ctx;
beforeAll(async () => {
  ctx = await setup();
});
afterAll(async () => {
  await ctx.ledger.stop();
});

describe("transactions built with the real SDK", () => {
  it("friendbot creates an account the SDK can load (10,000 XLM, seq = ledger << 32)", async () => {
    const kp = Keypair.random();
    const res = (await ctx.server.friendbot(kp.publicKey()).call()) as unknown as {
      successful: boolean;
      hash: string;
    };
    expect(res.successful).toBe(true);
    const tx = await ctx.server.transactions().transaction(res.hash).call();
    const account = await ctx.server.loadAccount(kp.publicKey());
    expect(balanceOf(account, Asset.native())).toBe("10000.0000000");
    expect(account.sequence).toBe((BigInt(tx.ledger_attr) << 32n).toString());
    expect(account.subentry_count).toBe(0);
    expect(account.signers).toEqual([
      { weight: 1, key: kp.publicKey(), type: "ed25519_public_key" },
    ]);
  });

  it("create_account, and the hash the SDK computes is the one the server returns and serves", async () => {
    const funder = await funded(ctx);
    const fresh = Keypair.random();
    const tx = await buildTx(ctx, funder, [
      Operation.createAccount({ destination: fresh.publicKey(), startingBalance: "25" }),
    ]);
    const expected = tx.hash().toString("hex");
    const res = await submit(ctx, tx);
    expect(res.hash).toBe(expected);
    expect(res.successful).toBe(true);
    expect(typeof res.ledger).toBe("number");
    // result_xdr decodes as a TransactionResult with a createAccount success
    const result = xdr.TransactionResult.fromXDR(res.result_xdr, "base64");
    expect(result.result().switch().name).toBe("txSuccess");
    expect(result.feeCharged().toString()).toBe("100");

    const served = await ctx.server.transactions().transaction(expected).call();
    expect(served.hash).toBe(expected);
    expect(served.id).toBe(expected);
    expect(served.successful).toBe(true);
    expect(served.fee_charged).toBe("100");
    expect(served.source_account).toBe(funder.publicKey());
    expect(served.envelope_xdr).toBe(tx.toXDR());
    const account = await ctx.server.loadAccount(fresh.publicKey());
    expect(balanceOf(account, Asset.native())).toBe("25.0000000");
    const funderAfter = await ctx.server.loadAccount(funder.publicKey());
    expect(balanceOf(funderAfter, Asset.native())).toBe("9974.9999900");
  });

  it("trustline, then XLM and USDC payments with memos", async () => {
    const alice = await funded(ctx);
    const bob = await funded(ctx);
    const trust = await buildTx(ctx, bob, [Operation.changeTrust({ asset: ctx.usdc })]);
    await submit(ctx, trust);
    let bobAccount = await ctx.server.loadAccount(bob.publicKey());
    expect(bobAccount.subentry_count).toBe(1);
    expect(balanceOf(bobAccount, ctx.usdc)).toBe("0.0000000");
    // credit lines first, native last
    expect(bobAccount.balances.map((b) => b.asset_type)).toEqual(["credit_alphanum4", "native"]);

    await buildTx(ctx, alice, [Operation.changeTrust({ asset: ctx.usdc })]).then((t) =>
      submit(ctx, t),
    );
    const fund = await ctx.ledger.fund(alice.publicKey(), "100", "USDC");
    expect(fund.kind === "applied" && fund.record.successful).toBe(true);

    const pay = await buildTx(
      ctx,
      alice,
      [
        Operation.payment({ destination: bob.publicKey(), asset: Asset.native(), amount: "12.5" }),
        Operation.payment({ destination: bob.publicKey(), asset: ctx.usdc, amount: "40.25" }),
      ],
      (b) => b.addMemo(Memo.text("INV-0001")).setTimeout(60),
    );
    const res = await submit(ctx, pay);
    expect(res.successful).toBe(true);
    expect(res.memo).toBe("INV-0001");
    expect(res.memo_type).toBe("text");

    bobAccount = await ctx.server.loadAccount(bob.publicKey());
    expect(balanceOf(bobAccount, Asset.native())).toBe("10012.4999900");
    expect(balanceOf(bobAccount, ctx.usdc)).toBe("40.2500000");
    const aliceAccount = await ctx.server.loadAccount(alice.publicKey());
    expect(balanceOf(aliceAccount, ctx.usdc)).toBe("59.7500000");
    // two trust/payment txs: 100 + 200 stroops of fees
    expect(balanceOf(aliceAccount, Asset.native())).toBe("9987.4999700");

    const ops = await ctx.server.payments().forTransaction(res.hash).call();
    expect(ops.records.map((r) => [r.type, (r as { amount?: string }).amount])).toEqual([
      ["payment", "12.5000000"],
      ["payment", "40.2500000"],
    ]);
    const usdcOp = ops.records[1] as unknown as Record<string, unknown>;
    expect(usdcOp.asset_code).toBe("USDC");
    expect(usdcOp.asset_issuer).toBe(ctx.usdc.getIssuer());
    expect(usdcOp.from).toBe(alice.publicKey());
    expect(usdcOp.to).toBe(bob.publicKey());
  });

  it("id, hash and return memos are rendered like Horizon", async () => {
    const alice = await funded(ctx);
    const hash = Buffer.alloc(32, 7);
    for (const [memo, type, value] of [
      [Memo.id("18446744073709551615"), "id", "18446744073709551615"],
      [Memo.hash(hash.toString("hex")), "hash", hash.toString("base64")],
      [Memo.return(hash.toString("hex")), "return", hash.toString("base64")],
    ] as const) {
      const tx = await buildTx(
        ctx,
        alice,
        [Operation.payment({ destination: alice.publicKey(), asset: Asset.native(), amount: "1" })],
        (b) => b.addMemo(memo).setTimeout(60),
      );
      const res = await submit(ctx, tx);
      expect(res.memo_type).toBe(type);
      expect(res.memo).toBe(value);
      expect(res).not.toHaveProperty("memo_bytes");
    }
    const none = await buildTx(ctx, alice, [
      Operation.payment({ destination: alice.publicKey(), asset: Asset.native(), amount: "1" }),
    ]);
    const res = await submit(ctx, none);
    expect(res.memo_type).toBe("none");
    expect(res).not.toHaveProperty("memo");
  });

  it("path payments: strict send and strict receive, XLM <-> USDC at the fixed rate and same-asset", async () => {
    const payer = await funded(ctx);
    const merchant = await funded(ctx);
    await submit(ctx, await buildTx(ctx, merchant, [Operation.changeTrust({ asset: ctx.usdc })]));
    await submit(ctx, await buildTx(ctx, payer, [Operation.changeTrust({ asset: ctx.usdc })]));

    // strict receive: merchant gets exactly 2 USDC, payer pays 20 XLM at 0.1 USDC/XLM
    const receive = await buildTx(
      ctx,
      payer,
      [
        Operation.pathPaymentStrictReceive({
          sendAsset: Asset.native(),
          sendMax: "21",
          destination: merchant.publicKey(),
          destAsset: ctx.usdc,
          destAmount: "2",
          path: [],
        }),
      ],
      (b) => b.addMemo(Memo.text("INV-PATH")).setTimeout(60),
    );
    const r1 = await submit(ctx, receive);
    expect(r1.successful).toBe(true);
    const [op1] = (await ctx.server.operations().forTransaction(r1.hash).call()).records;
    expect(op1).toMatchObject({
      type: "path_payment_strict_receive",
      type_i: 2,
      amount: "2.0000000",
      source_amount: "20.0000000",
      source_max: "21.0000000",
      source_asset_type: "native",
      asset_code: "USDC",
      path: [],
    });

    // strict send: payer sends 15 XLM, merchant receives 1.5 USDC
    const send = await buildTx(ctx, payer, [
      Operation.pathPaymentStrictSend({
        sendAsset: Asset.native(),
        sendAmount: "15",
        destination: merchant.publicKey(),
        destAsset: ctx.usdc,
        destMin: "1.4",
        path: [],
      }),
    ]);
    const r2 = await submit(ctx, send);
    const [op2] = (await ctx.server.operations().forTransaction(r2.hash).call()).records;
    expect(op2).toMatchObject({
      type: "path_payment_strict_send",
      type_i: 13,
      amount: "1.5000000",
      source_amount: "15.0000000",
      destination_min: "1.4000000",
    });
    const strictSendResult = xdr.TransactionResult.fromXDR(r2.result_xdr, "base64");
    const last = strictSendResult
      .result()
      .results()[0]
      .tr()
      .pathPaymentStrictSendResult()
      .success()
      .last();
    expect(last.amount().toString()).toBe("15000000");

    // same-asset path payment USDC -> USDC through a USDC path
    await ctx.ledger.fund(payer.publicKey(), "10", "USDC");
    const same = await buildTx(ctx, payer, [
      Operation.pathPaymentStrictSend({
        sendAsset: ctx.usdc,
        sendAmount: "3",
        destination: merchant.publicKey(),
        destAsset: ctx.usdc,
        destMin: "3",
        path: [ctx.usdc],
      }),
    ]);
    await submit(ctx, same);

    // USDC -> XLM (strict receive)
    const back = await buildTx(ctx, payer, [
      Operation.pathPaymentStrictReceive({
        sendAsset: ctx.usdc,
        sendMax: "1",
        destination: merchant.publicKey(),
        destAsset: Asset.native(),
        destAmount: "10",
        path: [],
      }),
    ]);
    await submit(ctx, back);

    const m = await ctx.server.loadAccount(merchant.publicKey());
    expect(balanceOf(m, ctx.usdc)).toBe("6.5000000");
    expect(balanceOf(m, Asset.native())).toBe("10009.9999900");
    const p = await ctx.server.loadAccount(payer.publicKey());
    expect(balanceOf(p, ctx.usdc)).toBe("6.0000000");
  });

  it("fee bump: the fee source pays base fee x (ops + 1), the inner source's sequence is used", async () => {
    const user = await funded(ctx);
    const sponsor = await funded(ctx);
    const dest = await funded(ctx);
    const inner = await buildTx(
      ctx,
      user,
      [Operation.payment({ destination: dest.publicKey(), asset: Asset.native(), amount: "5" })],
      (b) => b.addMemo(Memo.text("bumped")).setTimeout(60),
    );
    const bump = TransactionBuilder.buildFeeBumpTransaction(sponsor, "200", inner, ctx.passphrase);
    bump.sign(sponsor);
    const res = await submit(ctx, bump);
    expect(res.hash).toBe(bump.hash().toString("hex"));
    expect(res.successful).toBe(true);

    const record = await ctx.server.transactions().transaction(res.hash).call();
    expect(record.fee_account).toBe(sponsor.publicKey());
    expect(record.source_account).toBe(user.publicKey());
    expect(record.fee_charged).toBe("200");
    expect(record.max_fee).toBe("400");
    expect(record.memo).toBe("bumped");
    expect(record.fee_bump_transaction?.hash).toBe(res.hash);
    expect(record.inner_transaction?.hash).toBe(inner.hash().toString("hex"));
    expect(record.inner_transaction?.max_fee).toBe("100");
    expect(record.envelope_xdr.startsWith("AAAABQ")).toBe(true);

    // looked up by the inner hash, id and hash are the inner hash (as Horizon does)
    const byInner = await getJson(`${ctx.ledger.url}/transactions/${inner.hash().toString("hex")}`);
    expect(byInner.body.id).toBe(inner.hash().toString("hex"));
    expect(byInner.body.fee_bump_transaction.hash).toBe(res.hash);

    const result = xdr.TransactionResult.fromXDR(res.result_xdr, "base64");
    expect(result.result().switch().name).toBe("txFeeBumpInnerSuccess");

    const sponsorAfter = await ctx.server.loadAccount(sponsor.publicKey());
    expect(balanceOf(sponsorAfter, Asset.native())).toBe("9999.9999800");
    const userAfter = await ctx.server.loadAccount(user.publicKey());
    expect(balanceOf(userAfter, Asset.native())).toBe("9995.0000000");
    expect(userAfter.sequence).toBe(inner.sequence);
  });

  it("resubmitting an included transaction returns the same result", async () => {
    const alice = await funded(ctx);
    const tx = await buildTx(ctx, alice, [
      Operation.payment({ destination: alice.publicKey(), asset: Asset.native(), amount: "1" }),
    ]);
    const first = await submit(ctx, tx);
    const again = await submit(ctx, tx);
    expect(again.hash).toBe(first.hash);
    expect(again.ledger).toBe(first.ledger);
  });

  it("operations with another source account need that account's signature", async () => {
    const alice = await funded(ctx);
    const bob = await funded(ctx);
    const account = await ctx.server.loadAccount(alice.publicKey());
    const tx = new TransactionBuilder(new Account(account.accountId(), account.sequence), {
      fee: "200",
      networkPassphrase: ctx.passphrase,
    })
      .addOperation(
        Operation.payment({ destination: bob.publicKey(), asset: Asset.native(), amount: "1" }),
      )
      .addOperation(
        Operation.payment({
          destination: alice.publicKey(),
          asset: Asset.native(),
          amount: "2",
          source: bob.publicKey(),
        }),
      )
      .setTimeout(60)
      .build();
    tx.sign(alice, bob);
    const res = await submit(ctx, tx);
    expect(res.successful).toBe(true);
    const bobAfter = await ctx.server.loadAccount(bob.publicKey());
    expect(balanceOf(bobAfter, Asset.native())).toBe("9999.0000000");
  });
  it("manage_data sets, replaces and deletes entries (subentries), set_options keeps the home domain", async () => {
    const kp = await funded(ctx);
    await submit(
      ctx,
      await buildTx(ctx, kp, [
        Operation.manageData({ name: "a", value: "one" }),
        Operation.manageData({ name: "b", value: "two" }),
        Operation.manageData({ name: "a", value: "uno" }),
        Operation.setOptions({ homeDomain: "example.com" }),
      ]),
    );
    let account = (await getJson(`${ctx.ledger.url}/accounts/${kp.publicKey()}`)).body;
    expect(account.data).toEqual({
      a: Buffer.from("uno").toString("base64"),
      b: Buffer.from("two").toString("base64"),
    });
    expect(account.subentry_count).toBe(2);
    expect(account.home_domain).toBe("example.com");
    const ops = (
      await getJson(`${ctx.ledger.url}/accounts/${kp.publicKey()}/operations?order=desc&limit=4`)
    ).body._embedded.records;
    expect(ops.map((o: { type: string; type_i: number }) => [o.type, o.type_i])).toEqual([
      ["set_options", 5],
      ["manage_data", 10],
      ["manage_data", 10],
      ["manage_data", 10],
    ]);
    expect(ops[1]).toMatchObject({ name: "a", value: Buffer.from("uno").toString("base64") });
    expect(ops[0]).toMatchObject({ home_domain: "example.com" });
    // Not in /payments.
    const payments = (await getJson(`${ctx.ledger.url}/accounts/${kp.publicKey()}/payments`)).body;
    expect(payments._embedded.records.map((r: { type: string }) => r.type)).toEqual([
      "create_account",
    ]);

    await submit(ctx, await buildTx(ctx, kp, [Operation.manageData({ name: "b", value: null })]));
    account = (await getJson(`${ctx.ledger.url}/accounts/${kp.publicKey()}`)).body;
    expect(account.data).toEqual({ a: Buffer.from("uno").toString("base64") });
    expect(account.subentry_count).toBe(1);

    // Deleting a missing entry fails the transaction and changes nothing.
    const missing = await buildTx(ctx, kp, [
      Operation.manageData({ name: "a", value: null }),
      Operation.manageData({ name: "zz", value: null }),
    ]);
    const err = await submit(ctx, missing).catch((e) => e);
    expect(err.response.data.extras.result_codes).toEqual({
      transaction: "tx_failed",
      operations: ["op_success", "op_data_name_not_found"],
    });
    account = (await getJson(`${ctx.ledger.url}/accounts/${kp.publicKey()}`)).body;
    expect(account.data).toEqual({ a: Buffer.from("uno").toString("base64") });
  });
});
