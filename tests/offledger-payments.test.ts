import type { Keypair } from "@stellar/stellar-sdk";
import { parse } from "csv-parse/sync";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, client, invoiceBody } from "./helpers/api";
import type { RunningApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import { Asset, type Chain, funded, Memo, pay, send, TESTNET } from "./helpers/stellar";

// Payments received outside Stellar (docs/decisions.md, Payments received outside Stellar):
// the owner records a bank transfer, cash or other payment; it counts towards amountPaid like
// an applied ledger payment (PAID through the same rule, with its audit entry, events and
// emails), is listed and exported with its method, has no transaction, and is never refunded
// through Stellar. Real HTTP server, PostgreSQL and the local ledger.

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

type Freelancer = { kp: Keypair; api: Api };

async function freelancer(): Promise<Freelancer> {
  const kp = await funded(testnet);
  const { token } = await signIn(app.url, kp);
  return { kp, api: client(app.url, token) };
}

type Inv = { id: string; invoiceNumber: string; total: string };

/** A sent XLM invoice of `total` (one line). */
async function sentInvoice(f: Freelancer, total = "100", over: Record<string, unknown> = {}) {
  const created = await f.api.post(
    "/api/invoices",
    invoiceBody({ lineItems: [{ description: "Work", quantity: "1", rate: total }], ...over }),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const sent = await f.api.post(`/api/invoices/${created.body.id}/send`);
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return created.body as Inv;
}

const today = () => new Date().toISOString().slice(0, 10);
const record = (f: Freelancer, id: string, body: Record<string, unknown>) =>
  f.api.post(`/api/invoices/${id}/payments`, body);

type OwnerPayment = {
  id: string;
  method: string;
  reference: string | null;
  transactionHash: string | null;
  ledgerNumber: number | null;
  fromWallet: string | null;
  amount: string;
  applied: boolean;
  status: string;
  recordedBy: string | null;
};
type Owner = {
  status: string;
  amountPaid: string;
  amountDue: string;
  transactionHash: string | null;
  payments: OwnerPayment[];
  auditLogs: { action: string; actorWallet: string; changes: Record<string, unknown> | null }[];
};
const owner = async (f: Freelancer, id: string) =>
  (await f.api.get(`/api/invoices/${id}/owner`)).body as Owner;

const eventsOf = async (f: Freelancer, invoiceId: string) =>
  (
    (await f.api.get("/api/events?limit=100")).body.events as {
      type: string;
      invoiceId: string | null;
      data: Record<string, unknown>;
    }[]
  ).filter((e) => e.invoiceId === invoiceId);

describe("POST /api/invoices/:id/payments", () => {
  it("a partial bank transfer counts towards amountPaid, keeps the status, and is audited by the freelancer", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, "100");
    const res = await record(f, inv.id, {
      amount: "40",
      receivedOn: today(),
      method: "bank_transfer",
      reference: "SEPA 2026-114",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ status: "PENDING", amountPaid: "40.0000000" });

    const view = await owner(f, inv.id);
    expect(view.amountDue).toBe("60.0000000");
    expect(view.payments).toHaveLength(1);
    const [p] = view.payments;
    expect(p).toMatchObject({
      method: "bank_transfer",
      reference: "SEPA 2026-114",
      transactionHash: null,
      ledgerNumber: null,
      fromWallet: null,
      amount: "40.0000000",
      applied: true,
      status: "CONFIRMED",
      recordedBy: f.kp.publicKey(),
    });
    const entry = view.auditLogs.find((a) => a.action === "PAYMENT_RECEIVED");
    expect(entry?.actorWallet).toBe(f.kp.publicKey());
    expect(entry?.changes).toMatchObject({
      method: "bank_transfer",
      reference: "SEPA 2026-114",
      amount: "40.0000000",
      amountPaid: "40.0000000",
      paymentId: p.id,
    });

    // The payer's view counts it too, with how it came and no transaction.
    const status = (await anon.get(`/api/payments/${inv.id}/status`)).body;
    expect(status.amountPaid).toBe("40.0000000");
    expect(status.payments).toEqual([
      expect.objectContaining({ method: "bank_transfer", transactionHash: null, applied: true }),
    ]);
    // Nothing on the ledger names the invoice.
    const ops = await testnet.server.payments().forAccount(f.kp.publicKey()).call();
    expect(ops.records.every((r) => r.type === "create_account")).toBe(true);
  });

  it("a payment completing the total makes the invoice PAID with invoice.paid and payment.confirmed, and queues the receipt", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, "100");
    expect(
      (await record(f, inv.id, { amount: "30", receivedOn: today(), method: "cash" })).status,
    ).toBe(201);
    const res = await record(f, inv.id, {
      amount: "70",
      receivedOn: "2026-01-02",
      method: "other",
      reference: "cheque 55",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      status: "PAID",
      amountPaid: "100.0000000",
      amountDue: "0.0000000",
      transactionHash: null,
      payerWallet: null,
      paidAt: "2026-01-02T00:00:00.000Z",
    });

    const view = await owner(f, inv.id);
    const paid = view.auditLogs.filter((a) => a.action === "PAID");
    expect(paid).toHaveLength(1);
    expect(paid[0].actorWallet).toBe(f.kp.publicKey());
    expect(paid[0].changes).toMatchObject({
      status: { from: "PENDING", to: "PAID" },
      method: "other",
      amountPaid: "100.0000000",
    });

    const events = await eventsOf(f, inv.id);
    const paidEvents = events.filter((e) => e.type === "invoice.paid");
    expect(paidEvents).toHaveLength(1);
    expect(paidEvents[0].data).toMatchObject({
      status: "PAID",
      previousStatus: "PENDING",
      transactionHash: null,
      payerWallet: null,
    });
    const confirmed = events.filter((e) => e.type === "payment.confirmed");
    expect(confirmed.map((e) => e.data.method).sort()).toEqual(["cash", "other"]);
    expect(confirmed.find((e) => e.data.method === "other")?.data).toMatchObject({
      transactionHash: null,
      amount: "70.0000000",
      amountPaid: "100.0000000",
      amountDue: "0.0000000",
      reference: "cheque 55",
    });

    // The same emails as a ledger payment: a receipt per payment, "paid in full" last.
    const mails = await sql`
      select kind, subject, payload from email_messages
      where invoice_id = ${inv.id} and kind in ('receipt', 'payment_notice') order by created_at`;
    const receipts = mails.filter((m) => m.kind === "receipt");
    expect(receipts).toHaveLength(2);
    expect(receipts[1].subject).toContain("paid in full");
    expect(receipts[1].payload).toMatchObject({
      transactionHash: null,
      method: "other",
      reference: "cheque 55",
      paidInFull: true,
    });

    // Paid: no more manual payments.
    const more = await record(f, inv.id, { amount: "1", receivedOn: today(), method: "cash" });
    expect(more.status).toBe(400);
    expect(more.body.error).toBe("Invoice cannot be paid. Current status: PAID");
  });

  it("refuses bad input with 400 naming the field, and writes nothing", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, "100");
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const cases: [Record<string, unknown>, string][] = [
      [{ receivedOn: today(), method: "cash" }, "amount"],
      [{ amount: "0", receivedOn: today(), method: "cash" }, "amount"],
      [{ amount: "-5", receivedOn: today(), method: "cash" }, "amount"],
      [{ amount: "1.123456789", receivedOn: today(), method: "cash" }, "amount"],
      [{ amount: "abc", receivedOn: today(), method: "cash" }, "amount"],
      [{ amount: "100.0000001", receivedOn: today(), method: "cash" }, "amount"],
      [{ amount: "5", method: "cash" }, "receivedOn"],
      [{ amount: "5", receivedOn: "2026-02-30", method: "cash" }, "receivedOn"],
      [{ amount: "5", receivedOn: "yesterday", method: "cash" }, "receivedOn"],
      [{ amount: "5", receivedOn: future, method: "cash" }, "receivedOn"],
      [{ amount: "5", receivedOn: today() }, "method"],
      [{ amount: "5", receivedOn: today(), method: "stellar" }, "method"],
      [
        { amount: "5", receivedOn: today(), method: "cash", reference: "x".repeat(141) },
        "reference",
      ],
    ];
    for (const [body, field] of cases) {
      const res = await record(f, inv.id, body);
      expect(res.status, `${JSON.stringify(body)} -> ${JSON.stringify(res.body)}`).toBe(400);
      expect(Object.keys(res.body.details ?? {}), JSON.stringify(body)).toContain(field);
    }
    const extra = await record(f, inv.id, {
      amount: "5",
      receivedOn: today(),
      method: "cash",
      transactionHash: "ab".repeat(32),
    });
    expect(extra.status).toBe(400);

    const view = await owner(f, inv.id);
    expect(view.payments).toHaveLength(0);
    expect(view.amountPaid).toBe("0.0000000");
    expect(view.auditLogs.map((a) => a.action)).not.toContain("PAYMENT_RECEIVED");
  });

  it("refuses over-payment (amount above the amount due) and whole cents only on a fiat-priced invoice", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, "200", { priceCurrency: "EUR" });
    const over = await record(f, inv.id, { amount: "200.01", receivedOn: today(), method: "cash" });
    expect(over.status).toBe(400);
    expect(over.body.error).toBe("Amount exceeds the amount due");
    expect(over.body.details.amount).toBe("must be at most 200, the amount due");
    const cents = await record(f, inv.id, {
      amount: "10.005",
      receivedOn: today(),
      method: "cash",
    });
    expect(cents.status).toBe(400);
    expect(cents.body.details.amount).toMatch(/2 decimals/);

    const ok = await record(f, inv.id, {
      amount: "80.99",
      receivedOn: today(),
      method: "bank_transfer",
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const view = await owner(f, inv.id);
    expect(view.amountPaid).toBe("80.9900000");
    expect(view.amountDue).toBe("119.0100000");
    expect(view.payments[0]).toMatchObject({ asset: "EUR", amount: "80.9900000" });
    // The statistics count the 80.99 EUR as EUR revenue, never as XLM received.
    const stats = (await f.api.get("/api/invoices/stats")).body;
    expect(stats.byPriceCurrency.EUR.totalRevenue).toBe("80.99");
    expect(stats.totalRevenue.XLM ?? "0").toMatch(/^0(\.0+)?$/);
    const again = await record(f, inv.id, {
      amount: "119.02",
      receivedOn: today(),
      method: "cash",
    });
    expect(again.status).toBe(400);
    expect(again.body.details.amount).toBe("must be at most 119.01, the amount due");
  });

  it("is the owner's only: another wallet 403, an unknown invoice 404, no session 401, a read-only key 403, a write key records as the key", async () => {
    const f = await freelancer();
    const other = await freelancer();
    const inv = await sentInvoice(f, "50");
    const body = { amount: "5", receivedOn: today(), method: "cash" };
    expect((await record(other, inv.id, body)).status).toBe(403);
    expect((await record(f, "clx8f2k9p0000abcd1234efgh", body)).status).toBe(404);
    expect((await anon.post(`/api/invoices/${inv.id}/payments`, body)).status).toBe(401);

    const reader = await f.api.post("/api/keys", { name: "r", scopes: ["invoices:read"] });
    const writer = await f.api.post("/api/keys", { name: "w", scopes: ["invoices:write"] });
    expect(writer.status, JSON.stringify(writer.body)).toBe(201);
    const readKey = client(app.url, reader.body.secret);
    const writeKey = client(app.url, writer.body.secret);
    const refused = await readKey.post(`/api/invoices/${inv.id}/payments`, body);
    expect(refused.status).toBe(403);
    expect((await owner(f, inv.id)).payments).toHaveLength(0);

    const ok = await writeKey.post(`/api/invoices/${inv.id}/payments`, body);
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const view = await owner(f, inv.id);
    expect(view.payments[0].recordedBy).toBe(`key:${writer.body.prefix}`);
    expect(view.auditLogs.find((a) => a.action === "PAYMENT_RECEIVED")?.actorWallet).toBe(
      `key:${writer.body.prefix}`,
    );
  });

  it("refuses a draft, a cancelled invoice and a payment link", async () => {
    const f = await freelancer();
    const body = { amount: "5", receivedOn: today(), method: "cash" };
    const draft = await f.api.post("/api/invoices", invoiceBody());
    const d = await record(f, draft.body.id, body);
    expect(d.status).toBe(400);
    expect(d.body.error).toBe("Invoice cannot be paid. Current status: DRAFT");
    const inv = await sentInvoice(f, "50");
    expect((await f.api.post(`/api/invoices/${inv.id}/cancel`, {})).status).toBe(200);
    expect((await record(f, inv.id, body)).body.error).toBe(
      "Invoice cannot be paid. Current status: CANCELLED",
    );
    const link = await f.api.post("/api/links", {
      amount: "10",
      asset: "XLM",
      networkPassphrase: TESTNET,
      title: "Tip",
    });
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    const l = await record(f, link.body.id, body);
    expect(l.status).toBe(400);
    expect(l.body.error).toMatch(/payment links/);
  });
});

