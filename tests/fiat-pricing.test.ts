import type { Keypair } from "@stellar/stellar-sdk";
import { Account, type Transaction } from "@stellar/stellar-sdk";
import Big from "big.js";
import type postgres from "postgres";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseSep7PayUri } from "@/lib/stellar/sep7";
import type { LocalPriceSource } from "@/scripts/price-source";
import { type Api, client, invoiceBody } from "./helpers/api";
import type { RunningApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import {
  Asset,
  build,
  type Chain,
  funded,
  holder,
  Memo,
  Operation,
  pay,
  send,
  TESTNET,
  TransactionBuilder,
  trust,
} from "./helpers/stellar";

// Invoices priced in USD or EUR, paid in an asset at a locked quote (docs/decisions.md, Fiat
// pricing): the local ledger, real signed transactions, and the local price source moved
// between calls. Prices start at 1 XLM = 0.125 USD = 0.1157 EUR (scripts/price-source.ts).

let testnet: Chain;
let mainnet: Chain;
let app: RunningApp;
let db: LedgerApp["db"];
let sql: postgres.Sql;
let anon: Api;
let prices: LocalPriceSource;
let payer: Keypair;

beforeAll(async () => {
  ({ testnet, mainnet, app, db, sql, anon, prices } = await startLedgerApp());
  payer = await funded(testnet);
});

afterAll(() => stopLedgerApp({ sql, app, testnet, mainnet, db, prices }));

/** The source's prices move, and a minute has passed since the service last read them. */
async function movePrices(next?: Parameters<LocalPriceSource["set"]>[0]) {
  if (next) prices.set(next);
  await sql`update price_cache set fetched_at = now() - interval '2 minutes',
    attempted_at = now() - interval '2 minutes'`;
}

beforeEach(async () => {
  prices.reset();
  await movePrices();
});

type Freelancer = { kp: Keypair; api: Api };

async function freelancer(usdc = false): Promise<Freelancer> {
  const kp = await funded(testnet);
  if (usdc) await trust(testnet, kp, testnet.usdc);
  const { token } = await signIn(app.url, kp);
  return { kp, api: client(app.url, token) };
}

/** A sent invoice of one line `total` priced in `priceCurrency`, paid in `currency`. */
async function fiatInvoice(
  f: Freelancer,
  priceCurrency: "USD" | "EUR",
  total: string,
  over: Record<string, unknown> = {},
) {
  const created = await f.api.post(
    "/api/invoices",
    invoiceBody({
      priceCurrency,
      currency: "XLM",
      lineItems: [{ description: "Work", quantity: "1", rate: total }],
      ...over,
    }),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await f.api.post(`/api/invoices/${created.body.id}/send`)).status).toBe(200);
  return created.body as { id: string; invoiceNumber: string; total: string };
}

const intent = (id: string, sender?: Keypair) =>
  anon.post(`/api/payments/${id}/pay-intent`, {
    ...(sender ? { senderPublicKey: sender.publicKey() } : {}),
    networkPassphrase: TESTNET,
  });

const confirm = (invoiceId: string, transactionHash: string) =>
  anon.post("/api/payments/confirm", { invoiceId, transactionHash });

const statusOf = async (id: string) => (await anon.get(`/api/payments/${id}/status`)).body;

async function payXlm(f: Freelancer, inv: { invoiceNumber: string }, amount: string) {
  return send(
    testnet,
    await pay(
      testnet,
      payer,
      f.kp.publicKey(),
      Asset.native(),
      amount,
      Memo.text(inv.invoiceNumber),
    ),
  );
}

/** The owner's view of the invoice's payments. */
async function paymentsOf(f: Freelancer, id: string) {
  return (await f.api.get(`/api/invoices/${id}/owner`)).body.payments as Record<string, unknown>[];
}

/** Nobody else holds a quote: let it expire (as 15 minutes passing would). */
const expireQuotes = (invoiceId: string) =>
  sql`update quotes set created_at = created_at - interval '1 hour',
    expires_at = now() - interval '1 second' where invoice_id = ${invoiceId}`;

