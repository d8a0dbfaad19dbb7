import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, TEST_CRON_SECRET } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import { type CaughtMail, startTestSmtp, type TestSmtp } from "./helpers/smtp";
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

// What the client's emails say moved on the ledger (docs/decisions.md, Reminders and
// receipts): the receipt names the asset amount sent (and a fiat-priced invoice's value), a
// refund emails the client its amount, asset and hash. The built server, the local ledger,
// real signed transactions, the outbox delivered through /api/cron/emails to a real SMTP server.

let testnet: Chain;
let mainnet: Chain;
let app: RunningApp;
let db: LedgerApp["db"];
let sql: postgres.Sql;
let anon: Api;
let prices: LedgerApp["prices"];
let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startTestSmtp();
  ({ testnet, mainnet, app, db, sql, anon, prices } = await startLedgerApp({
    SMTP_URL: smtp.url,
  }));
});

afterAll(async () => {
  await stopLedgerApp({ sql, app, testnet, mainnet, db, prices });
  await smtp?.close();
});

type Freelancer = { kp: Keypair; api: Api };

async function freelancer(usdc = false): Promise<Freelancer> {
  const kp = await funded(testnet);
  if (usdc) await trust(testnet, kp, testnet.usdc);
  const { token } = await signIn(app.url, kp);
  return { kp, api: client(app.url, token) };
}

async function sentInvoice(f: Freelancer, over: Record<string, unknown>) {
  const created = await f.api.post("/api/invoices", invoiceBody(over));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await f.api.post(`/api/invoices/${created.body.id}/send`)).status).toBe(200);
  return created.body as { id: string; invoiceNumber: string };
}

const confirm = (invoiceId: string, transactionHash: string) =>
  anon.post("/api/payments/confirm", { invoiceId, transactionHash });