describe("refunds and voids", () => {
  it("the refund path refuses a payment received outside Stellar with a clear 400; a ledger payment is still refundable", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, "100");
    await record(f, inv.id, { amount: "10", receivedOn: today(), method: "bank_transfer" });
    // A real ledger payment of 20 XLM too.
    const payer = await funded(testnet);
    const tx = await send(
      testnet,
      await pay(
        testnet,
        payer,
        f.kp.publicKey(),
        Asset.native(),
        "20",
        Memo.text(inv.invoiceNumber),
      ),
    );
    const confirm = await anon.post("/api/payments/confirm", {
      invoiceId: inv.id,
      transactionHash: tx,
    });
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(400); // underpayment, recorded
    const view = await owner(f, inv.id);
    expect(view.amountPaid).toBe("30.0000000");
    const manual = view.payments.find((p) => p.method === "bank_transfer");
    const ledger = view.payments.find((p) => p.method === "stellar");
    expect(manual && ledger).toBeTruthy();

    const refused = await f.api.post(`/api/invoices/${inv.id}/payments/${manual?.id}/refund`, {});
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(
      "A payment received outside Stellar cannot be refunded through Stellar",
    );
    expect(
      (await sql`select count(*)::int as n from refunds where invoice_id = ${inv.id}`)[0].n,
    ).toBe(0);
    const refund = await f.api.post(`/api/invoices/${inv.id}/payments/${ledger?.id}/refund`, {});
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
  });

  it("voiding a mistaken manual payment recomputes amountPaid, is audited, writes payment.voided; PAID and ledger payments are refused", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, "100");
    await record(f, inv.id, { amount: "25", receivedOn: today(), method: "cash" });
    await record(f, inv.id, { amount: "15", receivedOn: today(), method: "bank_transfer" });
    const before = await owner(f, inv.id);
    expect(before.amountPaid).toBe("40.0000000");
    const cash = before.payments.find((p) => p.method === "cash");

    const other = await freelancer();
    expect((await other.api.delete(`/api/invoices/${inv.id}/payments/${cash?.id}`)).status).toBe(
      403,
    );

    const res = await f.api.delete(`/api/invoices/${inv.id}/payments/${cash?.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: "PENDING", amountPaid: "15.0000000" });
    const view = await owner(f, inv.id);
    expect(view.payments.find((p) => p.id === cash?.id)).toMatchObject({
      status: "VOIDED",
      applied: false,
    });
    const entry = view.auditLogs.find((a) => a.action === "PAYMENT_VOIDED");
    expect(entry?.actorWallet).toBe(f.kp.publicKey());
    expect(entry?.changes).toMatchObject({ amount: "25.0000000", amountPaid: "15.0000000" });
    const voided = (await eventsOf(f, inv.id)).filter((e) => e.type === "payment.voided");
    expect(voided).toHaveLength(1);
    expect(voided[0].data).toMatchObject({ status: "VOIDED", amountPaid: "15.0000000" });

    const twice = await f.api.delete(`/api/invoices/${inv.id}/payments/${cash?.id}`);
    expect(twice.status).toBe(400);
    expect(twice.body.error).toBe("Payment already voided");

    // Completing the invoice with a ledger payment; then nothing is voided any more.
    const payer = await funded(testnet);
    const tx = await send(
      testnet,
      await pay(
        testnet,
        payer,
        f.kp.publicKey(),
        Asset.native(),
        "85",
        Memo.text(inv.invoiceNumber),
      ),
    );
    expect(
      (await anon.post("/api/payments/confirm", { invoiceId: inv.id, transactionHash: tx })).status,
    ).toBe(200);
    const paid = await owner(f, inv.id);
    expect(paid.status).toBe("PAID");
    const ledger = paid.payments.find((p) => p.method === "stellar");
    const bank = paid.payments.find((p) => p.method === "bank_transfer");
    expect((await f.api.delete(`/api/invoices/${inv.id}/payments/${bank?.id}`)).body.error).toBe(
      "A payment on a PAID invoice cannot be voided: the invoice stays paid",
    );
    expect((await f.api.delete(`/api/invoices/${inv.id}/payments/${ledger?.id}`)).body.error).toBe(
      "Only a payment recorded by hand can be voided",
    );
  });
});

describe("exports", () => {
  it("the payments CSV lists a manual payment with its method and reference and no hash; the invoices CSV counts it", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, "100");
    await record(f, inv.id, {
      amount: "100",
      receivedOn: today(),
      method: "bank_transfer",
      reference: "=HYPERLINK(x)",
    });
    const csv = await fetch(`${app.url}/api/exports/payments.csv`, {
      headers: { authorization: `Bearer ${(await signIn(app.url, f.kp)).token}` },
    });
    expect(csv.status).toBe(200);
    const rows = parse(await csv.text(), { columns: true }) as Record<string, string>[];
    const row = rows.find((r) => r.invoiceId === inv.id);
    expect(row).toMatchObject({
      method: "bank_transfer",
      reference: "'=HYPERLINK(x)",
      transactionHash: "",
      ledger: "",
      fromWallet: "",
      amount: "100.0000000",
      status: "applied",
    });
    const invoicesCsv = await fetch(`${app.url}/api/exports/invoices.csv`, {
      headers: { authorization: `Bearer ${(await signIn(app.url, f.kp)).token}` },
    });
    const invoices = parse(await invoicesCsv.text(), { columns: true }) as Record<string, string>[];
    expect(invoices.find((r) => r.invoiceId === inv.id)).toMatchObject({
      status: "PAID",
      amountPaid: "100.0000000",
    });
  });
});
