import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import { createTestDatabase } from "./helpers/postgres";
import {
  Asset,
  chainEnv,
  funded,
  type Keypair,
  Memo,
  pay as payment,
  send,
  TESTNET,
  TransactionBuilder,
} from "./helpers/stellar";

// Reusable and open-amount payment links (docs/decisions.md, Payment links): each payer's
// checkout is a child link paid with a real signed transaction on the local ledger.

let s: LedgerApp;

beforeAll(async () => {
  // The holds per IP have their own test (below): every payer here is on 127.0.0.1.
  s = await startLedgerApp({
    RATE_LIMIT_LINK_HOLDS_PER_30_MINUTES: "100000",
    RATE_LIMIT_LINK_HOLDS_PER_LINK_PER_30_MINUTES: "100000",
  });
});

afterAll(async () => {
  await stopLedgerApp(s);
});

async function seller(): Promise<{ kp: Keypair; api: Api }> {
  // Funded: the recipient must exist on the ledger to be paid.
  const kp = await funded(s.testnet);
  return { kp, api: client(s.app.url, (await signIn(s.app.url, kp)).token) };
}

async function createLink(api: Api, body: Record<string, unknown>) {
  const res = await api.post("/api/links", { asset: "XLM", networkPassphrase: TESTNET, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const checkout = (linkId: string, body: Record<string, unknown> = {}) =>
  s.anon.post(`/api/links/${linkId}/checkout`, body);

/** A payer's commitment: pay-intent with a sender; the unsigned transaction, or the answer. */
const intend = (linkId: string, payer: Keypair) =>
  s.anon.post(`/api/payments/${linkId}/pay-intent`, {
    networkPassphrase: TESTNET,
    senderPublicKey: payer.publicKey(),
  });

/** Sends `amount` XLM to the seller with `memo` straight on the ledger (no pay-intent). */
async function sendWithMemo(payer: Keypair, to: string, amount: string, memo: string) {
  return send(
    s.testnet,
    await payment(s.testnet, payer, to, Asset.native(), amount, Memo.text(memo)),
  );
}

const confirm = (invoiceId: string, transactionHash: string) =>
  s.anon.post("/api/payments/confirm", { invoiceId, transactionHash });

const numberOf = async (id: string) =>
  (await s.sql`select invoice_number from invoices where id = ${id}`)[0].invoice_number as string;

/** Pays a (child) link as a wallet would: pay-intent, sign, submit. */
async function pay(linkId: string, payer: Keypair) {
  const intent = await s.anon.post(`/api/payments/${linkId}/pay-intent`, {
    networkPassphrase: TESTNET,
    senderPublicKey: payer.publicKey(),
  });
  expect(intent.status, JSON.stringify(intent.body)).toBe(200);
  const tx = TransactionBuilder.fromXDR(intent.body.transactionXdr, TESTNET);
  tx.sign(payer);
  const res = await s.anon.post("/api/payments/submit", {
    invoiceId: linkId,
    signedTransactionXdr: tx.toXDR(),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.transactionHash as string;
}

describe("creating reusable and open-amount links", () => {
  it("answers what the link accepts: amount or open, minimum, payments", async () => {
    const { api } = await seller();
    const open = await createLink(api, { openAmount: true, minAmount: "2.5" });
    expect(open).toMatchObject({
      amount: null,
      minAmount: "2.5000000",
      reusable: false,
      maxPayments: 1,
      paymentsCount: 0,
      amountReceived: "0.0000000",
      memo: null,
      parentLinkId: null,
      status: "ACTIVE",
    });
    const limited = await createLink(api, { amount: "5", maxPayments: 3 });
    expect(limited).toMatchObject({ amount: "5.0000000", reusable: true, maxPayments: 3 });
    const unlimited = await createLink(api, { amount: "5", reusable: true });
    expect(unlimited).toMatchObject({ reusable: true, maxPayments: null, minAmount: null });
    // A single-use fixed-amount link is as before: its own memo, one payment.
    const single = await createLink(api, { amount: "5" });
    expect(single).toMatchObject({ reusable: false, maxPayments: 1, amount: "5.0000000" });
    expect(single.memo).toMatch(/^INV-\d{4}$/);
    // Form A: amounts are numbers, an open amount is null.
    const formA = await api.get(`/api/links/${open.id}?envelope=true`);
    expect(formA.body.data).toMatchObject({ amount: null, minAmount: 2.5, amountReceived: 0 });
  });

  it("refuses inconsistent bodies with 400 and writes nothing", async () => {
    const { api } = await seller();
    const bad: [Record<string, unknown>, string][] = [
      [{ amount: "5", minAmount: "1" }, "minAmount"],
      [{ amount: "5", reusable: false, maxPayments: 2 }, "maxPayments"],
      [{ amount: "5", maxPayments: 0 }, "maxPayments"],
      [{ amount: "5", maxPayments: 2.5 }, "maxPayments"],
      [{ amount: "5", maxPayments: 10_001 }, "maxPayments"],
      [{ amount: "5", maxPayments: "3" }, "maxPayments"],
      [{ minAmount: "0" }, "minAmount"],
      [{ openAmount: true, amount: "5" }, "amount"],
      [{ openAmount: false, amount: "5", minAmount: "1" }, "minAmount"],
      [{ openAmount: false, minAmount: "1" }, "minAmount"],
      [{}, "amount"],
      [{ minAmount: "1.005", priceCurrency: "USD" }, "minAmount"],
      [{ reusable: "yes" }, "reusable"],
    ];
    for (const [body, field] of bad) {
      const res = await api.post("/api/links", { asset: "XLM", ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.body.details ?? {}), JSON.stringify(res.body)).toContain(field);
    }
    expect((await api.get("/api/links")).body.links).toHaveLength(0);
  });

  it("a reusable or open-amount link is paid through checkouts, a single-use one directly", async () => {
    const { api } = await seller();
    const open = await createLink(api, { openAmount: true });
    const intent = await s.anon.post(`/api/payments/${open.id}/pay-intent`, {
      networkPassphrase: TESTNET,
    });
    expect(intent.status).toBe(400);
    expect(intent.body.error).toBe(
      "This link is paid through a checkout: POST /api/links/{id}/checkout first",
    );
    const single = await createLink(api, { amount: "5" });
    const res = await checkout(single.id);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("This link is paid directly: open its checkout page");
    expect((await checkout("unknownunknownunknown")).status).toBe(404);
    // A cancelled or expired link takes no checkout.
    const gone = await createLink(api, { amount: "5", reusable: true });
    await s.sql`update invoices set status = 'CANCELLED' where id = ${gone.id}`;
    expect((await checkout(gone.id)).body.error).toBe("Link not found");
    await s.sql`update invoices set status = 'PENDING', link_expires_at = now() - interval '1 second'
      where id = ${gone.id}`;
    expect((await checkout(gone.id)).status).toBe(404);
  });
});

describe("the payer's checkout", () => {
  it("open amount: required, at least the minimum, at the asset's precision; clear 400s", async () => {
    const { api } = await seller();
    const link = await createLink(api, { reusable: true, minAmount: "2" });
    const cases: [Record<string, unknown>, string][] = [
      [{}, "amount is required: this link lets the payer choose it"],
      [{ amount: "1.9999999" }, "must be at least 2"],
      [{ amount: "2.12345678" }, "must have at most 7 decimal places"],
      [{ amount: "abc" }, ""],
      [{ amount: "-3" }, ""],
      [{ amount: "0" }, ""],
      [{ amount: "3", tip: "1" }, ""],
    ];
    for (const [body, message] of cases) {
      const res = await checkout(link.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      if (message) expect(JSON.stringify(res.body.details)).toContain(message);
    }
    const ok = await checkout(link.id, { amount: "2" });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({
      amount: "2.0000000",
      parentLinkId: link.id,
      reusable: false,
      maxPayments: 1,
      checkoutUrl: `${s.app.url}/pay/${ok.body.id}`,
    });
    // Numbered in the link's own series, not the wallet's.
    expect(ok.body.memo).toBe(`${await numberOf(link.id)}-1`);
    // Half an hour to pay, never past the link's own expiry.
    expect(Date.parse(ok.body.expiresAt) - Date.parse(ok.body.createdAt)).toBe(30 * 60_000);
  });

  it("fiat-priced open amount: whole cents; fixed amount: the payer sends none", async () => {
    const { api } = await seller();
    const fiat = await createLink(api, {
      openAmount: true,
      priceCurrency: "USD",
      minAmount: "1.50",
    });
    expect((await checkout(fiat.id, { amount: "10.005" })).status).toBe(400);
    expect((await checkout(fiat.id, { amount: "1.49" })).status).toBe(400);
    const ok = await checkout(fiat.id, { amount: "10.01" });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ amount: "10.0100000", priceCurrency: "USD", asset: "XLM" });

    const fixed = await createLink(api, { amount: "7", reusable: true });
    const refused = await checkout(fixed.id, { amount: "1" });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual({ amount: "amount is set by the link" });
    const child = await checkout(fixed.id);
    expect(child.status).toBe(201);
    expect(child.body.amount).toBe("7.0000000");
  });

  it("is rate limited per IP", async () => {
    // Its own database: the limit counters are shared by every server on one database.
    const db = await createTestDatabase();
    const limited: RunningApp = await startApp({
      DATABASE_URL: db.url,
      RATE_LIMIT_PAY_INTENT_PER_5_MINUTES: "2",
      ...chainEnv(s.testnet, s.mainnet),
    });
    try {
      const kp = await funded(s.testnet);
      const api = client(limited.url, (await signIn(limited.url, kp)).token);
      const link = await createLink(api, { openAmount: true, reusable: true });
      const anon = client(limited.url);
      for (let i = 0; i < 2; i++) {
        expect((await anon.post(`/api/links/${link.id}/checkout`, { amount: "1" })).status).toBe(
          201,
        );
      }
      const over = await anon.post(`/api/links/${link.id}/checkout`, { amount: "1" });
      expect(over.status).toBe(429);
    } finally {
      await limited.stop();
      await db.drop();
    }
  });
});

describe("payments of a reusable open-amount link", () => {
  it("two payers, two amounts: two paid records, link.paid for each, the owner sees both", async () => {
    const { kp, api } = await seller();
    const link = await createLink(api, {
      openAmount: true,
      reusable: true,
      minAmount: "1",
      reference: "tips",
    });
    const [alice, bob] = await Promise.all([funded(s.testnet), funded(s.testnet)]);
    const first = await checkout(link.id, { amount: "3.25" });
    const second = await checkout(link.id, { amount: "10" });
    const unpaid = await checkout(link.id, { amount: "4" });
    expect(new Set([first.body.memo, second.body.memo, unpaid.body.memo]).size).toBe(3);
    const before = Number((await s.testnet.server.loadAccount(kp.publicKey())).balances[0].balance);
    const hashA = await pay(first.body.id, alice);
    const hashB = await pay(second.body.id, bob);
    const after = Number((await s.testnet.server.loadAccount(kp.publicKey())).balances[0].balance);
    expect((after - before).toFixed(7)).toBe("13.2500000");

    const events = await s.sql`
      select invoice_id, data from events
      where type = 'link.paid' and wallet = ${kp.publicKey()} order by created_at`;
    expect(events.map((e) => e.data)).toEqual([
      expect.objectContaining({
        id: first.body.id,
        parentLinkId: link.id,
        amount: "3.2500000",
        transactionHash: hashA,
        metadata: { reference: "tips" },
      }),
      expect.objectContaining({
        id: second.body.id,
        parentLinkId: link.id,
        amount: "10.0000000",
        transactionHash: hashB,
      }),
    ]);
    // A visit announces nothing: no link.created per checkout.
    const created = await s.sql`
      select count(*)::int as n from events where type = 'link.created' and wallet = ${kp.publicKey()}`;
    expect(created[0].n).toBe(1);

    const list = await api.get("/api/links");
    expect(list.body.links).toHaveLength(1);
    expect(list.body.links[0]).toMatchObject({
      id: link.id,
      status: "ACTIVE",
      paymentsCount: 2,
      amountReceived: "13.2500000",
    });
    const records = await api.get(`/api/links/${link.id}/payments`);
    expect(records.status).toBe(200);
    expect(records.body.linkId).toBe(link.id);
    expect(
      records.body.payments.map((p: { id: string; payerWallet: string; amountPaid: string }) => [
        p.id,
        p.payerWallet,
        p.amountPaid,
      ]),
    ).toEqual([
      [second.body.id, bob.publicKey(), "10.0000000"],
      [first.body.id, alice.publicKey(), "3.2500000"],
    ]);
    expect(records.body.payments[0]).toMatchObject({ status: "PAID", transactionHash: hashB });
    // The public view shows the count, the owner's other wallets see nothing.
    expect((await s.anon.get(`/api/links/${link.id}`)).body.paymentsCount).toBe(2);
    const other = await seller();
    expect((await other.api.get(`/api/links/${link.id}/payments`)).status).toBe(403);
    expect((await s.anon.get(`/api/links/${link.id}/payments`)).status).toBe(401);
  });
});

describe("maxPayments", () => {
  it("the last place goes to exactly one of two racing payers; then the link is PAID", async () => {
    const { api } = await seller();
    const link = await createLink(api, { amount: "2", maxPayments: 2 });
    const payer = await funded(s.testnet);
    const first = await checkout(link.id);
    expect(first.status).toBe(201);
    await pay(first.body.id, payer);

    // Checkouts hold nothing; the payers' commitments (pay-intent with a sender) race.
    const [x, y] = [await checkout(link.id), await checkout(link.id)];
    expect([x.status, y.status]).toEqual([201, 201]);
    const racing = await Promise.all([intend(x.body.id, payer), intend(y.body.id, payer)]);
    expect(racing.map((r) => r.status).sort()).toEqual([200, 409]);
    const won = racing[0].status === 200 ? x : y;
    const lost = racing.find((r) => r.status === 409)!;
    expect(lost.body.error).toBe(
      "Every remaining payment of this link is being made by other payers. Try again in a few minutes.",
    );
    expect((await checkout(link.id)).status).toBe(409);
    // A held checkout that expired unpaid gives its place back.
    await s.sql`update invoices set link_expires_at = now() - interval '1 second',
      link_held_until = now() - interval '1 second' where id = ${won.body.id}`;
    const again = await checkout(link.id);
    expect(again.status).toBe(201);
    expect((await s.anon.get(`/api/links/${won.body.id}`)).status).toBe(404);
    await pay(again.body.id, payer);

    const full = await checkout(link.id);
    expect(full.status).toBe(409);
    expect(full.body.error).toBe("This link has received all the payments it accepts");
    const view = await s.anon.get(`/api/links/${link.id}/status`);
    expect(view.body.status).toBe("PAID");
    const owner = await api.get("/api/links");
    expect(owner.body.links[0]).toMatchObject({ paymentsCount: 2, amountReceived: "4.0000000" });
    const records = await api.get(`/api/links/${link.id}/payments`);
    expect(records.body.payments).toHaveLength(2);
  });

  it("a single-use open-amount link takes one payment", async () => {
    const { api } = await seller();
    const link = await createLink(api, { openAmount: true });
    const payer = await funded(s.testnet);
    const child = await checkout(link.id, { amount: "1.5" });
    await pay(child.body.id, payer);
    expect((await checkout(link.id, { amount: "1" })).status).toBe(409);
    expect((await s.anon.get(`/api/links/${link.id}`)).body).toMatchObject({
      status: "PAID",
      paymentsCount: 1,
      amountReceived: "1.5000000",
    });
  });
});

describe("money the link cannot count", () => {
  it("a payment to a reusable or open-amount link's own memo: unapplied link_parent, listed, refundable, the link unchanged", async () => {
    const { kp, api } = await seller();
    const payer = await funded(s.testnet);
    const reusable = await createLink(api, { openAmount: true, reusable: true, minAmount: "1" });
    const single = await createLink(api, { openAmount: true, minAmount: "1" });
    for (const link of [reusable, single]) {
      // One stroop, far below the minimum, to the link's own number.
      const hash = await sendWithMemo(payer, kp.publicKey(), "0.0000001", await numberOf(link.id));
      const res = await confirm(link.id, hash);
      expect(res.status).toBe(400);

      const view = await s.anon.get(`/api/links/${link.id}`);
      expect(view.body).toMatchObject({ status: "ACTIVE", paymentsCount: 0 });
      expect(view.body.amountReceived).toBe("0.0000000");
      const rows = await s.sql`
        select id, applied, unapplied_reason, amount::text from payments where invoice_id = ${link.id}`;
      expect(rows).toEqual([
        {
          id: expect.any(String),
          applied: false,
          unapplied_reason: "link_parent",
          amount: "0.0000001",
        },
      ]);
      const events = await s.sql`
        select type from events where invoice_id = ${link.id} order by created_at`;
      expect(events.map((e) => e.type)).toEqual(["link.created", "payment.unapplied"]);
      const [row] = await s.sql`select status from invoices where id = ${link.id}`;
      expect(row.status).toBe("PENDING");

      // The owner sees the money, and can send it back.
      const records = await api.get(`/api/links/${link.id}/payments`);
      expect(records.body.payments).toEqual([
        expect.objectContaining({
          id: link.id,
          amountPaid: "0.0000000",
          received: [
            expect.objectContaining({
              id: rows[0].id,
              transactionHash: hash,
              fromWallet: payer.publicKey(),
              amount: "0.0000001",
              applied: false,
              unappliedReason: "link_parent",
            }),
          ],
        }),
      ]);
      const refund = await api.post(`/api/invoices/${link.id}/payments/${rows[0].id}/refund`);
      expect(refund.status, JSON.stringify(refund.body)).toBe(201);
      expect(refund.body).toMatchObject({ amount: "0.0000001", destination: payer.publicKey() });
    }
    // The links still take their checkouts and payments.
    const child = await checkout(reusable.id, { amount: "1" });
    expect(child.status).toBe(201);
    await pay(child.body.id, payer);
    expect((await s.anon.get(`/api/links/${reusable.id}`)).body).toMatchObject({
      status: "ACTIVE",
      paymentsCount: 1,
      amountReceived: "1.0000000",
    });
  });

  it("a lapsed checkout's payment after the link is full: unapplied link_full, refundable; never two payments for maxPayments 1", async () => {
    const { kp, api } = await seller();
    const link = await createLink(api, { amount: "2", maxPayments: 1 });
    const [early, late] = [await funded(s.testnet), await funded(s.testnet)];
    const lapsed = await checkout(link.id);
    expect(lapsed.status).toBe(201);
    // Its payer committed, then let the checkout lapse (the expiry job marks it EXPIRED).
    expect((await intend(lapsed.body.id, early)).status).toBe(200);
    await s.sql`update invoices set status = 'EXPIRED', link_expires_at = now() - interval '1 second',
      link_held_until = now() - interval '1 second' where id = ${lapsed.body.id}`;
    // Another payer takes the place and pays.
    const paid = await checkout(link.id);
    expect(paid.status).toBe(201);
    await pay(paid.body.id, late);
    expect((await s.anon.get(`/api/links/${link.id}/status`)).body.status).toBe("PAID");

    // The lapsed checkout's payment lands anyway: recorded, never counted.
    const hash = await sendWithMemo(early, kp.publicKey(), "2", lapsed.body.memo);
    const res = await confirm(lapsed.body.id, hash);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("This link has received all the payments it accepts");
    const [row] = await s.sql`
      select p.id, p.applied, p.unapplied_reason, i.status, i.amount_paid::text
      from payments p join invoices i on i.id = p.invoice_id where p.transaction_hash = ${hash}`;
    expect(row).toMatchObject({
      applied: false,
      unapplied_reason: "link_full",
      status: "EXPIRED",
      amount_paid: "0.0000000",
    });
    const [counted] = await s.sql`
      select count(*)::int as n from payments p join invoices i on i.id = p.invoice_id
      where i.parent_link_id = ${link.id} and p.applied`;
    expect(counted.n).toBe(1);
    expect((await s.anon.get(`/api/links/${link.id}`)).body).toMatchObject({
      status: "PAID",
      paymentsCount: 1,
      amountReceived: "2.0000000",
    });
    const linkPaid = await s.sql`
      select count(*)::int as n from events where type = 'link.paid' and wallet = ${kp.publicKey()}`;
    expect(linkPaid[0].n).toBe(1);

    // Listed with the paid one (both within a second or two: their order is not the point),
    // and refundable in full.
    const records = await api.get(`/api/links/${link.id}/payments`);
    const listed = records.body.payments.map(
      (p: { id: string; received: { unappliedReason: string }[] }) => [
        p.id,
        p.received.map((r) => r.unappliedReason),
      ],
    );
    expect(listed).toHaveLength(2);
    expect(listed).toEqual(
      expect.arrayContaining([
        [lapsed.body.id, ["link_full"]],
        [paid.body.id, [null]],
      ]),
    );
    const refund = await api.post(`/api/invoices/${lapsed.body.id}/payments/${row.id}/refund`);
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    expect(refund.body).toMatchObject({ amount: "2", destination: early.publicKey() });
  });

  it("a committed payer keeps the place while their transaction can land, even past the checkout's expiry", async () => {
    const { api } = await seller();
    const link = await createLink(api, { amount: "2", maxPayments: 1 });
    const payer = await funded(s.testnet);
    const held = await checkout(link.id);
    const intent = await intend(held.body.id, payer);
    expect(intent.status).toBe(200);
    // The checkout expires while the signed transaction is still within its time bound.
    await s.sql`update invoices set status = 'EXPIRED', link_expires_at = now() - interval '1 second'
      where id = ${held.body.id}`;
    expect((await checkout(link.id)).status).toBe(409);
    const tx = TransactionBuilder.fromXDR(intent.body.transactionXdr, TESTNET);
    tx.sign(payer);
    const hash = await send(s.testnet, tx);
    expect((await confirm(held.body.id, hash)).body).toMatchObject({ status: "confirmed" });
    expect((await s.anon.get(`/api/links/${link.id}`)).body).toMatchObject({
      status: "PAID",
      paymentsCount: 1,
    });
  });
});

describe("checkouts hold nothing and number nothing of the wallet's", () => {
  it("five checkouts of a maxPayments 5 link block nobody; the next invoice is still the next INV number", async () => {
    const { api } = await seller();
    const link = await createLink(api, { amount: "1", maxPayments: 5 });
    const linkNumber = await numberOf(link.id);
    const made = [];
    for (let i = 0; i < 5; i++) {
      const res = await checkout(link.id);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      made.push(res.body);
    }
    expect(made.map((c) => c.memo)).toEqual([1, 2, 3, 4, 5].map((n) => `${linkNumber}-${n}`));
    // A sixth visitor still gets a checkout, and pays it.
    const sixth = await checkout(link.id);
    expect(sixth.status).toBe(201);
    expect(sixth.body.memo).toBe(`${linkNumber}-6`);
    await pay(sixth.body.id, await funded(s.testnet));
    expect((await s.anon.get(`/api/links/${link.id}`)).body.paymentsCount).toBe(1);

    // The wallet's own series moved by the link only.
    const invoice = await api.post("/api/invoices", invoiceBody());
    expect(invoice.status, JSON.stringify(invoice.body)).toBe(201);
    const next = Number(linkNumber.slice(4)) + 1;
    expect(invoice.body.invoiceNumber).toBe(`INV-${String(next).padStart(4, "0")}`);
  });

  it("a payer's commitment holds the place: 409 for the others, then PAID", async () => {
    const { api } = await seller();
    const link = await createLink(api, { amount: "1", maxPayments: 1 });
    const [a, b] = [await funded(s.testnet), await funded(s.testnet)];
    const [ca, cb] = [await checkout(link.id), await checkout(link.id)];
    expect((await intend(ca.body.id, a)).status).toBe(200);
    // The same payer renewing keeps it; a SEP-7 pay-intent (no sender) holds nothing.
    expect((await intend(ca.body.id, a)).status).toBe(200);
    const sep7 = await s.anon.post(`/api/payments/${cb.body.id}/pay-intent`, {
      networkPassphrase: TESTNET,
    });
    expect(sep7.status).toBe(200);
    const busy = await intend(cb.body.id, b);
    expect(busy.status).toBe(409);
    expect(busy.body.error).toBe(
      "Every remaining payment of this link is being made by other payers. Try again in a few minutes.",
    );
    await pay(ca.body.id, a);
    const full = await intend(cb.body.id, b);
    expect(full.status).toBe(409);
    expect(full.body.error).toBe("This link has received all the payments it accepts");
  });

  it("holds are bounded per IP and per link", async () => {
    // Its own database: the limit counters are shared by every server on one database.
    const db = await createTestDatabase();
    const limited: RunningApp = await startApp({
      DATABASE_URL: db.url,
      RATE_LIMIT_LINK_HOLDS_PER_30_MINUTES: "3",
      RATE_LIMIT_LINK_HOLDS_PER_LINK_PER_30_MINUTES: "2",
      ...chainEnv(s.testnet, s.mainnet),
    });
    try {
      const kp = await funded(s.testnet);
      const api = client(limited.url, (await signIn(limited.url, kp)).token);
      const anon = client(limited.url);
      const payer = await funded(s.testnet);
      const hold = async (linkId: string) => {
        const c = await anon.post(`/api/links/${linkId}/checkout`, {});
        expect(c.status, JSON.stringify(c.body)).toBe(201);
        return c.body.id as string;
      };
      const intendOn = (id: string) =>
        anon.post(`/api/payments/${id}/pay-intent`, {
          networkPassphrase: TESTNET,
          senderPublicKey: payer.publicKey(),
        });
      const body = { asset: "XLM", networkPassphrase: TESTNET, amount: "1", maxPayments: 10 };
      const [one, two, three] = await Promise.all(
        [0, 1, 2].map(async () => (await api.post("/api/links", body)).body.id as string),
      );
      const first = await hold(one);
      expect((await intendOn(first)).status).toBe(200);
      expect((await intendOn(await hold(one))).status).toBe(200);
      const thirdOnOne = await intendOn(await hold(one));
      expect(thirdOnOne.status).toBe(429);
      expect(thirdOnOne.body.error).toBe(
        "Too many places of this payment link held from this address. Try again later.",
      );
      // Renewing a hold it has costs nothing.
      expect((await intendOn(first)).status).toBe(200);
      expect((await intendOn(await hold(two))).status).toBe(200);
      const overall = await intendOn(await hold(three));
      expect(overall.status).toBe(429);
      expect(overall.body.error).toBe(
        "Too many payment link places held from this address. Try again later.",
      );
      // An unlimited link has no places to hold.
      const open = await api.post("/api/links", {
        ...body,
        maxPayments: undefined,
        reusable: true,
      });
      expect((await intendOn(await hold(open.body.id))).status).toBe(200);
    } finally {
      await limited.stop();
      await db.drop();
    }
  });
});
