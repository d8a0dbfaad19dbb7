import type { Keypair } from "@stellar/stellar-sdk";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSep7PayUri } from "@/lib/stellar/sep7";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, TEST_CRON_SECRET } from "./helpers/app";
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

// Partial, over-, late, wrong-asset and self payments (docs/decisions.md, Payment checks):
// every operation that reaches the freelancer with the invoice's memo is recorded once,
// applied or not; the invoice is PAID once the applied amounts reach the total (tolerance
// allowed). Real PostgreSQL, the local ledger and real signed transactions.

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

async function freelancer(usdc = false): Promise<Freelancer> {
  const kp = await funded(testnet);
  if (usdc) await trust(testnet, kp, testnet.usdc);
  const { token } = await signIn(app.url, kp);
  return { kp, api: client(app.url, token), token };
}

/** A sent invoice of `total` (one line item) in `currency`. */
async function sentInvoice(f: Freelancer, total = "25", over: Record<string, unknown> = {}) {
  const created = await f.api.post(
    "/api/invoices",
    invoiceBody({ lineItems: [{ description: "Work", quantity: "1", rate: total }], ...over }),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const sent = await f.api.post(`/api/invoices/${created.body.id}/send`);
  expect(sent.status).toBe(200);
  return created.body as { id: string; invoiceNumber: string; total: string };
}

const tick = () =>
  fetch(`${app.url}/api/cron/watcher`, {
    headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
  }).then((r) => r.json());

const confirm = (invoiceId: string, transactionHash: string) =>
  anon.post("/api/payments/confirm", { invoiceId, transactionHash });

const statusOf = async (id: string) => (await anon.get(`/api/payments/${id}/status`)).body;

/** Pays `amount` of `asset` to the freelancer with the invoice's memo; the hash. */
async function payInvoice(
  payer: Keypair,
  f: Freelancer,
  inv: { invoiceNumber: string },
  amount: string,
  asset: Asset = Asset.native(),
) {
  return send(
    testnet,
    await pay(testnet, payer, f.kp.publicKey(), asset, amount, Memo.text(inv.invoiceNumber)),
  );
}

/** What a user (or the owner's database) would check: rows, audit entries and events. */
async function records(id: string) {
  const [row] = await sql`select
    (select count(*) from payments where invoice_id = ${id})::int as payments,
    (select count(*) from payments where invoice_id = ${id} and applied)::int as applied,
    (select count(*) from invoice_audit_logs where invoice_id = ${id} and action = 'PAID')::int as paid_audits,
    (select count(*) from invoice_audit_logs where invoice_id = ${id} and action = 'PAYMENT_RECEIVED')::int as received_audits,
    (select count(*) from events where invoice_id = ${id} and type = 'invoice.paid')::int as paid_events,
    (select count(*) from events where invoice_id = ${id} and type = 'payment.confirmed')::int as confirmed_events,
    (select count(*) from events where invoice_id = ${id} and type = 'payment.unapplied')::int as unapplied_events`;
  return row;
}

const rowsOf = (id: string) =>
  sql`select transaction_hash, operation_index, amount::text, asset, asset_issuer, applied, unapplied_reason, from_wallet
      from payments where invoice_id = ${id} order by ledger_number, operation_index`;

describe("partial payments", () => {
  let payer: Keypair;
  beforeAll(async () => {
    payer = await funded(testnet);
  });

  it("two partials through confirm: the first answers the underpayment and is recorded, the second completes", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f);
    const first = await payInvoice(payer, f, inv, "10");
    const partial = await confirm(inv.id, first);
    expect(partial.status).toBe(400);
    expect(partial.body).toMatchObject({
      error: "Underpayment: paid 10, expected 25",
      details: { amountPaid: "10.0000000", amountDue: "15.0000000" },
    });
    expect(await statusOf(inv.id)).toMatchObject({
      status: "PENDING",
      amountPaid: "10.0000000",
      amountDue: "15.0000000",
    });
    // Asking again answers the same and records nothing more.
    expect((await confirm(inv.id, first)).body.error).toBe("Underpayment: paid 10, expected 25");

    const second = await payInvoice(payer, f, inv, "15");
    const done = await confirm(inv.id, second);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: "confirmed", transactionHash: second });
    expect(await statusOf(inv.id)).toMatchObject({
      status: "PAID",
      amountPaid: "25.0000000",
      amountDue: "0.0000000",
      transactionHash: second,
      payerWallet: payer.publicKey(),
    });
    expect((await confirm(inv.id, first)).body).toMatchObject({ status: "already_paid" });
    await tick();
    expect(await records(inv.id)).toEqual({
      payments: 2,
      applied: 2,
      paid_audits: 1,
      received_audits: 1,
      paid_events: 1,
      confirmed_events: 2,
      unapplied_events: 0,
    });
    const event =
      await sql`select data from events where invoice_id = ${inv.id} and type = 'payment.confirmed' order by created_at`;
    expect(event.map((e) => [e.data.applied, e.data.amountPaid, e.data.amountDue])).toEqual([
      [true, "10.0000000", "15.0000000"],
      [true, "25.0000000", "0.0000000"],
    ]);
  });

  it("the PDF of an invoice paid in two parts says PAID, lists both payments and drops the pay link", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f);
    const pdfText = async () => {
      const res = await fetch(`${app.url}/api/invoices/${inv.id}/pdf`, {
        headers: { authorization: `Bearer ${f.token}` },
      });
      expect(res.status).toBe(200);
      const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
      const doc = await getDocument({ data: new Uint8Array(await res.arrayBuffer()), verbosity: 0 })
        .promise;
      let text = "";
      for (let n = 1; n <= doc.numPages; n++) {
        const content = await (await doc.getPage(n)).getTextContent();
        for (const item of content.items) if ("str" in item) text += `${item.str}\n`;
      }
      await doc.destroy();
      return text;
    };
    const payLink = `${app.url}/pay/${inv.id}`;

    const first = await payInvoice(payer, f, inv, "10");
    expect((await confirm(inv.id, first)).status).toBe(400);
    const partly = await pdfText();
    expect(partly).toContain("Pay online");
    expect(partly).toContain(payLink);
    expect(partly).toContain("10.00 XLM");
    expect(partly).toContain(first);
    expect(partly).not.toMatch(/^PAID$/m);

    // The second payment is drawn: the cached first PDF is not served again.
    const second = await payInvoice(payer, f, inv, "15");
    expect((await confirm(inv.id, second)).status).toBe(200);
    const paid = await pdfText();
    expect(paid).toMatch(/^PAID$/m);
    expect(paid).toContain("Payments received");
    expect(paid).toContain("10.00 XLM");
    expect(paid).toContain("15.00 XLM");
    expect(paid).toContain(first);
    expect(paid).toContain(second);
    expect(paid).not.toContain("Pay online");
    expect(paid).not.toContain(payLink);
    expect(paid).not.toMatch(/\bPay\b/);
  });

  it("two partials through the watcher", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f);
    await tick(); // the watcher follows the network from here
    await payInvoice(payer, f, inv, "10");
    await tick();
    expect(await statusOf(inv.id)).toMatchObject({ status: "PENDING", amountPaid: "10.0000000" });
    await payInvoice(payer, f, inv, "15");
    await tick();
    expect(await statusOf(inv.id)).toMatchObject({
      status: "PAID",
      amountPaid: "25.0000000",
      amountDue: "0.0000000",
    });
    await tick();
    expect(await records(inv.id)).toMatchObject({
      payments: 2,
      applied: 2,
      paid_audits: 1,
      received_audits: 1,
      paid_events: 1,
      confirmed_events: 2,
    });
  });

  it("after a partial, pay-intent and SEP-7 ask for the amount due, and submit completes it", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f);
    await confirm(inv.id, await payInvoice(payer, f, inv, "10.5"));
    const intent = await anon.post(`/api/payments/${inv.id}/pay-intent`, {
      senderPublicKey: payer.publicKey(),
      networkPassphrase: TESTNET,
    });
    expect(intent.status).toBe(200);
    expect(intent.body).toMatchObject({ amount: "14.5", status: "PROCESSING" });
    expect(parseSep7PayUri(intent.body.sep7Uri).amount).toBe("14.5");

    // Less than the amount due is refused before anything is sent.
    const short = await pay(
      testnet,
      payer,
      f.kp.publicKey(),
      Asset.native(),
      "14.4999999",
      Memo.text(inv.invoiceNumber),
    );
    const refused = await anon.post("/api/payments/submit", {
      invoiceId: inv.id,
      signedTransactionXdr: short.toXDR(),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("Underpayment: paid 14.4999999, expected 14.5");
    const unknown = await fetch(
      `${testnet.ledger.url}/transactions/${short.hash().toString("hex")}`,
    );
    expect(unknown.status).toBe(404);

    const tx = TransactionBuilder.fromXDR(intent.body.transactionXdr, TESTNET);
    tx.sign(payer);
    const submitted = await anon.post("/api/payments/submit", {
      invoiceId: inv.id,
      signedTransactionXdr: tx.toXDR(),
    });
    expect(submitted.status).toBe(200);
    expect(await statusOf(inv.id)).toMatchObject({ status: "PAID", amountPaid: "25.0000000" });
    expect(await records(inv.id)).toMatchObject({ payments: 2, paid_events: 1 });
  });

  it("three operations in one transaction each count, recorded together in operation order", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f);
    const other = await funded(testnet);
    const dest = f.kp.publicKey();
    const tx = await build(
      testnet,
      payer,
      [
        Operation.payment({ destination: dest, asset: Asset.native(), amount: "5" }),
        Operation.payment({ destination: other.publicKey(), asset: Asset.native(), amount: "100" }),
        Operation.payment({ destination: dest, asset: Asset.native(), amount: "8" }),
        Operation.payment({ destination: dest, asset: Asset.native(), amount: "12" }),
      ],
      { memo: Memo.text(inv.invoiceNumber) },
    );
    const hash = await send(testnet, tx);
    const res = await confirm(inv.id, hash);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "confirmed", transactionHash: hash });
    const rows = await rowsOf(inv.id);
    expect(rows.map((r) => [r.operation_index, r.amount, r.applied])).toEqual([
      [0, "5.0000000", true],
      [2, "8.0000000", true],
      [3, "12.0000000", true],
    ]);
    await tick();
    expect(await records(inv.id)).toMatchObject({
      payments: 3,
      paid_audits: 1,
      received_audits: 0,
      paid_events: 1,
      confirmed_events: 3,
    });
    expect(await statusOf(inv.id)).toMatchObject({ status: "PAID", amountPaid: "25.0000000" });
  });

  it("the watcher records a transaction whole when it straddles two pages of 200", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f);
    const noise = await funded(testnet);
    await tick(); // the cursor is now past every funding above
    const ops = (n: number) =>
      Array.from({ length: n }, () =>
        Operation.payment({ destination: noise.publicKey(), asset: Asset.native(), amount: "1" }),
      );
    await send(testnet, await build(testnet, payer, ops(100)));
    await send(testnet, await build(testnet, payer, ops(98)));
    // Records 199 to 202 of the stream: the first page of 200 ends in the middle of it.
    const quarter = () =>
      Operation.payment({ destination: f.kp.publicKey(), asset: Asset.native(), amount: "6.25" });
    const hash = await send(
      testnet,
      await build(testnet, payer, [quarter(), quarter(), quarter(), quarter()], {
        memo: Memo.text(inv.invoiceNumber),
      }),
    );
    // The premise: the watcher's first page from its cursor holds only part of it (Horizon's
    // page of 200; Stellar RPC reads every transaction whole).
    if ((process.env.LEDGER_SOURCE ?? "horizon") === "horizon") {
      const [{ cursor }] = await sql`select cursor from watcher_cursors where network = 'testnet'`;
      const page = await fetch(
        `${testnet.ledger.url}/payments?cursor=${cursor}&order=asc&limit=200&join=transactions`,
      ).then((r) => r.json());
      const records = page._embedded.records;
      expect(records).toHaveLength(200);
      expect(records.filter((r: any) => r.transaction_hash === hash)).toHaveLength(2);
    }
    await tick();
    const rows = await rowsOf(inv.id);
    expect(rows.map((r) => [r.transaction_hash, r.operation_index])).toEqual([
      [hash, 0],
      [hash, 1],
      [hash, 2],
      [hash, 3],
    ]);
    expect(await statusOf(inv.id)).toMatchObject({ status: "PAID", amountPaid: "25.0000000" });
  });

  it("30 racing confirms of a partial payment record one row", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f);
    const hash = await payInvoice(payer, f, inv, "10");
    const answers = await Promise.all(Array.from({ length: 30 }, () => confirm(inv.id, hash)));
    for (const a of answers) {
      expect(a.status).toBe(400);
      expect(a.body.error).toBe("Underpayment: paid 10, expected 25");
    }
    expect(await records(inv.id)).toMatchObject({
      payments: 1,
      applied: 1,
      received_audits: 1,
      confirmed_events: 1,
      paid_events: 0,
    });
    expect(await statusOf(inv.id)).toMatchObject({ status: "PENDING", amountPaid: "10.0000000" });
  });
});

