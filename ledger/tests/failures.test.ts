/**
 * Every failure code the ledger validates, each produced by a real transaction that deserves it.
 */
import {
  Account,
  Asset,
  Keypair,
  Networks,
  Operation,
  TransactionBuilder,
  xdr,
} from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  balanceOf,
  buildTx,
  type Ctx,
  codes,
  failure,
  funded,
  getJson,
  setup,
  submit,
} from "./helpers";

let ctx: Ctx;
let publicLedger: Ctx;
beforeAll(async () => {
  [ctx, publicLedger] = await Promise.all([setup(), setup({ networkPassphrase: Networks.PUBLIC })]);
});
afterAll(async () => {
  await Promise.all([ctx.ledger.stop(), publicLedger.ledger.stop()]);
});

const pay = (destination: string, amount: string, asset: Asset = Asset.native()) =>
  Operation.payment({ destination, asset, amount });

describe("transaction-level failures (rejected at submission, not included)", () => {
  it("tx_bad_auth: a transaction signed for the public network, submitted to the testnet ledger", async () => {
    const kp = Keypair.random();
    await ctx.server.friendbot(kp.publicKey()).call();
    await publicLedger.server.friendbot(kp.publicKey()).call();
    // Sequence numbers depend on the ledger an account was created in: make both equal.
    const onTestnet = await ctx.server.loadAccount(kp.publicKey());
    const onPublic = await publicLedger.server.loadAccount(kp.publicKey());
    const seq = onTestnet.sequence;
    expect(onPublic.sequence).toBe(seq);
    const forPublic = await buildTx(ctx, kp, [pay(kp.publicKey(), "1")], undefined, {
      account: onPublic,
      passphrase: Networks.PUBLIC,
    });
    const f = await failure(submit(ctx, forPublic));
    expect(f.status).toBe(400);
    expect(f.data.type).toBe("https://stellar.org/horizon-errors/transaction_failed");
    expect(f.data.extras?.result_codes).toEqual({ transaction: "tx_bad_auth" });
    const result = xdr.TransactionResult.fromXDR(f.data.extras?.result_xdr ?? "", "base64");
    expect(result.result().switch().name).toBe("txBadAuth");
    // not included: the sequence number is unchanged
    expect((await ctx.server.loadAccount(kp.publicKey())).sequence).toBe(seq);
    // the same envelope is valid on the public-network ledger
    const res = await submit(publicLedger, forPublic);
    expect(res.successful).toBe(true);
  });

  it("tx_bad_auth: signed by the wrong key", async () => {
    const kp = await funded(ctx);
    const tx = await buildTx(ctx, kp, [pay(kp.publicKey(), "1")], undefined, {
      signers: [Keypair.random()],
    });
    expect(await codes(submit(ctx, tx))).toEqual({ transaction: "tx_bad_auth" });
  });

  it("op_bad_auth: an operation source that did not sign", async () => {
    const alice = await funded(ctx);
    const bob = await funded(ctx);
    const tx = await buildTx(ctx, alice, [
      Operation.payment({
        destination: alice.publicKey(),
        asset: Asset.native(),
        amount: "1",
        source: bob.publicKey(),
      }),
    ]);
    expect(await codes(submit(ctx, tx))).toEqual({
      transaction: "tx_failed",
      operations: ["op_bad_auth"],
    });
  });

  it("tx_bad_auth_extra: an unused extra signature", async () => {
    const kp = await funded(ctx);
    const tx = await buildTx(ctx, kp, [pay(kp.publicKey(), "1")], undefined, {
      signers: [kp, Keypair.random()],
    });
    expect(await codes(submit(ctx, tx))).toEqual({ transaction: "tx_bad_auth_extra" });
  });

  it("tx_bad_seq: a sequence number that is not the next one", async () => {
    const kp = await funded(ctx);
    const account = await ctx.server.loadAccount(kp.publicKey());
    const ahead = new Account(kp.publicKey(), (BigInt(account.sequence) + 5n).toString());
    const tx = await buildTx(ctx, kp, [pay(kp.publicKey(), "1")], undefined, { account: ahead });
    expect(await codes(submit(ctx, tx))).toEqual({ transaction: "tx_bad_seq" });
    // and replaying a used sequence number
    const first = await buildTx(ctx, kp, [pay(kp.publicKey(), "1")]);
    await submit(ctx, first);
    const replay = await buildTx(ctx, kp, [pay(kp.publicKey(), "2")], undefined, {
      account: new Account(kp.publicKey(), account.sequence),
    });
    expect(await codes(submit(ctx, replay))).toEqual({ transaction: "tx_bad_seq" });
  });

  it("tx_too_early and tx_too_late: time bounds", async () => {
    const kp = await funded(ctx);
    const now = Math.floor(Date.now() / 1000);
    const early = await buildTx(ctx, kp, [pay(kp.publicKey(), "1")], (b) =>
      b.setTimebounds(now + 3600, 0),
    );
    expect(await codes(submit(ctx, early))).toEqual({ transaction: "tx_too_early" });
    const late = await buildTx(ctx, kp, [pay(kp.publicKey(), "1")], (b) =>
      b.setTimebounds(0, now - 60),
    );
    expect(await codes(submit(ctx, late))).toEqual({ transaction: "tx_too_late" });
  });

  it("tx_insufficient_fee: bid below base fee x operations", async () => {
    const kp = await funded(ctx);
    const tx = await buildTx(
      ctx,
      kp,
      [pay(kp.publicKey(), "1"), pay(kp.publicKey(), "1")],
      undefined,
      { fee: "99" },
    );
    expect(await codes(submit(ctx, tx))).toEqual({ transaction: "tx_insufficient_fee" });
  });

  it("tx_no_source_account: source account does not exist", async () => {
    const ghost = Keypair.random();
    const tx = await buildTx(ctx, ghost, [pay(ghost.publicKey(), "1")], undefined, {
      account: new Account(ghost.publicKey(), "0"),
    });
    expect(await codes(submit(ctx, tx))).toEqual({ transaction: "tx_no_source_account" });
  });

  it("op_not_supported: operations the ledger does not implement", async () => {
    const kp = await funded(ctx);
    const tx = await buildTx(ctx, kp, [
      pay(kp.publicKey(), "1"),
      Operation.manageSellOffer({
        selling: Asset.native(),
        buying: ctx.usdc,
        amount: "1",
        price: "1",
      }),
      // set_options keeps only the home domain (ledger/README.md)
      Operation.setOptions({ masterWeight: 2 }),
    ]);
    expect(await codes(submit(ctx, tx))).toEqual({
      transaction: "tx_failed",
      operations: ["op_success", "op_not_supported", "op_not_supported"],
    });
  });

  it("op_malformed: non-positive amounts", async () => {
    const kp = await funded(ctx);
    // the SDK refuses to build amount 0, so build with a valid amount and patch the XDR
    const tx = await buildTx(ctx, kp, [pay(kp.publicKey(), "1")]);
    const env = tx.toEnvelope();
    env.v1().tx().operations()[0].body().paymentOp().amount(xdr.Int64.fromString("0"));
    const patched = TransactionBuilder.fromXDR(env, ctx.passphrase);
    patched.signatures.length = 0;
    patched.sign(kp);
    expect(await codes(submit(ctx, patched))).toEqual({
      transaction: "tx_failed",
      operations: ["op_malformed"],
    });
  });

  it("transaction_malformed: an envelope that does not decode", async () => {
    const res = await fetch(`${ctx.ledger.url}/transactions`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "tx=not-an-envelope",
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.type).toBe("https://stellar.org/horizon-errors/transaction_malformed");
    expect(body.extras.envelope_xdr).toBe("not-an-envelope");
  });
});