/** Runs the email cron until a message to `to` whose subject starts with `subject` arrived. */
async function mailTo(to: string, subject: string): Promise<CaughtMail> {
  for (let i = 0; i < 50; i++) {
    await fetch(`${app.url}/api/cron/emails`, {
      headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
    });
    const mail = smtp.to(to).find((m) => m.parsed.subject?.startsWith(subject));
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No email "${subject}..." to ${to}`);
}

describe("the client's emails say what moved on the ledger", () => {
  it("the receipt of a EUR invoice paid in XLM names the XLM sent and its value", async () => {
    const f = await freelancer();
    const inv = await sentInvoice(f, {
      priceCurrency: "EUR",
      currency: "XLM",
      clientEmail: "receipt@example.com",
      freelancerEmail: "me@freelancer.example",
      lineItems: [{ description: "Work", quantity: "1", rate: "100" }],
    });
    const payer = await funded(testnet);
    const quoted = await anon.post(`/api/payments/${inv.id}/pay-intent`, {
      senderPublicKey: payer.publicKey(),
      networkPassphrase: TESTNET,
    });
    expect(quoted.status, JSON.stringify(quoted.body)).toBe(200);
    const sent = quoted.body.quote.assetAmount as string;
    expect(sent).toBe("864.3042351");
    const hash = await send(
      testnet,
      await pay(
        testnet,
        payer,
        f.kp.publicKey(),
        Asset.native(),
        sent,
        Memo.text(inv.invoiceNumber),
      ),
    );
    expect((await confirm(inv.id, hash)).status).toBe(200);

    const receipt = await mailTo("receipt@example.com", "Receipt for invoice");
    const text = receipt.parsed.text ?? "";
    expect(text).toContain("864.3042351 XLM");
    expect(text).toContain("100.00 EUR");
    expect(text).toContain(hash);
    // The freelancer's notice says the same.
    const notice = await mailTo("me@freelancer.example", `Invoice ${inv.invoiceNumber}`);
    expect(notice.parsed.text).toContain("864.3042351 XLM");
  });

  it("a refund emails the client the amount, asset, destination and hash, once", async () => {
    const f = await freelancer(true);
    const inv = await sentInvoice(f, {
      currency: "USDC",
      clientEmail: "refund@example.com",
      lineItems: [{ description: "Work", quantity: "1", rate: "25" }],
    });
    const payer = await holder(testnet, testnet.usdc, "100");
    const paid = await send(
      testnet,
      await pay(testnet, payer, f.kp.publicKey(), testnet.usdc, "30", Memo.text(inv.invoiceNumber)),
    );
    expect((await confirm(inv.id, paid)).status).toBe(200);
    const [payment] = await sql`select id from payments where invoice_id = ${inv.id}`;

    const built = await f.api.post(`/api/invoices/${inv.id}/payments/${payment.id}/refund`);
    expect(built.status, JSON.stringify(built.body)).toBe(201);
    const unsigned = TransactionBuilder.fromXDR(built.body.transactionXdr, TESTNET);
    unsigned.sign(f.kp);
    const submitted = await f.api.post("/api/refunds/submit", {
      refundId: built.body.refundId,
      signedTransactionXdr: unsigned.toXDR(),
    });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    const refundHash = submitted.body.transactionHash as string;

    const mail = await mailTo("refund@example.com", "Refund");
    expect(mail.parsed.subject).toBe(`Refund of 5.00 USDC for invoice ${inv.invoiceNumber}`);
    const text = mail.parsed.text ?? "";
    expect(text).toContain("5.00 USDC");
    expect(text).toContain(refundHash);
    expect(text).toContain(payer.publicKey());
    expect(text).toContain(paid);

    // Submitting again records nothing more, and emails nothing more.
    await f.api.post("/api/refunds/submit", {
      refundId: built.body.refundId,
      signedTransactionXdr: unsigned.toXDR(),
    });
    const [{ count }] =
      await sql`select count(*)::int as count from email_messages where kind = 'refund' and invoice_id = ${inv.id}`;
    expect(count).toBe(1);
  });
});

describe("the freelancer's notifications are not the client's letter (issue 28, item 23)", () => {
  it("the payment notice has no profile footer and no Stop reminders link; the client's invoice email has both", async () => {
    const f = await freelancer();
    const profile = await f.api.put("/api/profile", {
      displayName: "Studio Sam",
      email: "sam@studio.example",
      emailFooter: "Thank you for your business.",
    });
    expect(profile.status, JSON.stringify(profile.body)).toBe(200);
    const inv = await sentInvoice(f, {
      currency: "XLM",
      clientEmail: "letters@example.com",
      freelancerEmail: "sam@studio.example",
      lineItems: [{ description: "Work", quantity: "1", rate: "40" }],
    });
    // The client's invoice email: the freelancer's letterhead, footer and reminders link.
    const invoiceMail = await mailTo("letters@example.com", `Invoice ${inv.invoiceNumber}`);
    for (const part of [invoiceMail.parsed.text ?? "", invoiceMail.parsed.html || ""]) {
      expect(part).toContain("Thank you for your business.");
      expect(part).toContain("Stop reminders for this invoice");
    }
    expect(invoiceMail.raw).toMatch(/^List-Unsubscribe:/m);

    const payer = await funded(testnet);
    const hash = await send(
      testnet,
      await pay(
        testnet,
        payer,
        f.kp.publicKey(),
        Asset.native(),
        "40",
        Memo.text(inv.invoiceNumber),
      ),
    );
    expect((await confirm(inv.id, hash)).status).toBe(200);

    // The freelancer's notice: what they were paid, none of the client's phrases or links.
    const notice = await mailTo("sam@studio.example", `Invoice ${inv.invoiceNumber}`);
    const text = notice.parsed.text ?? "";
    const html = notice.parsed.html || "";
    expect(text).toContain("40.00 XLM");
    expect(text).toContain(`/invoices/${inv.id}`);
    for (const part of [text, html]) {
      expect(part).not.toContain("Thank you for your business");
      expect(part).not.toMatch(/stop reminders/i);
      expect(part).not.toContain("/unsubscribe");
    }
    expect(notice.raw).not.toMatch(/^List-Unsubscribe/im);
    expect(notice.parsed.replyTo).toBeUndefined();
    // The client's receipt is still the client's letter.
    const receipt = await mailTo("letters@example.com", "Receipt for invoice");
    expect(receipt.parsed.text).toContain("Thank you for your business.");
  });
});