describe("tolerance", () => {
  let payer: Keypair;
  beforeAll(async () => {
    payer = await funded(testnet);
  });

  it("is validated on create and update: 0 to 5, two decimals", async () => {
    const f = await freelancer();
    for (const bad of ["5.01", "1.234", "-1"]) {
      const res = await f.api.post("/api/invoices", invoiceBody({ paymentTolerance: bad }));
      expect(res.status, bad).toBe(400);
      expect(res.body.details).toHaveProperty("paymentTolerance");
    }
    const created = await f.api.post("/api/invoices", invoiceBody({ paymentTolerance: "2.5" }));
    expect(created.status).toBe(201);
    const patched = await f.api.patch(`/api/invoices/${created.body.id}`, {
      paymentTolerance: 6,
    });
    expect(patched.status).toBe(400);
    expect(patched.body.details).toHaveProperty("paymentTolerance");
    expect(
      (await f.api.patch(`/api/invoices/${created.body.id}`, { paymentTolerance: "1" })).status,
    ).toBe(200);
    const [row] =
      await sql`select payment_tolerance::text as t from invoices where id = ${created.body.id}`;
    expect(row.t).toBe("1.00");
  });

  it("one stroop either side of total x (1 - tolerance/100)", async () => {
    const f = await freelancer();
    // 100 x (1 - 1.5/100) = 98.5
    const below = await sentInvoice(f, "100", { paymentTolerance: "1.5" });
    const at = await sentInvoice(f, "100", { paymentTolerance: "1.5" });
    const above = await sentInvoice(f, "100", { paymentTolerance: "1.5" });
    const short = await confirm(below.id, await payInvoice(payer, f, below, "98.4999999"));
    expect(short.status).toBe(400);
    expect(short.body.error).toBe("Underpayment: paid 98.4999999, expected 100");
    expect((await statusOf(below.id)).status).toBe("PENDING");

    const exact = await confirm(at.id, await payInvoice(payer, f, at, "98.5"));
    expect(exact.body).toMatchObject({ status: "confirmed" });
    expect(await statusOf(at.id)).toMatchObject({
      status: "PAID",
      amountPaid: "98.5000000",
      amountDue: "1.5000000",
    });
    const over = await confirm(above.id, await payInvoice(payer, f, above, "98.5000001"));
    expect(over.body).toMatchObject({ status: "confirmed" });
  });
});

