import type { Keypair } from "@stellar/stellar-sdk";
import Big from "big.js";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalPriceSource } from "@/scripts/price-source";
import { type Api, client, invoiceBody } from "./helpers/api";
import type { RunningApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import {
  Asset,
  type Chain,
  funded,
  holder,
  Memo,
  pay,
  send,
  TESTNET,
  trust,
} from "./helpers/stellar";

// Issue 28 (items 2, 3, 7): what the checkout and the API tell a payer must be true. A quote
// is for the amount due when it was locked, so a payment since replaces it; a payer short of
// USDC is told USDC; and a pay-intent alone keeps the API's PROCESSING (the spec's transition)
// while the screens show PENDING (lib/format.ts, shownStatus). The local ledger, real signed
// transactions, the built server. Prices: 1 XLM = 0.1157 EUR (scripts/price-source.ts).

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

type Freelancer = { kp: Keypair; api: Api };

async function freelancer(usdc = false): Promise<Freelancer> {
  const kp = await funded(testnet);
  if (usdc) await trust(testnet, kp, testnet.usdc);
  const { token } = await signIn(app.url, kp);
  return { kp, api: client(app.url, token) };
}

async function sent(f: Freelancer, over: Record<string, unknown>) {
  const created = await f.api.post("/api/invoices", invoiceBody(over));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await f.api.post(`/api/invoices/${created.body.id}/send`)).status).toBe(200);
  return created.body as { id: string; invoiceNumber: string; total: string };
}

const intent = (id: string, sender?: Keypair) =>
  anon.post(`/api/payments/${id}/pay-intent`, {
    ...(sender ? { senderPublicKey: sender.publicKey() } : {}),
    networkPassphrase: TESTNET,
  });

const statusOf = async (id: string) => (await anon.get(`/api/payments/${id}/status`)).body;

/** The checkout page's HTML, as a reload gets it. */
const checkoutHtml = async (id: string) => (await fetch(`${app.url}/pay/${id}`)).text();

describe("a quote after a partial payment (issue 28, item 2)", () => {
  it("is replaced: status, the reloaded checkout, pay-options and pay-intent answer for the new amount due", async () => {
    const f = await freelancer();
    const inv = await sent(f, {
      priceCurrency: "EUR",
      currency: "XLM",
      lineItems: [{ description: "Work", quantity: "1", rate: "200" }],
    });
    const q1 = (await intent(inv.id)).body.quote;
    expect(q1).toMatchObject({ fiatAmount: "200.00", asset: "XLM" });
    expect((await statusOf(inv.id)).quote?.id).toBe(q1.id);
    expect(await checkoutHtml(inv.id)).toContain('data-testid="quote"');

    // 800 XLM of the quote's 1728.6084702 reach the freelancer: 92.56 EUR at the quote's rate.
    const hash = await send(
      testnet,
      await pay(
        testnet,
        payer,
        f.kp.publicKey(),
        Asset.native(),
        "800",
        Memo.text(inv.invoiceNumber),
      ),
    );
    const confirmed = await anon.post("/api/payments/confirm", {
      invoiceId: inv.id,
      transactionHash: hash,
    });
    expect(confirmed.body.error).toMatch(/^Underpayment/);
    const after = await statusOf(inv.id);
    expect(after).toMatchObject({ amountPaid: "92.5600000", amountDue: "107.4400000" });
    // The old quote (1728.6084702 XLM for 200.00 EUR) would overpay: it is no longer handed out.
    expect(after.quote).toBeNull();
    const html = await checkoutHtml(inv.id);
    expect(html).not.toContain('data-testid="quote"');
    expect(html).not.toContain("1,728.6084702");

    // Whoever asks next gets a quote for what is left.
    const options = await anon.get(
      `/api/payments/${inv.id}/pay-options?account=${payer.publicKey()}`,
    );
    expect(options.status, JSON.stringify(options.body)).toBe(200);
    const q2 = (await intent(inv.id)).body.quote;
    expect(q2.id).not.toBe(q1.id);
    expect(q2.fiatAmount).toBe("107.44");
    expect(options.body.amount).toBe(new Big(q2.assetAmount).toString());
    // Paying the new quote's amount exactly is worth at least what is due, never more than a stroop's worth.
    const worth = new Big(q2.assetAmount).times(q2.rate);
    expect(worth.gte("107.44")).toBe(true);
    expect(worth.minus("107.44").lt(new Big(q2.rate).times("0.0000001"))).toBe(true);
    expect((await statusOf(inv.id)).quote).toMatchObject({ id: q2.id, fiatAmount: "107.44" });
    expect(await checkoutHtml(inv.id)).toContain('data-testid="quote"');
  });
});

describe("insufficient balance names the asset (issue 28, item 3)", () => {
  const USDC_SHORT =
    "Insufficient balance. Make sure the wallet has enough USDC for the amount, and XLM for reserve and fees.";

  it("a USDC invoice from a wallet with plenty of XLM and 5 USDC: pay-intent and submit say USDC", async () => {
    const f = await freelancer(true);
    const inv = await sent(f, {
      currency: "USDC",
      lineItems: [{ description: "Work", quantity: "1", rate: "100" }],
    });
    const poor = await holder(testnet, testnet.usdc, "5");

    const refused = await intent(inv.id, poor);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: USDC_SHORT, code: "LEDGER_ERROR" });

    // The same wallet signs a 100 USDC payment anyway: the ledger answers op_underfunded.
    const tx = await pay(
      testnet,
      poor,
      f.kp.publicKey(),
      testnet.usdc,
      "100",
      Memo.text(inv.invoiceNumber),
    );
    const submitted = await anon.post("/api/payments/submit", {
      invoiceId: inv.id,
      signedTransactionXdr: tx.toXDR(),
    });
    expect(submitted.status).toBe(400);
    expect(submitted.body).toMatchObject({ error: USDC_SHORT, code: "LEDGER_ERROR" });
  });

  it("an XLM invoice keeps the spec's message word for word", async () => {
    const f = await freelancer();
    const inv = await sent(f, {
      currency: "XLM",
      lineItems: [{ description: "Work", quantity: "1", rate: "20000" }],
    });
    const refused = await intent(inv.id, payer);
    expect(refused.body.error).toBe(
      "Insufficient balance. Make sure the wallet has enough XLM for amount, reserve, and fees.",
    );
  });
});

describe("a pay-intent alone (issue 28, item 7)", () => {
  it("keeps the API's PROCESSING, while the owner's audit trail says only that a payment started", async () => {
    const f = await freelancer();
    const inv = await sent(f, {
      currency: "XLM",
      lineItems: [{ description: "Work", quantity: "1", rate: "10" }],
    });
    expect((await intent(inv.id)).body.status).toBe("PROCESSING");
    const owner = (await f.api.get(`/api/invoices/${inv.id}/owner`)).body;
    expect(owner.status).toBe("PROCESSING");
    expect(owner.payments).toEqual([]);
  });
});