describe("quotes", () => {
  it("locks the amount due of a EUR invoice in XLM, rounded up to the stroop, and paying it exactly makes it PAID", async () => {
    const f = await freelancer();
    const inv = await fiatInvoice(f, "EUR", "100");
    expect(inv.total).toBe("100.0000000");

    const first = await intent(inv.id, payer);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const quote = first.body.quote;
    expect(quote).toMatchObject({
      priceCurrency: "EUR",
      asset: "XLM",
      rate: "0.1157",
      fiatAmount: "100.00",
      assetAmount: "864.3042351",
    });
    // Never short by a cent: the quoted amount is worth at least 100 EUR, a stroop less is not.
    expect(new Big(quote.assetAmount).times(quote.rate).gte(100)).toBe(true);
    expect(new Big(quote.assetAmount).minus("0.0000001").times(quote.rate).lt(100)).toBe(true);
    expect(Date.parse(quote.expiresAt) - Date.parse(quote.createdAt)).toBe(15 * 60_000);
    expect(first.body.amount).toBe("864.3042351");
    expect(parseSep7PayUri(first.body.sep7Uri).amount).toBe("864.3042351");
    const unsigned = TransactionBuilder.fromXDR(first.body.transactionXdr, TESTNET) as Transaction;
    expect(Number(unsigned.timeBounds?.maxTime)).toBe(
      Math.floor(Date.parse(quote.expiresAt) / 1000),
    );

    // Asked again while it is live (and the rate moved): the same quote.
    await movePrices({ stellar: { eur: 0.2 } });
    const again = await intent(inv.id);
    expect(again.body.quote.id).toBe(quote.id);
    expect((await statusOf(inv.id)).quote).toMatchObject({
      id: quote.id,
      expiresAt: quote.expiresAt,
    });

    const hash = await payXlm(f, inv, quote.assetAmount);
    const done = await confirm(inv.id, hash);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await statusOf(inv.id)).toMatchObject({
      status: "PAID",
      priceCurrency: "EUR",
      amountPaid: "100.0000000",
      amountDue: "0.0000000",
      quote: null,
    });
    const [payment] = await paymentsOf(f, inv.id);
    expect(payment).toMatchObject({
      amount: "864.3042351",
      asset: "XLM",
      priceValue: "100.0000000",
      paidLate: false,
      quoteId: quote.id,
      // The books: its value in USD at the XLM-USD price when recorded.
      fiatCurrency: "USD",
      fiatValue: "108.04",
      rate: "0.125",
      rateSource: new URL(prices.url).host,
    });
  });

  it("paid after the quote expired: valued at the new rate, partial or overpaid as the numbers say, paidLate", async () => {
    const f = await freelancer();
    const low = await fiatInvoice(f, "USD", "100");
    const high = await fiatInvoice(f, "USD", "100");
    for (const inv of [low, high]) {
      const q = (await intent(inv.id)).body.quote;
      expect(q).toMatchObject({ rate: "0.125", assetAmount: "800.0000000", fiatAmount: "100.00" });
      await expireQuotes(inv.id);
    }

    await movePrices({ stellar: { usd: 0.1 } });
    const short = await confirm(low.id, await payXlm(f, low, "800"));
    expect(short.status).toBe(400);
    expect(short.body.error).toBe("Underpayment: paid 80, expected 100");
    expect(await statusOf(low.id)).toMatchObject({
      status: "PROCESSING",
      amountPaid: "80.0000000",
      amountDue: "20.0000000",
    });
    expect((await paymentsOf(f, low.id))[0]).toMatchObject({
      amount: "800.0000000",
      priceValue: "80.0000000",
      paidLate: true,
      quoteId: null,
      fiatValue: "80.00",
      rate: "0.1",
    });

    await movePrices({ stellar: { usd: 0.2 } });
    const over = await confirm(high.id, await payXlm(f, high, "800"));
    expect(over.status, JSON.stringify(over.body)).toBe(200);
    const view = (await f.api.get(`/api/invoices/${high.id}/owner`)).body;
    expect(view).toMatchObject({
      status: "PAID",
      amountPaid: "160.0000000",
      amountOverpaid: "60.0000000",
    });
    expect(view.payments[0]).toMatchObject({ priceValue: "160.0000000", paidLate: true });
  });

  it("two partial payments under two quotes: each valued at its own", async () => {
    const f = await freelancer();
    const inv = await fiatInvoice(f, "USD", "100");
    const q1 = (await intent(inv.id)).body.quote;
    expect(q1.assetAmount).toBe("800.0000000");
    const half = await confirm(inv.id, await payXlm(f, inv, "400"));
    expect(half.body.error).toBe("Underpayment: paid 50, expected 100");

    await movePrices({ stellar: { usd: 0.25 } });
    const second = await intent(inv.id);
    const q2 = second.body.quote;
    expect(q2.id).not.toBe(q1.id);
    expect(q2).toMatchObject({ rate: "0.25", fiatAmount: "50.00", assetAmount: "200.0000000" });
    expect(second.body.amount).toBe("200");

    expect((await confirm(inv.id, await payXlm(f, inv, "200"))).status).toBe(200);
    expect(await statusOf(inv.id)).toMatchObject({ status: "PAID", amountPaid: "100.0000000" });
    const rows = await paymentsOf(f, inv.id);
    expect(rows.map((p) => [p.amount, p.priceValue, p.quoteId, p.paidLate])).toEqual([
      ["400.0000000", "50.0000000", q1.id, false],
      ["200.0000000", "50.0000000", q2.id, false],
    ]);
  });

  it("USDC for a USD invoice is quoted at exactly 1", async () => {
    const f = await freelancer(true);
    const usdcPayer = await holder(testnet, testnet.usdc, "500");
    const inv = await fiatInvoice(f, "USD", "99.99", { currency: "USDC" });
    const q = (await intent(inv.id)).body.quote;
    expect(q).toMatchObject({
      rate: "1",
      source: "fixed",
      assetAmount: "99.9900000",
      fiatAmount: "99.99",
    });
    const hash = await send(
      testnet,
      await pay(
        testnet,
        usdcPayer,
        f.kp.publicKey(),
        testnet.usdc,
        "99.99",
        Memo.text(inv.invoiceNumber),
      ),
    );
    expect((await confirm(inv.id, hash)).status).toBe(200);
    expect((await paymentsOf(f, inv.id))[0]).toMatchObject({
      priceValue: "99.9900000",
      fiatCurrency: "USD",
      fiatValue: "99.99",
      rate: "1",
      rateSource: `quote:${q.id}`,
    });
  });

  it("many tiny payments count for what they are worth, never a cent each (review finding)", async () => {
    const f = await freelancer();
    const inv = await fiatInvoice(f, "USD", "1");
    expect((await intent(inv.id)).body.quote.assetAmount).toBe("8.0000000");
    // 100 operations of 0.04 XLM (half a cent each at 0.125): 0.50 USD in all.
    const ops = Array.from({ length: 100 }, () =>
      Operation.payment({ destination: f.kp.publicKey(), asset: Asset.native(), amount: "0.04" }),
    );
    const hash = await send(
      testnet,
      await build(testnet, payer, ops, { memo: Memo.text(inv.invoiceNumber) }),
    );
    const res = await confirm(inv.id, hash);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Underpayment: paid 0.5, expected 1");
    expect(await statusOf(inv.id)).toMatchObject({
      amountPaid: "0.5000000",
      amountDue: "0.5000000",
    });
    const rows = await paymentsOf(f, inv.id);
    expect(rows).toHaveLength(100);
    expect(new Set(rows.map((r) => r.priceValue))).toEqual(new Set(["0.0050000"]));
  });

  it("paid within half a cent: PAID and nothing due, not 0.0050000 (issue 27, item 15)", async () => {
    const f = await freelancer();
    const inv = await fiatInvoice(f, "USD", "1");
    expect((await intent(inv.id)).body.quote.assetAmount).toBe("8.0000000");
    // 7.96 XLM at 0.125 is worth 0.995 USD: 1.00 in cents, the total.
    const res = await confirm(inv.id, await payXlm(f, inv, "7.96"));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await statusOf(inv.id)).toMatchObject({
      status: "PAID",
      amountPaid: "0.9950000",
      amountDue: "0.0000000",
    });
    const owner = await f.api.get(`/api/invoices/${inv.id}/owner`);
    expect(owner.body).toMatchObject({ amountDue: "0.0000000", amountOverpaid: "0.0000000" });
    const listed = await f.api.get("/api/invoices?limit=100");
    const item = listed.body.invoices.find((i: { id: string }) => i.id === inv.id);
    expect(item).toMatchObject({ status: "PAID", amountDue: "0.0000000" });
  });

  it("a late payment while the price feed is down is recorded, shown and not counted (review finding)", async () => {
    const f = await freelancer();
    const inv = await fiatInvoice(f, "USD", "100");
    await intent(inv.id);
    await expireQuotes(inv.id);
    // The last known price is two days old: nothing values the payment at it.
    await sql`update quotes set rate_at = now() - interval '2 days' where invoice_id = ${inv.id}`;
    prices.setMode({ kind: "fail" });
    await sql`update price_cache set fetched_at = now() - interval '2 days',
      attempted_at = now() - interval '2 days'`;
    const res = await confirm(inv.id, await payXlm(f, inv, "800"));
    expect(res.status).toBe(400);
    expect(await statusOf(inv.id)).toMatchObject({ amountPaid: "0.0000000" });
    expect((await paymentsOf(f, inv.id))[0]).toMatchObject({
      amount: "800.0000000",
      applied: false,
      unappliedReason: "unpriced",
      priceValue: null,
      fiatValue: null,
    });
  });

  it("an amount due too large for the asset is a 400, not a 500 (review finding)", async () => {
    const f = await freelancer();
    const inv = await fiatInvoice(f, "USD", "99999999999.99");
    const res = await intent(inv.id);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("The amount due is too large to pay in this asset");
  });

  it("concurrent pay-intents agree on one quote", async () => {
    const f = await freelancer();
    const inv = await fiatInvoice(f, "USD", "30");
    const answers = await Promise.all(Array.from({ length: 8 }, () => intent(inv.id)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => a.body.quote.id)).size).toBe(1);
    const [{ n }] = await sql`select count(*)::int as n from quotes where invoice_id = ${inv.id}`;
    expect(n).toBe(1);
  });

  it("without a price younger than 5 minutes, pay-intent answers 503 and locks no quote", async () => {
    const f = await freelancer();
    const inv = await fiatInvoice(f, "EUR", "40");
    prices.setMode({ kind: "fail" });
    await sql`update price_cache set fetched_at = now() - interval '6 minutes',
      attempted_at = now() - interval '6 minutes'`;
    const res = await intent(inv.id);
    expect(res.status).toBe(503);
    expect(res.body.error).toBe("Price feed temporarily unavailable");
    const [{ n }] = await sql`select count(*)::int as n from quotes where invoice_id = ${inv.id}`;
    expect(n).toBe(0);
    expect((await statusOf(inv.id)).quote).toBeNull();
  });

  it("an expired quote's transaction is refused by submit before it is sent", async () => {
    const f = await freelancer();
    const inv = await fiatInvoice(f, "USD", "10");
    await intent(inv.id);
    const account = await testnet.server.loadAccount(payer.publicKey());
    const past = Math.floor(Date.now() / 1000) - 30;
    const tx = new TransactionBuilder(new Account(account.accountId(), account.sequenceNumber()), {
      fee: "100",
      networkPassphrase: TESTNET,
      timebounds: { minTime: 0, maxTime: past },
    })
      .addOperation(
        Operation.payment({ destination: f.kp.publicKey(), asset: Asset.native(), amount: "80" }),
      )
      .addMemo(Memo.text(inv.invoiceNumber))
      .build();
    tx.sign(payer);
    const res = await anon.post("/api/payments/submit", {
      invoiceId: inv.id,
      signedTransactionXdr: tx.toXDR(),
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(
      "The transaction timed out. Please create a new payment and try again.",
    );
    const onLedger = await fetch(`${testnet.ledger.url}/transactions/${tx.hash().toString("hex")}`);
    expect(onLedger.status).toBe(404);
  });
});

