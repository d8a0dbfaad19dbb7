/**
 * Reading payments back exactly as the app does:
 * server.payments().forAccount(id).cursor(c).join("transactions") — pages and streams.
 */
import { Asset, type Horizon, type Keypair, Memo, Operation } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTx, type Ctx, failure, funded, getJson, setup, submit } from "./helpers";

let ctx: Ctx;
let merchant: Keypair;
let payer: Keypair;
/** memo of each payment to the merchant, in order */
const memos: string[] = [];

type Payment = Horizon.ServerApi.PaymentOperationRecord & {
  transaction_attr?: Horizon.HorizonApi.TransactionResponse;
};

beforeAll(async () => {
  ctx = await setup();
  merchant = await funded(ctx);
  payer = await funded(ctx);
  // 3 transactions x 4 payments, each transaction with its own memo
  for (let t = 0; t < 3; t++) {
    const memo = `INV-${t}`;
    const ops = Array.from({ length: 4 }, (_, i) =>
      Operation.payment({
        destination: merchant.publicKey(),
        asset: Asset.native(),
        amount: `${t + 1}.${i}`,
      }),
    );
    const tx = await buildTx(ctx, payer, ops, (b) => b.addMemo(Memo.text(memo)).setTimeout(60), {
      fee: "400",
    });
    await submit(ctx, tx);
    for (let i = 0; i < 4; i++) memos.push(memo);
  }
});
afterAll(async () => {
  await ctx.ledger.stop();
});

async function allPages(builder: () => ReturnType<Horizon.Server["payments"]>, limit: number) {
  const seen: Payment[] = [];
  let page = await builder().limit(limit).call();
  while (page.records.length > 0) {
    seen.push(...(page.records as Payment[]));
    page = await page.next();
  }
  return seen;
}

describe("payments pages", () => {
  it("pages through an account's payments with next(), with memos from join=transactions", async () => {
    const records = await allPages(
      () => ctx.server.payments().forAccount(merchant.publicKey()).join("transactions"),
      5,
    );
    // friendbot's create_account + 12 payments
    expect(records.map((r) => r.type)).toEqual(["create_account", ...memos.map(() => "payment")]);
    const payments = records.slice(1);
    expect(payments.map((r) => r.amount)).toEqual(
      memos.map((_, k) => `${Math.floor(k / 4) + 1}.${k % 4}000000`),
    );
    for (const [k, r] of payments.entries()) {
      expect(r.transaction_attr?.memo).toBe(memos[k]);
      expect(r.transaction_attr?.memo_type).toBe("text");
      expect(r.transaction_attr?.hash).toBe(r.transaction_hash);
      const tx = await r.transaction();
      expect(tx.memo).toBe(memos[k]);
      expect(r.to).toBe(merchant.publicKey());
      expect(r.from).toBe(payer.publicKey());
      expect(r.transaction_successful).toBe(true);
    }
    // paging tokens are TOIDs: strictly increasing as numbers
    const tokens = records.map((r) => BigInt(r.paging_token));
    expect([...tokens].sort((a, b) => (a < b ? -1 : 1))).toEqual(tokens);
    expect(new Set(tokens).size).toBe(tokens.length);
    // ops of one transaction: same ledger/tx part, op index 1..4
    const first = tokens[1];
    expect(tokens.slice(1, 5)).toEqual([first, first + 1n, first + 2n, first + 3n]);
    expect(first & 0xfffn).toBe(1n);
  });

  it("resumes from a cursor, in both orders, and prev() goes back", async () => {
    const all = (await ctx.server.payments().forAccount(merchant.publicKey()).limit(200).call())
      .records as Payment[];
    const cursor = all[4].paging_token;
    const after = await ctx.server
      .payments()
      .forAccount(merchant.publicKey())
      .cursor(cursor)
      .limit(3)
      .call();
    expect(after.records.map((r) => r.id)).toEqual(all.slice(5, 8).map((r) => r.id));
    const before = await ctx.server
      .payments()
      .forAccount(merchant.publicKey())
      .cursor(cursor)
      .order("desc")
      .limit(3)
      .call();
    expect(before.records.map((r) => r.id)).toEqual(
      all
        .slice(1, 4)
        .reverse()
        .map((r) => r.id),
    );
    const back = await after.prev();
    expect(back.records.map((r) => r.id)).toEqual(
      all
        .slice(2, 5)
        .reverse()
        .map((r) => r.id),
    );

    // numeric cursor comparison: a token with fewer digits still sorts before
    const small = await ctx.server.payments().forAccount(merchant.publicKey()).cursor("9").call();
    expect(small.records[0].id).toBe(all[0].id);
  });

  it("renders page links like Horizon (alphabetical params, next/prev cursors)", async () => {
    const { body } = await getJson(
      `${ctx.ledger.url}/accounts/${merchant.publicKey()}/payments?limit=2&join=transactions`,
    );
    const records = body._embedded.records;
    const base = `${ctx.ledger.url}/accounts/${merchant.publicKey()}/payments`;
    expect(body._links.self.href).toBe(`${base}?cursor=&join=transactions&limit=2&order=asc`);
    expect(body._links.next.href).toBe(
      `${base}?cursor=${records[1].paging_token}&join=transactions&limit=2&order=asc`,
    );
    expect(body._links.prev.href).toBe(
      `${base}?cursor=${records[0].paging_token}&join=transactions&limit=2&order=desc`,
    );
    expect(Object.keys(records[1])).toEqual([
      "_links",
      "id",
      "paging_token",
      "transaction_successful",
      "source_account",
      "type",
      "type_i",
      "created_at",
      "transaction_hash",
      "transaction",
      "asset_type",
      "from",
      "to",
      "amount",
    ]);
  });

  it("rejects limit above 200 like Horizon", async () => {
    const f = await failure(ctx.server.payments().limit(201).call());
    expect(f.status).toBe(400);
    expect(f.data).toMatchObject({
      type: "https://stellar.org/horizon-errors/bad_request",
      extras: {
        invalid_field: "limit",
        reason: "invalid limit: value provided that is over limit max of 200",
      },
    });
    const ok = await ctx.server.payments().limit(200).call();
    expect(ok.records.length).toBeGreaterThan(12);
  });

  it("global /payments and /transactions/:hash/payments", async () => {
    const global = await ctx.server.payments().order("desc").limit(1).call();
    const last = global.records[0] as Payment;
    expect(last.amount).toBe("3.3000000");
    const forTx = await ctx.server.payments().forTransaction(last.transaction_hash).call();
    expect(forTx.records).toHaveLength(4);
  });

  it("failed payments appear only with include_failed=true", async () => {
    const poor = await funded(ctx);
    const tx = await buildTx(ctx, poor, [
      Operation.payment({
        destination: merchant.publicKey(),
        asset: Asset.native(),
        amount: "50000",
      }),
    ]);
    await failure(submit(ctx, tx));
    const hash = tx.hash().toString("hex");
    const plain = await ctx.server.payments().forAccount(merchant.publicKey()).limit(200).call();
    expect(plain.records.some((r) => r.transaction_hash === hash)).toBe(false);
    const withFailed = await ctx.server
      .payments()
      .forAccount(merchant.publicKey())
      .includeFailed(true)
      .join("transactions")
      .limit(200)
      .call();
    const failed = withFailed.records.find((r) => r.transaction_hash === hash) as Payment;
    expect(failed.transaction_successful).toBe(false);
    expect(failed.transaction_attr?.successful).toBe(false);
    // a transaction's own operations are listed even when it failed
    const ops = await ctx.server.operations().forTransaction(hash).call();
    expect(ops.records).toHaveLength(1);
  });
});

