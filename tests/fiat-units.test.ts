import type { Keypair } from "@stellar/stellar-sdk";
import { parse as parseSync } from "csv-parse/sync";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fiat2 } from "@/lib/domain/fiat";
import { fromStroops, sumAmounts, toStroops } from "@/lib/domain/money";
import type { LocalPriceSource } from "@/scripts/price-source";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, TEST_CRON_SECRET } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import { startTestSmtp, type TestSmtp } from "./helpers/smtp";
import {
  Asset,
  type Chain,
  funded,
  holder,
  Memo,
  pay,
  send,
  TESTNET,
  TransactionBuilder,
  trust,
} from "./helpers/stellar";

// Issue 28, items 1 and 6: a fiat-priced invoice's amounts carry their unit in every
// response, statistic, export, event and email subject, and its fiat figures are shown and
// exported in cents (docs/decisions.md, Fiat pricing). Real server, real PostgreSQL, real
// signed payments on the local ledger, the local price source (1 XLM = 0.1157 EUR).

let testnet: Chain;
let mainnet: Chain;
let app: RunningApp;
let db: LedgerApp["db"];
let sql: postgres.Sql;
let anon: Api;
let prices: LocalPriceSource;
let smtp: TestSmtp;

let kp: Keypair;
let api: Api;
let token: string;
let usdcInv: { id: string; invoiceNumber: string };
let xlmInv: { id: string; invoiceNumber: string };
let firstUsdcPayment: string;

beforeAll(async () => {
  smtp = await startTestSmtp();
  ({ testnet, mainnet, app, db, sql, anon, prices } = await startLedgerApp({
    SMTP_URL: smtp.url,
  }));
  await sql`update price_cache set fetched_at = now() - interval '2 minutes',
    attempted_at = now() - interval '2 minutes'`;
  kp = await funded(testnet);
  await trust(testnet, kp, testnet.usdc);
  ({ token } = await signIn(app.url, kp));
  api = client(app.url, token);
  const usdcPayer = await holder(testnet, testnet.usdc, "1000");
  const xlmPayer = await funded(testnet);

  const sent = async (over: Record<string, unknown>) => {
    const created = await api.post(
      "/api/invoices",
      invoiceBody({
        priceCurrency: "EUR",
        lineItems: [{ description: "Work", quantity: "1", rate: over.rate }],
        currency: over.currency,
        clientEmail: "client@example.com",
      }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await api.post(`/api/invoices/${created.body.id}/send`)).status).toBe(200);
    return created.body as { id: string; invoiceNumber: string };
  };
  const intent = async (id: string) => {
    const res = await anon.post(`/api/payments/${id}/pay-intent`, { networkPassphrase: TESTNET });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.quote as { assetAmount: string; fiatAmount: string };
  };
  const confirm = (invoiceId: string, transactionHash: string) =>
    anon.post("/api/payments/confirm", { invoiceId, transactionHash });

  // 100 EUR paid in USDC: 10 USDC (worth 7 decimals of EUR), then the quote for the rest.
  usdcInv = await sent({ rate: "100", currency: "USDC" });
  await intent(usdcInv.id);
  const part = await send(
    testnet,
    await pay(
      testnet,
      usdcPayer,
      kp.publicKey(),
      testnet.usdc,
      "10",
      Memo.text(usdcInv.invoiceNumber),
    ),
  );
  expect((await confirm(usdcInv.id, part)).status).toBe(400); // underpaid so far
  const rest = await intent(usdcInv.id);
  const last = await send(
    testnet,
    await pay(
      testnet,
      usdcPayer,
      kp.publicKey(),
      testnet.usdc,
      rest.assetAmount,
      Memo.text(usdcInv.invoiceNumber),
    ),
  );
  expect((await confirm(usdcInv.id, last)).status).toBe(200);

  // The freelancer refunds 5 USDC of the first payment.
  const owner = (await api.get(`/api/invoices/${usdcInv.id}/owner`)).body;
  firstUsdcPayment = owner.payments.find((p: { amount: string }) => p.amount === "10.0000000").id;
  const built = await api.post(`/api/invoices/${usdcInv.id}/payments/${firstUsdcPayment}/refund`, {
    amount: "5",
  });
  expect(built.status, JSON.stringify(built.body)).toBe(201);
  const tx = TransactionBuilder.fromXDR(built.body.transactionXdr, TESTNET);
  tx.sign(kp);
  const refunded = await api.post("/api/refunds/submit", {
    refundId: built.body.refundId,
    signedTransactionXdr: tx.toXDR(),
  });
  expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);

  // 200 EUR paid in XLM: 500 XLM so far (57.85 EUR at the quote), 142.15 EUR due.
  xlmInv = await sent({ rate: "200", currency: "XLM" });
  await intent(xlmInv.id);
  const xlm = await send(
    testnet,
    await pay(
      testnet,
      xlmPayer,
      kp.publicKey(),
      Asset.native(),
      "500",
      Memo.text(xlmInv.invoiceNumber),
    ),
  );
  expect((await confirm(xlmInv.id, xlm)).status).toBe(400);
}, 120_000);

afterAll(async () => {
  await stopLedgerApp({ sql, app, testnet, mainnet, db, prices });
  await smtp?.close();
});

const CENTS = /^\d+\.\d{2}0{5}$/;