describe("overpayment", () => {
  let payer: Keypair;
  beforeAll(async () => {
    payer = await funded(testnet);
  });

  it("in one transaction is applied and shows as overpaid", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f);
    const res = await confirm(inv.id, await payInvoice(payer, f, inv, "30"));
    expect(res.body).toMatchObject({ status: "confirmed" });
    const owner = await f.api.get(`/api/invoices/${inv.id}/owner`);
    expect(owner.body).toMatchObject({
      status: "PAID",
      amountPaid: "30.0000000",
      amountDue: "0.0000000",
      amountOverpaid: "5.0000000",
    });
    expect(await records(inv.id)).toMatchObject({ payments: 1, applied: 1, paid_events: 1 });
  });

  it("in a second transaction after PAID is recorded unapplied already_paid", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f);
    await tick();
    await confirm(inv.id, await payInvoice(payer, f, inv, "25"));
    const late = await payInvoice(payer, f, inv, "7");
    const res = await confirm(inv.id, late);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "already_paid" });
    await tick();
    const rows = await rowsOf(inv.id);
    expect(rows.map((r) => [r.amount, r.applied, r.unapplied_reason])).toEqual([
      ["25.0000000", true, null],
      ["7.0000000", false, "already_paid"],
    ]);
    expect(await statusOf(inv.id)).toMatchObject({ status: "PAID", amountPaid: "25.0000000" });
    expect(await records(inv.id)).toMatchObject({
      payments: 2,
      applied: 1,
      paid_audits: 1,
      received_audits: 1,
      paid_events: 1,
      confirmed_events: 1,
      unapplied_events: 1,
    });
    const [audit] =
      await sql`select changes from invoice_audit_logs where invoice_id = ${inv.id} and action = 'PAYMENT_RECEIVED'`;
    expect(audit.changes).toMatchObject({ reason: "already_paid", transactionHash: late });
  });
});

