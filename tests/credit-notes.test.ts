import type { Keypair } from "@stellar/stellar-sdk";
import type postgres from "postgres";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, TEST_CRON_SECRET } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import { flatPdfText } from "./helpers/pdf";
import { startTestSmtp, type TestSmtp } from "./helpers/smtp";
import { type Chain, funded } from "./helpers/stellar";

// Credit notes (docs/decisions.md, Credit notes) through the real server and PostgreSQL:
// full, partial (lines, quantities, an amount), over-credit, drafts, the gap-free CN- series
// under concurrency, cancel, the amount due the checkout asks for, the audit entry, event and
// email, the CSV export, the statistics and the PDF.

let testnet: Chain;
let mainnet: Chain;
let app: RunningApp;
let db: LedgerApp["db"];
let sql: postgres.Sql;
let prices: LedgerApp["prices"];
let smtp: TestSmtp;
let api: Api;
let anon: Api;
let token: string;
let kp: Keypair;

beforeAll(async () => {
  smtp = await startTestSmtp();
  ({ testnet, mainnet, app, db, sql, prices } = await startLedgerApp({
    SMTP_URL: smtp.url,
    EMAIL_FROM: "Billing <billing@invoices.example.com>",
  }));
  kp = await funded(testnet);
  token = (await signIn(app.url, kp)).token;
  api = client(app.url, token);
  anon = client(app.url);
}, 120_000);

afterAll(async () => {
  await stopLedgerApp({ sql, app, testnet, mainnet, db, prices });
  await smtp?.close();
});

beforeEach(() => smtp.clear());

/**
 * 19 %, 7 % and 0 % lines and a 10 XLM discount lowering the base in proportion (7.2, 1.6 and
 * 1.2): 292.8 x 19 % = 55.632, 65.0666666 x 7 % = 4.5546667; total 466.8533333 XLM.
 */
const MIXED = [
  { description: "Design", quantity: "3", rate: "100", taxRate: "19" },
  { description: "Books", quantity: "2", rate: "33.3333333", taxRate: "7" },
  {
    description: "Export",
    quantity: "1",
    rate: "50",
    taxRate: "0",
    taxCategory: "G",
    exemptionReason: "Export outside the EU",
  },
];

async function sentInvoice(overrides: Record<string, unknown> = {}) {
  const draft = await api.post("/api/invoices", invoiceBody(overrides));
  expect(draft.status, JSON.stringify(draft.body)).toBe(201);
  const sent = await api.post(`/api/invoices/${draft.body.id}/send`);
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return (await api.get(`/api/invoices/${draft.body.id}/owner`)).body;
}