describe("a EUR-priced invoice paid in USDC, and one paid in XLM", () => {
  it("the list, the owner's and the public view name EUR as the unit of total, amountPaid and amountDue", async () => {
    const list = await api.get("/api/invoices");
    expect(list.status).toBe(200);
    for (const inv of [usdcInv, xlmInv]) {
      const item = list.body.invoices.find((i: { id: string }) => i.id === inv.id);
      expect(item, inv.invoiceNumber).toMatchObject({ priceCurrency: "EUR" });
    }
    const xlmItem = list.body.invoices.find((i: { id: string }) => i.id === xlmInv.id);
    expect(xlmItem).toMatchObject({
      currency: "XLM",
      total: "200.0000000",
      amountPaid: "57.8500000",
      amountDue: "142.1500000",
    });
    for (const path of [`/api/invoices/${usdcInv.id}/owner`, `/api/invoices/${usdcInv.id}`]) {
      expect((await api.get(path)).body, path).toMatchObject({
        priceCurrency: "EUR",
        currency: "USDC",
      });
    }
  });

  it("the statistics keep EUR apart from the assets received and say which is which", async () => {
    const res = await api.get("/api/invoices/stats?network=testnet");
    expect(res.status).toBe(200);
    const s = res.body;
    // Per asset: what was received (USDC less the refund, the XLM), never EUR totals.
    const owner = (await api.get(`/api/invoices/${usdcInv.id}/owner`)).body;
    const usdcReceived = owner.payments.reduce(
      (n: bigint, p: { amount: string; amountRefunded: string }) =>
        n + toStroops(p.amount) - toStroops(p.amountRefunded),
      0n,
    );
    expect(s.totalRevenue.USDC).toBe(fromStroops(usdcReceived));
    expect(s.totalRevenue.XLM).toBe("500.0000000");
    expect(s.pendingAmount.XLM).toBe("0.0000000");
    expect(s.avgInvoiceValue.USDC).toBe("0.0000000");
    // Per price currency: EUR figures, in cents.
    const revenue = fiat2(sumAmounts([owner.amountPaid, "57.85"]));
    expect(s.byPriceCurrency.EUR).toEqual({
      totalRevenue: revenue,
      revenueThisMonth: revenue,
      avgInvoiceValue: "100.00",
      pendingAmount: "142.15",
    });
    expect(s.byPriceCurrency.USD).toEqual({
      totalRevenue: "0.00",
      revenueThisMonth: "0.00",
      avgInvoiceValue: "0.00",
      pendingAmount: "0.00",
    });
    // Activity: an invoice's total in EUR; the refund in what went back (5 USDC).
    for (const a of s.recentActivity) {
      if (a.action === "REFUNDED") {
        expect(a).toMatchObject({ amount: "5.0000000", currency: "USDC", priceCurrency: null });
      } else {
        expect(a, a.action).toMatchObject({ priceCurrency: "EUR" });
      }
    }
    expect(s.recentActivity.map((a: { action: string }) => a.action)).toContain("REFUNDED");
  });

  it("the invoices CSV writes amountPaid in cents and names the unit of its amounts", async () => {
    const res = await fetch(`${app.url}/api/exports/invoices.csv`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const rows = parseSync(await res.text(), { columns: true, bom: true }) as Record<
      string,
      string
    >[];
    const a = rows.find((r) => r.invoiceId === usdcInv.id);
    const b = rows.find((r) => r.invoiceId === xlmInv.id);
    const owner = (await api.get(`/api/invoices/${usdcInv.id}/owner`)).body;
    // Stored to 7 decimals (the values are never rounded per payment) ...
    expect(owner.amountPaid).not.toMatch(CENTS);
    // ... exported in cents, never above the total the payments settle.
    expect(a).toMatchObject({
      priceCurrency: "EUR",
      currency: "USDC",
      amountsIn: "EUR",
      amountPaid: `${fiat2(owner.amountPaid)}00000`,
    });
    expect(a?.amountPaid).toMatch(CENTS);
    expect(b).toMatchObject({
      amountsIn: "EUR",
      amountPaid: "57.8500000",
      amountDue: "142.1500000",
    });
  });

  it("every event about them names EUR next to its fiat amounts", async () => {
    const res = await api.get("/api/events?limit=100");
    expect(res.status).toBe(200);
    const mine = res.body.events.filter(
      (e: { data: { id?: string; invoiceId?: string } }) =>
        e.data.invoiceId === usdcInv.id || e.data.id === usdcInv.id,
    );
    const types = mine.map((e: { type: string }) => e.type);
    for (const t of ["invoice.created", "invoice.paid", "payment.confirmed", "payment.refunded"]) {
      expect(types, t).toContain(t);
    }
    for (const e of mine) {
      if (
        ["invoice.created", "invoice.paid", "payment.confirmed", "payment.refunded"].includes(
          e.type,
        )
      ) {
        expect(e.data, e.type).toMatchObject({ priceCurrency: "EUR" });
      }
    }
  });

  it("the invoice email's subject states the total in EUR", async () => {
    const pass = await fetch(`${app.url}/api/cron/emails`, {
      headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
    });
    expect(pass.status).toBe(200);
    const mails = await smtp.waitFor(2);
    const subjects = mails.map((m) => m.parsed.subject ?? "");
    expect(subjects.find((s) => s.includes(usdcInv.invoiceNumber) && s.includes("100.00"))).toMatch(
      /100\.00 EUR/,
    );
    expect(subjects.find((s) => s.includes(xlmInv.invoiceNumber) && s.includes("200.00"))).toMatch(
      /200\.00 EUR/,
    );
    // The invoice's own figures are in EUR; a refund's subject names what moved on the ledger
    // (the 5 USDC sent back), which is in USDC.
    for (const s of subjects.filter((x) => !x.startsWith("Refund of "))) {
      expect(s).not.toMatch(/\d (XLM|USDC)\b/);
    }
    const refund = subjects.find((x) => x.startsWith("Refund of "));
    if (refund) expect(refund).toBe(`Refund of 5.00 USDC for invoice ${usdcInv.invoiceNumber}`);
  });
});