describe("bad input", () => {
  it("refuses an unknown priceCurrency, sub-cent fiat amounts and a quote lifetime out of range, writing nothing", async () => {
    const f = await freelancer();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ priceCurrency: "GBP" }, "priceCurrency", "priceCurrency must be USD or EUR"],
      [
        { priceCurrency: "USD", lineItems: [{ description: "x", quantity: "1", rate: "10.005" }] },
        "lineItems.0.rate",
        "lineItems.0.rate must have at most 2 decimal places",
      ],
      [
        { priceCurrency: "EUR", discount: "0.001" },
        "discount",
        "discount must have at most 2 decimal places",
      ],
      [
        { priceCurrency: "USD", quoteTtlMinutes: 0 },
        "quoteTtlMinutes",
        "quoteTtlMinutes must be between 1 and 120",
      ],
      [
        { priceCurrency: "USD", quoteTtlMinutes: 121 },
        "quoteTtlMinutes",
        "quoteTtlMinutes must be between 1 and 120",
      ],
    ];
    for (const [over, field, message] of cases) {
      const res = await f.api.post("/api/invoices", invoiceBody(over));
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.body.details[field]).toBe(message);
    }
    const link = await f.api.post("/api/links", {
      amount: "5.001",
      asset: "XLM",
      priceCurrency: "USD",
    });
    expect(link.status).toBe(400);
    expect(link.body.details.amount).toBe("amount must have at most 2 decimal places");
    const [{ n }] =
      await sql`select count(*)::int as n from invoices where freelancer_wallet = ${f.kp.publicKey()}`;
    expect(n).toBe(0);
  });

  it("a fiat-priced link quotes like an invoice", async () => {
    const f = await freelancer();
    const link = await f.api.post("/api/links", {
      amount: "12.50",
      asset: "XLM",
      priceCurrency: "USD",
      quoteTtlMinutes: 5,
    });
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    expect(link.body).toMatchObject({
      amount: "12.5000000",
      asset: "XLM",
      priceCurrency: "USD",
      quoteTtlMinutes: 5,
    });
    const q = (await intent(link.body.id)).body.quote;
    expect(q).toMatchObject({ fiatAmount: "12.50", assetAmount: "100.0000000" });
    expect(Date.parse(q.expiresAt) - Date.parse(q.createdAt)).toBe(5 * 60_000);
  });
});