describe("payments that cannot apply", () => {
  let payer: Keypair;
  beforeAll(async () => {
    payer = await holder(testnet, testnet.usdc, "1000");
  });

  it("after cancel: recorded as invoice_cancelled, never applied (confirm and watcher)", async () => {
    const f = await freelancer();
    await sentInvoice(f); // something payable keeps the watcher reading
    await tick();
    const inv = await sentInvoice(f);
    expect((await f.api.post(`/api/invoices/${inv.id}/cancel`, {})).status).toBe(200);
    const viaConfirm = await payInvoice(payer, f, inv, "25");
    const res = await confirm(inv.id, viaConfirm);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Invoice cannot be paid. Current status: CANCELLED");
    await payInvoice(payer, f, inv, "3");
    await tick();
    const rows = await rowsOf(inv.id);
    expect(rows.map((r) => [r.amount, r.applied, r.unapplied_reason])).toEqual([
      ["25.0000000", false, "invoice_cancelled"],
      ["3.0000000", false, "invoice_cancelled"],
    ]);
    expect(await records(inv.id)).toMatchObject({
      applied: 0,
      paid_audits: 0,
      received_audits: 2,
      confirmed_events: 0,
      unapplied_events: 2,
    });
    const [row] =
      await sql`select status, amount_paid::text as paid from invoices where id = ${inv.id}`;
    expect(row).toEqual({ status: "CANCELLED", paid: "0.0000000" });
  });

  it("to a draft or a deleted invoice: recorded as invoice_not_sent by the watcher", async () => {
    const f = await freelancer();
    await sentInvoice(f);
    await tick();
    const draft = await f.api.post("/api/invoices", invoiceBody());
    const deleted = await f.api.post("/api/invoices", invoiceBody());
    expect((await f.api.delete(`/api/invoices/${deleted.body.id}`)).status).toBeLessThan(300);
    await payInvoice(payer, f, draft.body, "5");
    await payInvoice(payer, f, deleted.body, "6");
    await tick();
    for (const id of [draft.body.id, deleted.body.id]) {
      const rows = await rowsOf(id);
      expect(rows.map((r) => [r.applied, r.unapplied_reason])).toEqual([
        [false, "invoice_not_sent"],
      ]);
    }
  });

  it("wrong asset and a look-alike USDC: recorded wrong_asset with the issuer, never applied", async () => {
    const f = await freelancer(true);
    const inv = await sentInvoice(f, "25", { currency: "USDC" });
    await tick();
    const xlm = await payInvoice(payer, f, inv, "25");
    const wrong = await confirm(inv.id, xlm);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe("Transaction does not match invoice");

    const fakeIssuer = await funded(testnet);
    const fakeUsdc = new Asset("USDC", fakeIssuer.publicKey());
    await trust(testnet, f.kp, fakeUsdc);
    const fake = await send(
      testnet,
      await pay(
        testnet,
        fakeIssuer,
        f.kp.publicKey(),
        fakeUsdc,
        "25",
        Memo.text(inv.invoiceNumber),
      ),
    );
    await tick();
    expect((await confirm(inv.id, fake)).body.error).toBe("Transaction does not match invoice");
    const rows = await rowsOf(inv.id);
    expect(rows.map((r) => [r.asset, r.asset_issuer, r.applied, r.unapplied_reason])).toEqual([
      ["XLM", null, false, "wrong_asset"],
      ["USDC", fakeIssuer.publicKey(), false, "wrong_asset"],
    ]);
    expect(await statusOf(inv.id)).toMatchObject({ status: "PENDING", amountPaid: "0.0000000" });
    expect(await records(inv.id)).toMatchObject({
      payments: 2,
      applied: 0,
      confirmed_events: 0,
      unapplied_events: 2,
    });
    const event =
      await sql`select data from events where invoice_id = ${inv.id} and type = 'payment.unapplied' order by created_at`;
    expect(event[1].data).toMatchObject({
      reason: "wrong_asset",
      asset: "USDC",
      assetIssuer: fakeIssuer.publicKey(),
      applied: false,
    });
    // The real USDC still pays it in full.
    const real = await confirm(inv.id, await payInvoice(payer, f, inv, "25", testnet.usdc));
    expect(real.body).toMatchObject({ status: "confirmed" });
  });
});