describe("operation failures (included in the ledger as failed: fee charged, sequence used)", () => {
  it("op_underfunded: paying away the base reserve", async () => {
    const kp = await funded(ctx);
    const other = await funded(ctx);
    const tx = await buildTx(ctx, kp, [pay(other.publicKey(), "9999.5")]);
    const f = await failure(submit(ctx, tx));
    expect(f.data.extras?.result_codes).toEqual({
      transaction: "tx_failed",
      operations: ["op_underfunded"],
    });
    const hash = tx.hash().toString("hex");
    const record = await ctx.server.transactions().transaction(hash).call();
    expect(record.successful).toBe(false);
    expect(record.fee_charged).toBe("100");
    const after = await ctx.server.loadAccount(kp.publicKey());
    expect(after.sequence).toBe(tx.sequence);
    expect(balanceOf(after, Asset.native())).toBe("9999.9999900");
    const result = xdr.TransactionResult.fromXDR(record.result_xdr, "base64");
    expect(result.result().switch().name).toBe("txFailed");
  });

  it("op_underfunded: paying more USDC than held", async () => {
    const alice = await funded(ctx);
    const bob = await funded(ctx);
    for (const kp of [alice, bob]) {
      await submit(ctx, await buildTx(ctx, kp, [Operation.changeTrust({ asset: ctx.usdc })]));
    }
    await ctx.ledger.fund(alice.publicKey(), "5", "USDC");
    const tx = await buildTx(ctx, alice, [pay(bob.publicKey(), "5.0000001", ctx.usdc)]);
    expect(await codes(submit(ctx, tx))).toEqual({
      transaction: "tx_failed",
      operations: ["op_underfunded"],
    });
  });

  it("op_low_reserve: create_account below the minimum balance, and a trustline without reserve", async () => {
    const kp = await funded(ctx);
    const tx = await buildTx(ctx, kp, [
      Operation.createAccount({
        destination: Keypair.random().publicKey(),
        startingBalance: "0.9",
      }),
    ]);
    expect(await codes(submit(ctx, tx))).toEqual({
      transaction: "tx_failed",
      operations: ["op_low_reserve"],
    });

    const poor = Keypair.random();
    await submit(
      ctx,
      await buildTx(ctx, kp, [
        Operation.createAccount({ destination: poor.publicKey(), startingBalance: "1.2" }),
      ]),
    );
    const trust = await buildTx(ctx, poor, [Operation.changeTrust({ asset: ctx.usdc })]);
    expect(await codes(submit(ctx, trust))).toEqual({
      transaction: "tx_failed",
      operations: ["op_low_reserve"],
    });
  });

  it("op_already_exists: create_account for an existing account", async () => {
    const kp = await funded(ctx);
    const other = await funded(ctx);
    const tx = await buildTx(ctx, kp, [
      Operation.createAccount({ destination: other.publicKey(), startingBalance: "5" }),
    ]);
    expect(await codes(submit(ctx, tx))).toEqual({
      transaction: "tx_failed",
      operations: ["op_already_exists"],
    });
  });

  it("op_no_destination: payment to an account that does not exist", async () => {
    const kp = await funded(ctx);
    const tx = await buildTx(ctx, kp, [pay(Keypair.random().publicKey(), "10")]);
    expect(await codes(submit(ctx, tx))).toEqual({
      transaction: "tx_failed",
      operations: ["op_no_destination"],
    });
  });

  it("op_no_trust and op_src_no_trust: USDC without trustlines", async () => {
    const holder = await funded(ctx);
    const stranger = await funded(ctx);
    await submit(ctx, await buildTx(ctx, holder, [Operation.changeTrust({ asset: ctx.usdc })]));
    await ctx.ledger.fund(holder.publicKey(), "10", "USDC");

    const toStranger = await buildTx(ctx, holder, [pay(stranger.publicKey(), "1", ctx.usdc)]);
    expect(await codes(submit(ctx, toStranger))).toEqual({
      transaction: "tx_failed",
      operations: ["op_no_trust"],
    });
    const fromStranger = await buildTx(ctx, stranger, [pay(holder.publicKey(), "1", ctx.usdc)]);
    expect(await codes(submit(ctx, fromStranger))).toEqual({
      transaction: "tx_failed",
      operations: ["op_src_no_trust"],
    });
  });

  it("op_line_full: payment above the destination's trustline limit", async () => {
    const holder = await funded(ctx);
    const capped = await funded(ctx);
    await submit(ctx, await buildTx(ctx, holder, [Operation.changeTrust({ asset: ctx.usdc })]));
    await submit(
      ctx,
      await buildTx(ctx, capped, [Operation.changeTrust({ asset: ctx.usdc, limit: "10" })]),
    );
    await ctx.ledger.fund(holder.publicKey(), "50", "USDC");
    const tx = await buildTx(ctx, holder, [pay(capped.publicKey(), "10.0000001", ctx.usdc)]);
    expect(await codes(submit(ctx, tx))).toEqual({
      transaction: "tx_failed",
      operations: ["op_line_full"],
    });
  });

  it("op_no_issuer: trustline and payment for an asset whose issuer does not exist", async () => {
    const kp = await funded(ctx);
    const other = await funded(ctx);
    const ghostAsset = new Asset("GHST", Keypair.random().publicKey());
    const trust = await buildTx(ctx, kp, [Operation.changeTrust({ asset: ghostAsset })]);
    expect(await codes(submit(ctx, trust))).toEqual({
      transaction: "tx_failed",
      operations: ["op_no_issuer"],
    });
    const payment = await buildTx(ctx, kp, [pay(other.publicKey(), "1", ghostAsset)]);
    expect(await codes(submit(ctx, payment))).toEqual({
      transaction: "tx_failed",
      operations: ["op_no_issuer"],
    });
  });

  it("a failing operation rolls back the others in the transaction", async () => {
    const kp = await funded(ctx);
    const other = await funded(ctx);
    const tx = await buildTx(
      ctx,
      kp,
      [pay(other.publicKey(), "100"), pay(Keypair.random().publicKey(), "1")],
      undefined,
      { fee: "200" },
    );
    expect(await codes(submit(ctx, tx))).toEqual({
      transaction: "tx_failed",
      operations: ["op_success", "op_no_destination"],
    });
    const after = await ctx.server.loadAccount(other.publicKey());
    expect(balanceOf(after, Asset.native())).toBe("10000.0000000");
  });

  it("path payment bounds and unsupported conversions", async () => {
    const payer = await funded(ctx);
    const merchant = await funded(ctx);
    for (const kp of [payer, merchant]) {
      await submit(
        ctx,
        await buildTx(ctx, kp, [
          Operation.changeTrust({ asset: ctx.usdc }),
          Operation.changeTrust({ asset: ctx.eurc }),
        ]),
      );
    }
    await ctx.ledger.fund(payer.publicKey(), "100", "USDC");
    const over = await buildTx(ctx, payer, [
      Operation.pathPaymentStrictReceive({
        sendAsset: Asset.native(),
        sendMax: "19.9999999",
        destination: merchant.publicKey(),
        destAsset: ctx.usdc,
        destAmount: "2",
        path: [],
      }),
    ]);
    expect(await codes(submit(ctx, over))).toEqual({
      transaction: "tx_failed",
      operations: ["op_over_source_max"],
    });
    const under = await buildTx(ctx, payer, [
      Operation.pathPaymentStrictSend({
        sendAsset: Asset.native(),
        sendAmount: "10",
        destination: merchant.publicKey(),
        destAsset: ctx.usdc,
        destMin: "1.0000001",
        path: [],
      }),
    ]);
    expect(await codes(submit(ctx, under))).toEqual({
      transaction: "tx_failed",
      operations: ["op_under_dest_min"],
    });
    const direct = await buildTx(ctx, payer, [
      Operation.pathPaymentStrictSend({
        sendAsset: ctx.usdc,
        sendAmount: "1",
        destination: merchant.publicKey(),
        destAsset: ctx.eurc,
        destMin: "0.1",
        path: [],
      }),
    ]);
    expect(await codes(submit(ctx, direct))).toEqual({
      transaction: "tx_failed",
      operations: ["op_too_few_offers"],
    });
    // through XLM it works: 1 USDC -> 10 XLM -> 0.9 EURC
    const viaXlm = await buildTx(ctx, payer, [
      Operation.pathPaymentStrictSend({
        sendAsset: ctx.usdc,
        sendAmount: "1",
        destination: merchant.publicKey(),
        destAsset: ctx.eurc,
        destMin: "0.9",
        path: [Asset.native()],
      }),
    ]);
    expect((await submit(ctx, viaXlm)).successful).toBe(true);
    const m = await ctx.server.loadAccount(merchant.publicKey());
    expect(balanceOf(m, ctx.eurc)).toBe("0.9000000");
  });
});