/** POST a credit note, optionally with extra headers (an Idempotency-Key). */
async function credit(id: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${app.url}/api/invoices/${id}/credit-notes`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const numberOf = (n: string) => Number(n.slice(3));

describe("issuing credit notes", () => {
  it("credits chosen lines and quantities with the invoice's tax rules, then an amount, then the rest", async () => {
    const inv = await sentInvoice({ lineItems: MIXED, discount: "10" });
    expect(inv.total).toBe("466.8533333");

    const first = await credit(inv.id, {
      reason: "One design day not worked",
      lines: [{ lineIndex: 0, quantity: "1" }],
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({
      invoiceId: inv.id,
      invoiceNumber: inv.invoiceNumber,
      kind: "LINES",
      reason: "One design day not worked",
      subtotal: "100.0000000",
      // 10 x 100 / 416.6666666 = 2.4000000 of the discount; 19 % of 97.6 = 18.544
      discount: "2.4000000",
      taxAmount: "18.5440000",
      total: "116.1440000",
      unit: "XLM",
      taxInCurrency: null,
      refundId: null,
    });
    expect(first.body.number).toMatch(/^CN-\d{4}$/);
    expect(first.body.lines).toEqual([
      {
        lineItemId: inv.lineItems[0].id,
        description: "Design",
        quantity: "1.00",
        rate: "100.0000000",
        amount: "100.0000000",
        taxRate: "19.00",
        // Every credited line names its category (EN 16931), the invoice line's S by default.
        taxCategory: "S",
      },
    ]);
    expect(first.body.taxBreakdown).toEqual([
      expect.objectContaining({ category: "S", rate: "19.00", taxableAmount: "97.6000000" }),
    ]);

    // The invoice itself never changes; what it asks for does.
    const owner = (await api.get(`/api/invoices/${inv.id}/owner`)).body;
    expect(owner.total).toBe(inv.total);
    expect(owner.lineItems).toEqual(inv.lineItems);
    expect(owner.amountCredited).toBe("116.1440000");
    expect(owner.amountDue).toBe("350.7093333");
    expect(owner.status).toBe("PENDING");
    expect(owner.creditNotes).toEqual([
      {
        id: first.body.id,
        number: first.body.number,
        reason: "One design day not worked",
        taxAmount: "18.5440000",
        total: "116.1440000",
        refundId: null,
        pdfUrl: `/api/credit-notes/${first.body.id}/pdf`,
        createdAt: first.body.createdAt,
      },
    ]);
    // The checkout asks for less.
    const pub = (await anon.get(`/api/invoices/${inv.id}`)).body;
    expect(pub.amountDue).toBe("350.7093333");
    const polled = (await anon.get(`/api/payments/${inv.id}/status`)).body;
    expect(polled.amountDue).toBe("350.7093333");

    const second = await credit(inv.id, { reason: "Goodwill", amount: "40" });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(second.body).toMatchObject({ kind: "AMOUNT", total: "40.0000000" });
    expect(numberOf(second.body.number)).toBe(numberOf(first.body.number) + 1);
    // Every credited amount carries its category and rate (EN 16931).
    expect(second.body.taxBreakdown.map((r: { rate: string }) => r.rate)).toEqual([
      "19.00",
      "7.00",
      "0.00",
    ]);

    // Over-credit: 400 naming the field, nothing written.
    const tooMuch = await credit(inv.id, { reason: "x", amount: "310.7093334" });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.details).toHaveProperty("amount");
    const tooMany = await credit(inv.id, {
      reason: "x",
      lines: [{ lineIndex: 0, quantity: "2.01" }],
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details).toHaveProperty(["lines.0.quantity"]);
    const noLine = await credit(inv.id, { reason: "x", lines: [{ lineIndex: 9 }] });
    expect(noLine.status).toBe(400);
    expect(noLine.body.details).toHaveProperty(["lines.0.lineIndex"]);
    const noReason = await credit(inv.id, {});
    expect(noReason.status).toBe(400);
    expect(noReason.body.details).toHaveProperty("reason");
    expect((await api.get(`/api/invoices/${inv.id}/owner`)).body.creditNotes).toHaveLength(2);

    // The rest: all three credit notes add up to the invoice, to the stroop; nothing was paid,
    // so nothing is due and the invoice is closed.
    const rest = await credit(inv.id, { reason: "Project stopped" });
    expect(rest.status, JSON.stringify(rest.body)).toBe(201);
    expect(rest.body.kind).toBe("FULL");
    const stroops = (v: string) => BigInt(v.replace(".", ""));
    expect(stroops(first.body.total) + stroops(second.body.total) + stroops(rest.body.total)).toBe(
      stroops(inv.total),
    );
    expect(
      stroops(first.body.taxAmount) + stroops(second.body.taxAmount) + stroops(rest.body.taxAmount),
    ).toBe(stroops(inv.taxAmount));
    const closed = (await api.get(`/api/invoices/${inv.id}/owner`)).body;
    expect(closed).toMatchObject({
      amountCredited: inv.total,
      amountDue: "0.0000000",
      status: "CANCELLED",
    });
    const again = await credit(inv.id, { reason: "More" });
    expect(again.status).toBe(400);
    expect(again.body.details).toHaveProperty("lines");
  });

  it("a full credit note of an unpaid invoice leaves nothing due; of a partly paid one, the invoice is paid", async () => {
    const unpaid = await sentInvoice();
    const full = await credit(unpaid.id, { reason: "Wrong client" });
    expect(full.status, JSON.stringify(full.body)).toBe(201);
    expect(full.body).toMatchObject({
      kind: "FULL",
      subtotal: unpaid.subtotal,
      taxAmount: unpaid.taxAmount,
      total: unpaid.total,
    });
    expect(full.body.lines.map((l: { quantity: string }) => l.quantity)).toEqual(["2.00", "1.00"]);
    const after = (await api.get(`/api/invoices/${unpaid.id}/owner`)).body;
    expect(after).toMatchObject({ amountDue: "0.0000000", status: "CANCELLED" });

    const partly = await sentInvoice();
    const paid = await api.post(`/api/invoices/${partly.id}/payments`, {
      amount: "500",
      receivedOn: new Date().toISOString().slice(0, 10),
      method: "bank_transfer",
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    const rest = await credit(partly.id, { reason: "Settled for less", amount: "501" });
    expect(rest.status, JSON.stringify(rest.body)).toBe(201);
    const settled = (await api.get(`/api/invoices/${partly.id}/owner`)).body;
    expect(settled).toMatchObject({ amountDue: "0.0000000", status: "PAID" });
    const events =
      await sql`select type from events where invoice_id = ${partly.id} order by created_at, id`;
    expect(events.map((e) => e.type)).toContain("invoice.paid");
  });

  it("refuses a draft with a clear 400 and writes nothing", async () => {
    const draft = await api.post("/api/invoices", invoiceBody());
    const r = await credit(draft.body.id, { reason: "x" });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("Only a sent invoice can be credited. Current status: DRAFT");
    const [{ n }] =
      await sql`select count(*)::int as n from credit_notes where invoice_id = ${draft.body.id}`;
    expect(n).toBe(0);
  });

  it("numbers 50 concurrent credit notes across invoices CN-n .. CN-n+49, no gap, no duplicate", async () => {
    const invoices = [];
    for (let i = 0; i < 50; i++) {
      const d = await api.post("/api/invoices", invoiceBody());
      invoices.push(d.body.id as string);
    }
    await Promise.all(invoices.map((id) => api.post(`/api/invoices/${id}/send`)));
    const [{ last }] =
      await sql`select coalesce(max(last), 0)::int as last from credit_note_counters
      where wallet = ${kp.publicKey()}`;
    const answers = await Promise.all(
      invoices.map((id) =>
        credit(id, { reason: "Concurrent", lines: [{ lineIndex: 1, quantity: "0.5" }] }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(invoices.map(() => 201));
    const numbers = answers.map((a) => numberOf(a.body.number)).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => last + 1 + i));
  }, 120_000);

  it("cancelling a sent invoice issues a full credit note in the same transaction", async () => {
    const inv = await sentInvoice();
    const partial = await credit(inv.id, {
      reason: "Half a day",
      lines: [{ lineIndex: 1, quantity: "0.5" }],
    });
    expect(partial.status).toBe(201);
    const cancelled = await api.post(`/api/invoices/${inv.id}/cancel`, { reason: "Client left" });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const owner = (await api.get(`/api/invoices/${inv.id}/owner`)).body;
    expect(owner.status).toBe("CANCELLED");
    expect(owner.amountCredited).toBe(inv.total);
    expect(owner.creditNotes).toHaveLength(2);
    expect(owner.creditNotes[1].reason).toBe("Invoice cancelled: Client left");
    const auto = (await api.get(`/api/credit-notes/${owner.creditNotes[1].id}`)).body;
    expect(auto).toMatchObject({ kind: "FULL" });
    // What is left of each line: 2 of the first, 0.5 of the second.
    expect(auto.lines.map((l: { quantity: string }) => l.quantity)).toEqual(["2.00", "0.50"]);

    // A German invoice's cancel writes its credit note's reason in German.
    const german = await sentInvoice({ language: "de" });
    await api.post(`/api/invoices/${german.id}/cancel`);
    const germanNotes = (await api.get(`/api/invoices/${german.id}/owner`)).body.creditNotes;
    expect(germanNotes.map((n: { reason: string }) => n.reason)).toEqual(["Rechnung storniert"]);

    // A draft's cancel issues none.
    const draft = await api.post("/api/invoices", invoiceBody());
    await api.post(`/api/invoices/${draft.body.id}/cancel`);
    expect((await api.get(`/api/invoices/${draft.body.id}/owner`)).body.creditNotes).toEqual([]);
  });

  it("honours Idempotency-Key: the same request answers the same credit note", async () => {
    const inv = await sentInvoice();
    const body = { reason: "Retry-safe", amount: "10" };
    const a = await credit(inv.id, body, { "idempotency-key": `cn-${inv.id}` });
    const b = await credit(inv.id, body, { "idempotency-key": `cn-${inv.id}` });
    expect(a.status).toBe(201);
    expect(b.body.id).toBe(a.body.id);
    expect((await api.get(`/api/invoices/${inv.id}/owner`)).body.creditNotes).toHaveLength(1);
  });
});

describe("what a credit note writes beside itself", () => {
  it("the audit entry CREDITED, the event credit_note.created and the client's email with the PDF", async () => {
    const inv = await sentInvoice({ freelancerName: "Sam Freelancer" });
    const r = await credit(inv.id, { reason: "Discount agreed", amount: "100" });
    expect(r.status).toBe(201);
    const owner = (await api.get(`/api/invoices/${inv.id}/owner`)).body;
    const entry = owner.auditLogs.find((a: { action: string }) => a.action === "CREDITED");
    expect(entry).toMatchObject({
      actorWallet: kp.publicKey(),
      changes: {
        creditNote: { id: r.body.id, number: r.body.number, total: "100.0000000", unit: "XLM" },
      },
    });
    const [event] =
      await sql`select data from events where invoice_id = ${inv.id} and type = 'credit_note.created'`;
    expect(event.data).toMatchObject({
      id: r.body.id,
      number: r.body.number,
      invoiceNumber: inv.invoiceNumber,
      total: "100.0000000",
      amountCredited: "100.0000000",
      amountDue: "901.0000000",
    });
    const events = await api.get("/api/events?type=credit_note.created");
    expect(events.status).toBe(200);
    expect(events.body.events.map((e: { data: { id: string } }) => e.data.id)).toContain(r.body.id);

    // Only this invoice's messages wait for delivery (the earlier tests queued many).
    await sql`update email_messages set status = 'skipped'
      where status = 'pending' and invoice_id <> ${inv.id}`;
    const deliver = await fetch(`${app.url}/api/cron/emails`, {
      headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
    });
    expect(deliver.status).toBe(200);
    const ours = () => smtp.messages.find((m) => m.parsed.subject?.includes(r.body.number));
    for (let i = 0; i < 100 && !ours(); i++) await new Promise((ok) => setTimeout(ok, 200));
    const mail = ours();
    expect(mail?.parsed.subject).toBe(
      `Credit note ${r.body.number} for invoice ${inv.invoiceNumber} from Sam Freelancer: 100.00 XLM`,
    );
    expect(mail?.envelope.to).toEqual(["ada@example.com"]);
    expect(mail?.parsed.text).toContain("Discount agreed");
    const pdf = mail?.parsed.attachments.find((a) => a.filename === `${r.body.number}.pdf`);
    expect(pdf?.contentType).toBe("application/pdf");
    expect(await flatPdfText(new Uint8Array(pdf?.content ?? []))).toContain(r.body.number);
  });

  it("the PDF: title, number, the invoice it corrects, parties with tax ids, reason, lines, breakdown, totals", async () => {
    const inv = await sentInvoice({
      lineItems: MIXED,
      discount: "10",
      clientTaxId: "DE136695976",
      clientTaxScheme: "eu_vat",
      clientIsBusiness: true,
    });
    const r = await credit(inv.id, { reason: "Returned books", lines: [{ lineIndex: 1 }] });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const res = await fetch(`${app.url}/api/credit-notes/${r.body.id}/pdf`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="${r.body.number}.pdf"`,
    );
    const text = await flatPdfText(await res.arrayBuffer());
    expect(text).toContain("Credit note");
    expect(text).toContain(r.body.number);
    expect(text).toContain(`Corrects invoice ${inv.invoiceNumber} of`);
    expect(text).toContain("DE136695976");
    expect(text).toContain("Returned books");
    expect(text).toContain("Books");
    expect(text).toContain("VAT 7% of");
    expect(text).toContain("Total credited");
    // Another wallet's credit note: 403; an unknown id: 404.
    const other = await funded(testnet);
    const otherApi = client(app.url, (await signIn(app.url, other)).token);
    expect((await otherApi.get(`/api/credit-notes/${r.body.id}`)).status).toBe(403);
    expect((await api.get("/api/credit-notes/nope")).status).toBe(404);
  });

  it("lists credit notes in pages, exports them as CSV, and counts revenue net of credits", async () => {
    const list = await api.get("/api/credit-notes?limit=2");
    expect(list.status).toBe(200);
    expect(list.body.creditNotes).toHaveLength(2);
    expect(list.body.hasMore).toBe(true);
    expect(list.body.total).toBeGreaterThan(2);
    const next = await api.get("/api/credit-notes?limit=2&offset=2");
    expect(next.body.creditNotes[0].id).not.toBe(list.body.creditNotes[1].id);

    // A paid invoice credited without a refund: the money kept is no longer all revenue.
    const before = (await api.get("/api/invoices/stats")).body.totalRevenue.XLM;
    const inv = await sentInvoice();
    await api.post(`/api/invoices/${inv.id}/payments`, {
      amount: inv.total,
      receivedOn: new Date().toISOString().slice(0, 10),
      method: "cash",
    });
    const paid = (await api.get("/api/invoices/stats")).body.totalRevenue.XLM;
    const cn = await credit(inv.id, { reason: "Credit for next order", amount: "101" });
    expect(cn.status).toBe(201);
    const net = (await api.get("/api/invoices/stats")).body.totalRevenue.XLM;
    const v = (s: string) => BigInt(s.replace(".", ""));
    // Payments recorded by hand in the asset count as revenue in it.
    expect(v(paid) - v(before)).toBe(v(inv.total));
    expect(v(paid) - v(net)).toBe(v("101.0000000"));

    const csv = await fetch(`${app.url}/api/exports/credit-notes.csv`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(csv.status).toBe(200);
    const lines = (await csv.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe(
      "creditNoteNumber,creditNoteId,createdAt,invoiceNumber,invoiceId,reason,net,taxAmount,total,amountsIn,taxCurrency,taxAmountInTaxCurrency,refundId,network",
    );
    const row = lines.find((l) => l.includes(cn.body.id));
    expect(row).toContain(`${cn.body.number},${cn.body.id},`);
    expect(row).toContain(
      `,${inv.invoiceNumber},${inv.id},Credit for next order,101.0000000,0.0000000,101.0000000,XLM,,,,testnet`,
    );
  });
});
