import { parse as parseCsv } from "csv-parse/sync";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toStroops } from "@/lib/domain/money";
import { formatAmount } from "@/lib/format";
import { localizeAmount } from "@/lib/i18n/format";
import { STATEMENT_DATE, STATEMENT_REVERSED } from "@/lib/schemas/statements";
import { type Api, client, invoiceBody } from "./helpers/api";
import type { RunningApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import { flatPdfText } from "./helpers/pdf";
import {
  Asset,
  type Chain,
  funded,
  holder,
  type Keypair,
  Memo,
  pay,
  send,
  TESTNET,
  TransactionBuilder,
  trust,
} from "./helpers/stellar";

// The statement of account (docs/decisions.md, Statements) over HTTP, from real data: invoices
// sent through the API, paid by real signed payments on the local ledger, refunds signed by the
// freelancer and submitted, credit notes, a cancel. The rows' dates are then spread over three
// months (the ledger closes everything "now") so that a period has an opening balance.

let testnet: Chain;
let mainnet: Chain;
let app: RunningApp;
let db: LedgerApp["db"];
let sql: postgres.Sql;
let anon: Api;

beforeAll(async () => {
  ({ testnet, mainnet, app, db, sql, anon } = await startLedgerApp());
});
afterAll(() => stopLedgerApp({ sql, app, testnet, mainnet, db }));

type Freelancer = { kp: Keypair; api: Api; token: string };
type Block = {
  currency: string;
  openingBalance: string;
  invoiced: string;
  paid: string;
  refunded: string;
  credited: string;
  closingBalance: string;
  lines: { kind: string; amount: string; balance: string; invoiceNumber: string }[];
};

async function freelancer(): Promise<Freelancer> {
  const kp = await funded(testnet);
  await trust(testnet, kp, testnet.usdc);
  const { token } = await signIn(app.url, kp);
  return { kp, api: client(app.url, token), token };
}

async function sentInvoice(f: Freelancer, email: string, currency: string, rate: string) {
  const created = await f.api.post(
    "/api/invoices",
    invoiceBody({
      clientName: "Zoë Client",
      clientEmail: email,
      currency,
      lineItems: [{ description: "Work", quantity: "1", rate }],
    }),
  );
  expect(created.status).toBe(201);
  const inv = created.body as { id: string; invoiceNumber: string };
  expect((await f.api.post(`/api/invoices/${inv.id}/send`)).status).toBe(200);
  return inv;
}

/** A real signed payment of the invoice, confirmed; answers the payment's id. */
async function payInvoice(
  f: Freelancer,
  inv: { id: string; invoiceNumber: string },
  payer: Keypair,
  asset: Asset,
  amount: string,
): Promise<string> {
  const hash = await send(
    testnet,
    await pay(testnet, payer, f.kp.publicKey(), asset, amount, Memo.text(inv.invoiceNumber)),
  );
  const confirmed = await anon.post("/api/payments/confirm", {
    invoiceId: inv.id,
    transactionHash: hash,
  });
  // A partial payment is recorded and answered 400 Underpayment (docs/decisions.md, Partial payments).
  if (confirmed.status !== 200) expect(confirmed.body.error).toMatch(/^Underpayment: /);
  const [row] =
    await sql`select id from payments where transaction_hash = ${hash} and invoice_id = ${inv.id}`;
  return row.id as string;
}

/** The overpaid part sent back: built, signed by the freelancer's wallet, submitted. */
async function refundOverpaid(f: Freelancer, invoiceId: string, paymentId: string) {
  const built = await f.api.post(`/api/invoices/${invoiceId}/payments/${paymentId}/refund`);
  expect(built.status).toBe(201);
  const tx = TransactionBuilder.fromXDR(built.body.transactionXdr, TESTNET);
  tx.sign(f.kp);
  const submitted = await f.api.post("/api/refunds/submit", {
    refundId: built.body.refundId,
    signedTransactionXdr: tx.toXDR(),
  });
  expect(submitted.status).toBe(200);
  return built.body.refundId as string;
}

const at = (day: string) => `${day}T12:00:00Z`;

/** What the client owes per currency straight from the invoices: total - amountPaid - amountCredited. */
async function owedByInvoices(ids: string[]) {
  const rows = await sql`select currency, total::text, amount_paid::text, amount_credited::text
    from invoices where id in ${sql(ids)}`;
  const owed = new Map<string, bigint>();
  for (const r of rows) {
    const v = toStroops(r.total) - toStroops(r.amount_paid) - toStroops(r.amount_credited);
    owed.set(r.currency, (owed.get(r.currency) ?? 0n) + v);
  }
  return owed;
}

const identity = (b: Block) =>
  toStroops(b.openingBalance) +
  toStroops(b.invoiced) -
  toStroops(b.paid) +
  toStroops(b.refunded) -
  toStroops(b.credited);

describe("statement of account", () => {
  let f: Freelancer;
  let clientId: string;
  let invoiceIds: string[];

  beforeAll(async () => {
    f = await freelancer();
    const saved = await f.api.post("/api/clients", {
      name: "Zoë Client",
      email: "zoe@example.com",
      language: "de",
    });
    expect(saved.status).toBe(201);
    clientId = saved.body.id;
    const xlmPayer = await funded(testnet);
    const usdcPayer = await holder(testnet, testnet.usdc, "100");
    const xlm = Asset.native();

    // XLM: A 100, paid 40 then 70 (10 over), the 10 refunded; B 50, credited 20, paid 10.
    const a = await sentInvoice(f, "Zoe@Example.com ", "XLM", "100");
    const a1 = await payInvoice(f, a, xlmPayer, xlm, "40");
    const a2 = await payInvoice(f, a, xlmPayer, xlm, "70");
    const aRefund = await refundOverpaid(f, a.id, a2);
    const b = await sentInvoice(f, "zoe@example.com", "XLM", "50");
    const bCredit = await f.api.post(`/api/invoices/${b.id}/credit-notes`, {
      reason: "Goodwill",
      amount: "20",
    });
    expect(bCredit.status).toBe(201);
    const b1 = await payInvoice(f, b, xlmPayer, xlm, "10");
    // USDC: C 25 paid with 30 (5 over), the 5 refunded; D 12.5 cancelled (its credit note).
    const c = await sentInvoice(f, "zoe@example.com", "USDC", "25");
    const c1 = await payInvoice(f, c, usdcPayer, testnet.usdc, "30");
    const cRefund = await refundOverpaid(f, c.id, c1);
    const d = await sentInvoice(f, "zoe@example.com", "USDC", "12.5");
    expect(
      (await f.api.post(`/api/invoices/${d.id}/cancel`, { reason: "Not needed" })).status,
    ).toBe(200);
    // Not the client's account: a draft, another client's invoice.
    expect(
      (await f.api.post("/api/invoices", invoiceBody({ clientEmail: "zoe@example.com" }))).status,
    ).toBe(201);
    await sentInvoice(f, "someone@example.com", "XLM", "7");
    invoiceIds = [a.id, b.id, c.id, d.id];

    // Spread over January to March 2026.
    await sql`update invoices set sent_at = ${at("2026-01-05")} where id = ${a.id}`;
    await sql`update payments set confirmed_at = ${at("2026-01-10")} where id = ${a1}`;
    await sql`update payments set confirmed_at = ${at("2026-02-03")} where id = ${a2}`;
    await sql`update refunds set confirmed_at = ${at("2026-02-04")} where id = ${aRefund}`;
    await sql`update invoices set sent_at = ${at("2026-02-10")} where id = ${b.id}`;
    await sql`update credit_notes set created_at = ${at("2026-02-11")} where invoice_id = ${b.id}`;
    await sql`update payments set confirmed_at = ${at("2026-03-02")} where id = ${b1}`;
    await sql`update invoices set sent_at = ${at("2026-01-15")} where id = ${c.id}`;
    await sql`update payments set confirmed_at = ${at("2026-02-05")} where id = ${c1}`;
    await sql`update refunds set confirmed_at = ${at("2026-02-06")} where id = ${cRefund}`;
    await sql`update invoices set sent_at = ${at("2026-02-20")} where id = ${d.id}`;
    await sql`update credit_notes set created_at = ${at("2026-02-21")} where invoice_id = ${d.id}`;
  }, 120_000);

  it("closing = opening + invoices - payments + refunds - credit notes, to the stroop, per currency", async () => {
    const res = await f.api.get(`/api/clients/${clientId}/statement?from=2025-01-01&to=2026-12-31`);
    expect(res.status).toBe(200);
    const blocks = res.body.currencies as Block[];
    expect(blocks.map((b) => b.currency)).toEqual(["USDC", "XLM"]);
    const owed = await owedByInvoices(invoiceIds);
    for (const b of blocks) {
      expect(b.openingBalance).toBe("0.0000000");
      expect(toStroops(b.closingBalance)).toBe(identity(b));
      expect(toStroops(b.closingBalance)).toBe(owed.get(b.currency));
    }
    const xlm = blocks[1];
    expect(xlm).toMatchObject({
      invoiced: "150.0000000",
      paid: "120.0000000",
      refunded: "10.0000000",
      credited: "20.0000000",
      closingBalance: "20.0000000",
    });
    // The overpayment shows as a credit balance until its refund adds it back.
    expect(xlm.lines.map((l) => [l.kind, l.balance])).toEqual([
      ["invoice", "100.0000000"],
      ["payment", "60.0000000"],
      ["payment", "-10.0000000"],
      ["refund", "0.0000000"],
      ["invoice", "50.0000000"],
      ["credit_note", "30.0000000"],
      ["payment", "20.0000000"],
    ]);
    expect(blocks[0]).toMatchObject({
      invoiced: "37.5000000",
      paid: "30.0000000",
      refunded: "5.0000000",
      credited: "12.5000000",
      closingBalance: "0.0000000",
    });
  });

  it("a period in the middle opens with what was owed at its start", async () => {
    const res = await f.api.get(`/api/clients/${clientId}/statement?from=2026-02-01&to=2026-02-28`);
    expect(res.status).toBe(200);
    const [usdc, xlm] = res.body.currencies as Block[];
    expect(xlm.openingBalance).toBe("60.0000000");
    expect(xlm.lines.map((l) => l.kind)).toEqual(["payment", "refund", "invoice", "credit_note"]);
    expect(xlm.closingBalance).toBe("30.0000000");
    expect(toStroops(xlm.closingBalance)).toBe(identity(xlm));
    expect(usdc.openingBalance).toBe("25.0000000");
    expect(usdc.closingBalance).toBe("0.0000000");
    expect(toStroops(usdc.closingBalance)).toBe(identity(usdc));
    // January closes where February opens.
    const jan = await f.api.get(`/api/clients/${clientId}/statement?from=2026-01-01&to=2026-01-31`);
    const janXlm = (jan.body.currencies as Block[]).find((b) => b.currency === "XLM");
    expect(janXlm?.closingBalance).toBe(xlm.openingBalance);
  });

  it("the CSV and the PDF carry the same figures as the JSON", async () => {
    const path = `/api/clients/${clientId}/statement?from=2026-02-01&to=2026-02-28`;
    const json = (await f.api.get(path)).body.currencies as Block[];
    const headers = { authorization: `Bearer ${f.token}` };
    const csvRes = await fetch(`${app.url}${path}&format=csv`, { headers });
    expect(csvRes.status).toBe(200);
    expect(csvRes.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csvRes.headers.get("content-disposition")).toContain(
      "statement_2026-02-01_2026-02-28.csv",
    );
    const rows = parseCsv(await csvRes.text(), { columns: true, bom: true }) as Record<
      string,
      string
    >[];
    for (const b of json) {
      const mine = rows.filter((r) => r.currency === b.currency);
      expect(mine[0]).toMatchObject({ kind: "opening_balance", balance: b.openingBalance });
      expect(mine.at(-1)).toMatchObject({ kind: "closing_balance", balance: b.closingBalance });
      expect(mine.slice(1, -1).map((r) => [r.kind, r.amount, r.balance])).toEqual(
        b.lines.map((l) => [l.kind, l.amount, l.balance]),
      );
    }
    const pdfRes = await fetch(`${app.url}${path}&format=pdf`, { headers });
    expect(pdfRes.status).toBe(200);
    expect(pdfRes.headers.get("content-type")).toBe("application/pdf");
    const text = await flatPdfText(await pdfRes.arrayBuffer());
    // In the client's language (de), the same balances.
    expect(text).toContain("Kontoauszug");
    expect(text).toContain("Anfangssaldo");
    for (const b of json) {
      expect(text).toContain(localizeAmount(formatAmount(b.closingBalance, b.currency), "de"));
      expect(text).toContain(localizeAmount(formatAmount(b.openingBalance), "de"));
    }
  });

  it("400 naming from or to, 404 for an unknown client, 403 for another freelancer's", async () => {
    const base = `/api/clients/${clientId}/statement`;
    const bad = await f.api.get(`${base}?from=2026-13-01&to=2026-02-01`);
    expect(bad.status).toBe(400);
    expect(bad.body.details.from).toBe(STATEMENT_DATE);
    const missing = await f.api.get(`${base}?from=2026-01-01`);
    expect(missing.status).toBe(400);
    expect(missing.body.details).toHaveProperty("to");
    const reversed = await f.api.get(`${base}?from=2026-02-01&to=2026-01-31`);
    expect(reversed.status).toBe(400);
    expect(reversed.body.details.to).toBe(STATEMENT_REVERSED);
    const unknown = await f.api.get(
      "/api/clients/clx8f2k9p0000abcd1234zzzz/statement?from=2026-01-01&to=2026-01-31",
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe("Client not found");
    const other = await freelancer();
    const stranger = await other.api.get(`${base}?from=2026-01-01&to=2026-01-31&format=csv`);
    expect(stranger.status).toBe(403);
    expect(stranger.body.error).toBe("Unauthorized");
  });
});