describe("self-payment never counts", () => {
  it("pay-intent, submit and confirm answer Cannot pay your own invoice; the watcher records nothing", async () => {
    const f = await freelancer();
    await sentInvoice(f);
    await tick();
    const inv = await sentInvoice(f);
    const intent = await anon.post(`/api/payments/${inv.id}/pay-intent`, {
      senderPublicKey: f.kp.publicKey(),
      networkPassphrase: TESTNET,
    });
    expect(intent.status).toBe(400);
    expect(intent.body.error).toBe("Cannot pay your own invoice");

    const own = await pay(
      testnet,
      f.kp,
      f.kp.publicKey(),
      Asset.native(),
      "25",
      Memo.text(inv.invoiceNumber),
    );
    const submitted = await anon.post("/api/payments/submit", {
      invoiceId: inv.id,
      signedTransactionXdr: own.toXDR(),
    });
    expect(submitted.status).toBe(400);
    expect(submitted.body.error).toBe("Cannot pay your own invoice");
    const hash = own.hash().toString("hex");
    expect((await fetch(`${testnet.ledger.url}/transactions/${hash}`)).status).toBe(404);

    // Sent by other means: confirm refuses it and the watcher leaves it out.
    await send(testnet, own);
    const onChain = await fetch(`${testnet.ledger.url}/transactions/${hash}`).then((r) => r.json());
    expect(onChain.successful).toBe(true);
    const confirmed = await confirm(inv.id, hash);
    expect(confirmed.status).toBe(400);
    expect(confirmed.body.error).toBe("Cannot pay your own invoice");
    await tick();
    expect(await records(inv.id)).toMatchObject({
      payments: 0,
      received_audits: 0,
      paid_audits: 0,
      confirmed_events: 0,
    });
    expect(await statusOf(inv.id)).toMatchObject({ status: "PENDING", amountPaid: "0.0000000" });
  });
});
