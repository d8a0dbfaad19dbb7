/**
 * Server behaviour around the ledger: discovery endpoints, friendbot and local funding, ledger
 * closing modes, failure injection, snapshots.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Asset, Keypair, Networks, NotFoundError, Operation } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balanceOf, buildTx, type Ctx, failure, funded, getJson, setup, submit } from "./helpers";

let ctx: Ctx;
beforeAll(async () => {
  ctx = await setup();
});
afterAll(async () => {
  await ctx.ledger.stop();
});

describe("discovery endpoints", () => {
  it("GET / has this ledger's passphrase and ledger numbers", async () => {
    const { body, headers } = await getJson(`${ctx.ledger.url}/`);
    expect(headers.get("content-type")).toBe("application/hal+json; charset=utf-8");
    expect(headers.get("date")).toBeTruthy();
    expect(body.network_passphrase).toBe(Networks.TESTNET);
    expect(typeof body.history_latest_ledger).toBe("number");
    expect(body.core_latest_ledger).toBe(body.history_latest_ledger);
    expect(body._links.account).toEqual({
      href: `${ctx.ledger.url}/accounts/{account_id}`,
      templated: true,
    });
    const root = await ctx.server.root();
    expect(root.network_passphrase).toBe(Networks.TESTNET);
  });

  it("GET /fee_stats reports the base fee as strings", async () => {
    expect(await ctx.server.fetchBaseFee()).toBe(100);
    const stats = await ctx.server.feeStats();
    expect(stats.last_ledger_base_fee).toBe("100");
    expect(stats.fee_charged.p50).toBe("100");
    expect(typeof stats.last_ledger).toBe("string");
  });

  it("GET /ledgers?order=desc&limit=1 is the latest ledger", async () => {
    const page = await ctx.server.ledgers().order("desc").limit(1).call();
    const latest = page.records[0];
    const { body: root } = await getJson(`${ctx.ledger.url}/`);
    expect(latest.sequence).toBe(root.history_latest_ledger);
    expect(latest.paging_token).toBe((BigInt(latest.sequence) << 32n).toString());
    expect(latest.base_fee_in_stroops).toBe(100);
    expect(latest.base_reserve_in_stroops).toBe(5_000_000);
    expect(latest.total_coins).toBe("100000000000.0000000");
    const one = await ctx.server.ledgers().ledger(latest.sequence).call();
    expect((one as unknown as { hash: string }).hash).toBe(latest.hash);
  });

  it("GET /accounts/:id answers 404 not_found like Horizon for a missing account", async () => {
    const id = Keypair.random().publicKey();
    const res = await getJson(`${ctx.ledger.url}/accounts/${id}`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
    expect(res.body).toEqual({
      type: "https://stellar.org/horizon-errors/not_found",
      title: "Resource Missing",
      status: 404,
      detail:
        "The resource at the url requested was not found.  This usually occurs for one of two reasons:  The url requested is not valid, or no data in our database could be found with the parameters provided.",
    });
    await expect(ctx.server.loadAccount(id)).rejects.toBeInstanceOf(NotFoundError);
    const bad = await getJson(`${ctx.ledger.url}/accounts/not-an-account`);
    expect(bad.status).toBe(400);
    expect(bad.body.extras.invalid_field).toBe("account_id");
  });

  it("GET /transactions/:hash answers 404 for unknown hashes", async () => {
    const f = await failure(ctx.server.transactions().transaction("ab".repeat(32)).call());
    expect(f.status).toBe(404);
  });

  it("answers CORS preflights for browser clients", async () => {
    const res = await fetch(`${ctx.ledger.url}/transactions`, {
      method: "OPTIONS",
      headers: { "Access-Control-Request-Headers": "x-client-name" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")).toBe("x-client-name");
  });
});

describe("friendbot and local funding", () => {
  it("friendbot shows up as a create_account payment and refuses to fund twice", async () => {
    const kp = await funded(ctx);
    const page = await ctx.server.payments().forAccount(kp.publicKey()).call();
    expect(page.records[0]).toMatchObject({
      type: "create_account",
      starting_balance: "10000.0000000",
      account: kp.publicKey(),
    });
    const again = await getJson(`${ctx.ledger.url}/friendbot?addr=${kp.publicKey()}`);
    expect(again.status).toBe(400);
    expect(again.body.detail).toBe("account already funded to starting balance");
    const bad = await getJson(`${ctx.ledger.url}/friendbot?addr=nope`);
    expect(bad.status).toBe(400);
    expect(bad.body.extras.invalid_field).toBe("addr");
  });

  it("GET /local/issuers lists public keys only; POST /local/fund pays with a real transaction", async () => {
    const { body } = await getJson(`${ctx.ledger.url}/local/issuers`);
    expect(body).toEqual({
      USDC: { code: "USDC", issuer: ctx.ledger.issuers.USDC.issuer },
      EURC: { code: "EURC", issuer: ctx.ledger.issuers.EURC.issuer },
    });
    const kp = await funded(ctx);
    const fund = (assetCode: string, amount: string) =>
      getJson(`${ctx.ledger.url}/local/fund`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ account: kp.publicKey(), assetCode, amount }),
      });
    const noTrust = await fund("USDC", "25");
    expect(noTrust.status).toBe(400);
    expect(noTrust.body.extras.result_codes.operations).toEqual(["op_no_trust"]);
    expect(noTrust.body.detail).toContain("trustline");

    await submit(ctx, await buildTx(ctx, kp, [Operation.changeTrust({ asset: ctx.usdc })]));
    const ok = await fund("USDC", "25");
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ successful: true, asset_code: "USDC", amount: "25.0000000" });
    const xlm = await fund("XLM", "1.5");
    expect(xlm.status).toBe(200);
    const account = await ctx.server.loadAccount(kp.publicKey());
    expect(balanceOf(account, ctx.usdc)).toBe("25.0000000");
    expect(balanceOf(account, Asset.native())).toBe("10001.4999900");
    const page = await ctx.server.payments().forAccount(kp.publicKey()).order("desc").call();
    expect(page.records[1]).toMatchObject({
      type: "payment",
      from: ctx.ledger.issuers.USDC.issuer,
      asset_code: "USDC",
      amount: "25.0000000",
    });
  });

  it("uses configured issuer secrets", async () => {
    const usdc = Keypair.random();
    const other = await setup({ issuers: { USDC: usdc.secret() } });
    try {
      expect(other.ledger.issuers.USDC.issuer).toBe(usdc.publicKey());
      const issuer = await other.server.loadAccount(usdc.publicKey());
      expect(issuer.account_id).toBe(usdc.publicKey());
    } finally {
      await other.ledger.stop();
    }
  });
});

describe("ledger closing", () => {
  it("manual mode: a submission waits for close(), which includes it", async () => {
    const manual = await setup({ closeOnSubmit: false, closeIntervalMs: 0 });
    try {
      const kp = Keypair.random();
      const fb = manual.server.friendbot(kp.publicKey()).call();
      await new Promise((r) => setTimeout(r, 50));
      const info = await manual.ledger.close();
      await fb;
      expect(info.transactionCount).toBe(1);
      const tx = await buildTx(manual, kp, [
        Operation.payment({ destination: kp.publicKey(), asset: Asset.native(), amount: "1" }),
      ]);
      let done = false;
      const pending = submit(manual, tx).then((r) => {
        done = true;
        return r;
      });
      await new Promise((r) => setTimeout(r, 50));
      expect(done).toBe(false);
      const closed = await (
        await fetch(`${manual.ledger.url}/local/close`, { method: "POST" })
      ).json();
      const res = await pending;
      expect(res.ledger).toBe(closed.sequence);
    } finally {
      await manual.ledger.stop();
    }
  });

  it("timer mode closes ledgers on its own", async () => {
    const timed = await setup({ closeOnSubmit: false, closeIntervalMs: 40 });
    try {
      const kp = Keypair.random();
      await timed.server.friendbot(kp.publicKey()).call();
      const before = (await timed.server.ledgers().order("desc").limit(1).call()).records[0];
      await new Promise((r) => setTimeout(r, 150));
      const after = (await timed.server.ledgers().order("desc").limit(1).call()).records[0];
      expect(after.sequence).toBeGreaterThan(before.sequence);
    } finally {
      await timed.ledger.stop();
    }
  });

  it("a submission that is not included in time gets Horizon's 504 and can be found later", async () => {
    const slow = await setup({ closeOnSubmit: false, closeIntervalMs: 0, submitTimeoutMs: 100 });
    try {
      const kp = Keypair.random();
      const fb = slow.server.friendbot(kp.publicKey()).call();
      await new Promise((r) => setTimeout(r, 20));
      await slow.ledger.close();
      await fb;
      const tx = await buildTx(slow, kp, [
        Operation.payment({ destination: kp.publicKey(), asset: Asset.native(), amount: "1" }),
      ]);
      const f = await failure(submit(slow, tx));
      expect(f.status).toBe(504);
      expect(f.data.type).toBe("https://stellar.org/horizon-errors/transaction_submission_timeout");
      expect(f.data.extras?.hash).toBe(tx.hash().toString("hex"));
      await slow.ledger.close();
      const found = await slow.server.transactions().transaction(tx.hash().toString("hex")).call();
      expect(found.successful).toBe(true);
    } finally {
      await slow.ledger.stop();
    }
  });

  it("uses the injected clock for close times and time bounds", async () => {
    let now = Date.UTC(2030, 0, 1, 12, 0, 0);
    const clocked = await setup({ now: () => now });
    try {
      const kp = await funded(clocked);
      const account = await clocked.server.loadAccount(kp.publicKey());
      expect(account.last_modified_time).toBe("2030-01-01T12:00:00Z");
      const nowSec = Math.floor(now / 1000);
      const tx = await buildTx(
        clocked,
        kp,
        [Operation.payment({ destination: kp.publicKey(), asset: Asset.native(), amount: "1" })],
        (b) => b.setTimebounds(nowSec + 60, 0),
      );
      const early = await failure(submit(clocked, tx));
      expect(early.data.extras?.result_codes.transaction).toBe("tx_too_early");
      now += 120_000;
      const res = await submit(clocked, tx);
      expect(res.created_at).toBe("2030-01-01T12:02:00Z");
    } finally {
      await clocked.ledger.stop();
    }
  });
});

describe("failure injection", () => {
  it("429 with Horizon's rate-limit problem, for `count` requests", async () => {
    const kp = await funded(ctx);
    ctx.ledger.setFailure({ status: 429, count: 1 });
    const f = await failure(ctx.server.loadAccount(kp.publicKey()));
    expect(f.status).toBe(429);
    expect(f.data.type).toBe("https://stellar.org/horizon-errors/rate_limit_exceeded");
    expect((await ctx.server.loadAccount(kp.publicKey())).account_id).toBe(kp.publicKey());
  });

  it("503 until cleared, only on matching paths; settable over HTTP", async () => {
    const set = (body: unknown) =>
      fetch(`${ctx.ledger.url}/local/failure`, { method: "POST", body: JSON.stringify(body) });
    await set({ status: 503, paths: "^/fee_stats" });
    expect((await fetch(`${ctx.ledger.url}/fee_stats`)).status).toBe(503);
    expect((await fetch(`${ctx.ledger.url}/fee_stats`)).status).toBe(503);
    expect((await fetch(`${ctx.ledger.url}/`)).status).toBe(200);
    await set({});
    expect((await fetch(`${ctx.ledger.url}/fee_stats`)).status).toBe(200);
  });

  it("504 on submit; with applyAnyway the transaction is still included", async () => {
    const kp = await funded(ctx);
    const lost = await buildTx(ctx, kp, [
      Operation.payment({ destination: kp.publicKey(), asset: Asset.native(), amount: "1" }),
    ]);
    ctx.ledger.setFailure({ status: 504, count: 1, paths: /^\/transactions$/ });
    const f1 = await failure(submit(ctx, lost));
    expect(f1.status).toBe(504);
    const notThere = await failure(
      ctx.server.transactions().transaction(lost.hash().toString("hex")).call(),
    );
    expect(notThere.status).toBe(404);

    const tx = await buildTx(ctx, kp, [
      Operation.payment({ destination: kp.publicKey(), asset: Asset.native(), amount: "1" }),
    ]);
    ctx.ledger.setFailure({ status: 504, count: 1, applyAnyway: true });
    const f2 = await failure(submit(ctx, tx));
    expect(f2.status).toBe(504);
    expect(f2.data.extras?.hash).toBe(tx.hash().toString("hex"));
    await new Promise((r) => setTimeout(r, 20));
    const found = await ctx.server.transactions().transaction(tx.hash().toString("hex")).call();
    expect(found.successful).toBe(true);
  });

  it("504 timeout problem on reads, and delays", async () => {
    ctx.ledger.setFailure({ status: 504, count: 1 });
    const res = await getJson(`${ctx.ledger.url}/`);
    expect(res.status).toBe(504);
    expect(res.body.type).toBe("https://stellar.org/horizon-errors/timeout");
    ctx.ledger.setFailure({ delayMs: 200, count: 1 });
    const start = Date.now();
    expect((await fetch(`${ctx.ledger.url}/`)).status).toBe(200);
    expect(Date.now() - start).toBeGreaterThanOrEqual(190);
    ctx.ledger.setFailure(null);
  });
});

describe("snapshots", () => {
  it("state survives a restart from the snapshot file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ledger-snap-"));
    const snapshotFile = join(dir, "testnet.json");
    try {
      const first = await setup({ snapshotFile });
      const kp = await funded(first);
      const tx = await buildTx(first, kp, [Operation.changeTrust({ asset: first.usdc })]);
      await submit(first, tx);
      await first.ledger.fund(kp.publicKey(), "3", "USDC");
      const issuers = first.ledger.issuers;
      await first.ledger.stop();

      const second = await setup({ snapshotFile });
      try {
        expect(second.ledger.issuers.USDC.issuer).toBe(issuers.USDC.issuer);
        const account = await second.server.loadAccount(kp.publicKey());
        expect(balanceOf(account, second.usdc)).toBe("3.0000000");
        const again = await second.server
          .transactions()
          .transaction(tx.hash().toString("hex"))
          .call();
        expect(again.successful).toBe(true);
        const next = await buildTx(second, kp, [
          Operation.payment({ destination: kp.publicKey(), asset: second.usdc, amount: "1" }),
        ]);
        expect((await submit(second, next)).successful).toBe(true);
      } finally {
        await second.ledger.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