describe("payments streams", () => {
  it("cursor('now') + join('transactions') streams new payments with their memos", async () => {
    const listeners = ctx.ledger.core.closeListenerCount();
    const received: Payment[] = [];
    const errors: unknown[] = [];
    const stop = ctx.server
      .payments()
      .forAccount(merchant.publicKey())
      .cursor("now")
      .join("transactions")
      .stream({
        onmessage: (r) => {
          received.push(r as unknown as Payment);
        },
        onerror: (e) => {
          errors.push(e);
        },
      });
    try {
      // pay only once the stream is connected (cursor=now is resolved when it connects)
      await waitFor(() => ctx.ledger.core.closeListenerCount() > listeners);
      const tx = await buildTx(
        ctx,
        payer,
        [
          Operation.payment({
            destination: merchant.publicKey(),
            asset: Asset.native(),
            amount: "7",
          }),
        ],
        (b) => b.addMemo(Memo.text("INV-LIVE")).setTimeout(60),
      );
      await submit(ctx, tx);
      await waitFor(() => received.length >= 1);
      expect(received).toHaveLength(1);
      expect(received[0].amount).toBe("7.0000000");
      expect(received[0].transaction_hash).toBe(tx.hash().toString("hex"));
      expect(received[0].transaction_attr?.memo).toBe("INV-LIVE");
      expect((await received[0].transaction()).memo).toBe("INV-LIVE");
      expect(errors).toEqual([]);
    } finally {
      stop();
    }
  });

  it("streams from a cursor, reconnecting after Horizon's close event without gaps or repeats", async () => {
    const all = (await ctx.server.payments().forAccount(merchant.publicKey()).limit(200).call())
      .records;
    const received: string[] = [];
    // limit(3): the server ends the stream after 3 events (like Horizon); the SDK reconnects
    // with the cursor of the last record it saw.
    const stop = ctx.server
      .payments()
      .forAccount(merchant.publicKey())
      .cursor(all[0].paging_token)
      .limit(3)
      .stream({
        onmessage: (r) => {
          received.push((r as unknown as Payment).id);
        },
      });
    try {
      await waitFor(() => received.length >= all.length - 1);
      expect(received).toEqual(all.slice(1).map((r) => r.id));
    } finally {
      stop();
    }
  });

  it("speaks Horizon's SSE wire format", async () => {
    const controller = new AbortController();
    const res = await fetch(`${ctx.ledger.url}/accounts/${merchant.publicKey()}/payments?limit=2`, {
      headers: { Accept: "text/event-stream" },
      signal: controller.signal,
    });
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const text = await res.text(); // ends after 2 events with the goodbye event
    const blocks = text.split("\n\n").filter(Boolean);
    expect(blocks[0]).toBe('retry: 1000\nevent: open\ndata: "hello"');
    expect(blocks[1]).toMatch(/^id: \d+\ndata: \{"_links":/);
    const record = JSON.parse(blocks[1].split("\ndata: ")[1]);
    expect(blocks[1].startsWith(`id: ${record.paging_token}\n`)).toBe(true);
    expect(blocks[3]).toBe('retry: 10\nevent: close\ndata: "byebye"');
  });
});

async function waitFor(cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}
