import type { Keypair } from "@stellar/stellar-sdk";
import Big from "big.js";
import type postgres from "postgres";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { LocalPriceSource } from "@/scripts/price-source";
import { type Api, client, invoiceBody } from "./helpers/api";
import type { RunningApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import { flatPdfText } from "./helpers/pdf";
import { type Chain, funded, trust } from "./helpers/stellar";

// VAT in the national currency (docs/decisions.md, Tax currency): the rate from the invoice's
// unit to its taxCurrency is fixed when it is sent, with its source and time, and never moves
// after; USDC = USD exactly. The local price source starts at 1 XLM = 0.1157 EUR.

let testnet: Chain;
let mainnet: Chain;
let app: RunningApp;
let db: LedgerApp["db"];
let sql: postgres.Sql;
let prices: LocalPriceSource;
let api: Api;
let token: string;
let kp: Keypair;

beforeAll(async () => {
  ({ testnet, mainnet, app, db, sql, prices } = await startLedgerApp());
  kp = await funded(testnet);
  token = (await signIn(app.url, kp)).token;
  api = client(app.url, token);
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

const XLM_LINES = [{ description: "Design", quantity: "1", rate: "1000", taxRate: "19" }];

describe("tax currency", () => {
  it("fixes the XLM-EUR rate at send, shows the tax in EUR, and keeps it when prices move", async () => {
    const draft = await api.post(
      "/api/invoices",
      invoiceBody({ currency: "XLM", taxCurrency: "EUR", lineItems: XLM_LINES }),
    );
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    expect(draft.body).toMatchObject({ taxCurrency: "EUR", taxExchange: null });

    const sent = await api.post(`/api/invoices/${draft.body.id}/send`);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const owner = (await api.get(`/api/invoices/${draft.body.id}/owner`)).body;
    expect(new Big(owner.taxExchange.rate).eq("0.1157")).toBe(true);
    expect(owner.taxExchange.source).not.toBe("fixed");
    expect(owner.taxExchange.currency).toBe("EUR");
    expect(Date.parse(owner.taxExchange.at)).toBeGreaterThan(Date.now() - 10 * 60_000);
    // 1000 XLM at 19 %: 190 XLM of tax = 21.983 EUR -> 21.98; the base 115.70 EUR.
    expect(owner.taxExchange.taxAmount).toBe("21.98");
    expect(owner.taxExchange.breakdown).toEqual([
      { category: "S", rate: "19.00", taxableAmount: "115.70", taxAmount: "21.98" },
    ]);
    const audit = await sql`select changes from invoice_audit_logs
      where invoice_id = ${draft.body.id} and action = 'SENT'`;
    expect(audit[0].changes.taxExchange).toMatchObject({ currency: "EUR" });

    // The PDF says it too (EU VAT Directive art. 230).
    const pdf = await fetch(`${app.url}/api/invoices/${draft.body.id}/pdf`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await flatPdfText(await pdf.arrayBuffer());
    expect(text).toContain("VAT in EUR 21.98 EUR");
    expect(text).toContain("at 1 XLM = 0.1157 EUR");

    // The price doubles: the invoice's rate does not move.
    await movePrices({ stellar: { eur: 0.2314 } });
    await api.get("/api/prices/xlm"); // the service reads the new price
    const later = (await api.get(`/api/invoices/${draft.body.id}/owner`)).body;
    expect(later.taxExchange).toEqual(owner.taxExchange);
  });

  it("USDC in USD is exact (rate 1, fixed); without taxCurrency there is no taxExchange", async () => {
    const holder = await funded(testnet);
    await trust(testnet, holder, testnet.usdc);
    const usdcApi = client(app.url, (await signIn(app.url, holder)).token);
    const usdc = await usdcApi.post(
      "/api/invoices",
      invoiceBody({ currency: "USDC", taxCurrency: "USD", taxRate: "10" }),
    );
    expect(usdc.status).toBe(201);
    const sent = await usdcApi.post(`/api/invoices/${usdc.body.id}/send`);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const owner = (await usdcApi.get(`/api/invoices/${usdc.body.id}/owner`)).body;
    // 1,001 USDC at 10 %: 100.10 USD of tax, at exactly 1.
    expect(owner.taxExchange).toMatchObject({ source: "fixed", taxAmount: "100.10" });
    expect(new Big(owner.taxExchange.rate).eq(1)).toBe(true);
    const plain = await api.post("/api/invoices", invoiceBody({ currency: "XLM" }));
    expect(plain.body).toMatchObject({ taxCurrency: null, taxExchange: null });
  });

  it("no fresh price at send: 503, and the invoice stays a draft", async () => {
    const draft = await api.post(
      "/api/invoices",
      invoiceBody({ currency: "XLM", taxCurrency: "EUR", lineItems: XLM_LINES }),
    );
    prices.setMode({ kind: "fail" });
    await sql`update price_cache set fetched_at = now() - interval '10 minutes',
      attempted_at = now() - interval '10 minutes'`;
    const sent = await api.post(`/api/invoices/${draft.body.id}/send`);
    expect(sent.status).toBe(503);
    const owner = (await api.get(`/api/invoices/${draft.body.id}/owner`)).body;
    expect(owner).toMatchObject({ status: "DRAFT", taxExchange: null });
  });
});