describe("fee bump failures", () => {
  it("tx_fee_bump_inner_failed with the inner code when the inner transaction is invalid", async () => {
    const user = await funded(ctx);
    const sponsor = await funded(ctx);
    const account = await ctx.server.loadAccount(user.publicKey());
    const stale = new Account(user.publicKey(), (BigInt(account.sequence) + 3n).toString());
    const inner = await buildTx(ctx, user, [pay(user.publicKey(), "1")], undefined, {
      account: stale,
    });
    const bump = TransactionBuilder.buildFeeBumpTransaction(sponsor, "200", inner, ctx.passphrase);
    bump.sign(sponsor);
    expect(await codes(submit(ctx, bump))).toEqual({
      transaction: "tx_fee_bump_inner_failed",
      inner_transaction: "tx_bad_seq",
    });
  });

  it("tx_fee_bump_inner_failed with operation codes when an inner operation fails", async () => {
    const user = await funded(ctx);
    const sponsor = await funded(ctx);
    const inner = await buildTx(ctx, user, [pay(Keypair.random().publicKey(), "1")]);
    const bump = TransactionBuilder.buildFeeBumpTransaction(sponsor, "200", inner, ctx.passphrase);
    bump.sign(sponsor);
    const f = await failure(submit(ctx, bump));
    expect(f.data.extras?.result_codes).toEqual({
      transaction: "tx_fee_bump_inner_failed",
      inner_transaction: "tx_failed",
      operations: ["op_no_destination"],
    });
    const result = xdr.TransactionResult.fromXDR(f.data.extras?.result_xdr ?? "", "base64");
    expect(result.result().switch().name).toBe("txFeeBumpInnerFailed");
    // included as failed; the sponsor paid the fee
    const record = await getJson(`${ctx.ledger.url}/transactions/${bump.hash().toString("hex")}`);
    expect(record.body.successful).toBe(false);
    expect(record.body.fee_charged).toBe("200");
  });

  it("fee bump: bad fee-source signature and a bid below the minimum", async () => {
    const user = await funded(ctx);
    const sponsor = await funded(ctx);
    const inner = await buildTx(ctx, user, [pay(user.publicKey(), "1")]);
    const unsigned = TransactionBuilder.buildFeeBumpTransaction(
      sponsor,
      "200",
      inner,
      ctx.passphrase,
    );
    unsigned.sign(Keypair.random());
    expect(await codes(submit(ctx, unsigned))).toEqual({ transaction: "tx_bad_auth" });

    const cheap = TransactionBuilder.buildFeeBumpTransaction(sponsor, "100", inner, ctx.passphrase);
    // 100 per op for 2 "ops" (inner op + the bump) = 200 total is the minimum; patch it to 150
    const env = cheap.toEnvelope();
    env.feeBump().tx().fee(xdr.Int64.fromString("150"));
    const patched = TransactionBuilder.fromXDR(env, ctx.passphrase);
    patched.sign(sponsor);
    expect(await codes(submit(ctx, patched))).toEqual({ transaction: "tx_insufficient_fee" });
  });
});
