import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, client } from "./helpers/api";
import { type RunningApp, startApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import { createTestDatabase } from "./helpers/postgres";
import { chainEnv, funded, type Keypair, TESTNET, TransactionBuilder } from "./helpers/stellar";

// Reusable and open-amount payment links (docs/decisions.md, Payment links): each payer's
// checkout is a child link paid with a real signed transaction on the local ledger.

let s: LedgerApp;

beforeAll(async () => {
  s = await startLedgerApp();
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
    expect(ok.body.memo).toMatch(/^INV-\d{4}$/);
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
  it("the last place goes to exactly one of two racing checkouts; then the link is PAID", async () => {
    const { api } = await seller();
    const link = await createLink(api, { amount: "2", maxPayments: 2 });
    const payer = await funded(s.testnet);
    const first = await checkout(link.id);
    expect(first.status).toBe(201);
    await pay(first.body.id, payer);

    const racing = await Promise.all([checkout(link.id), checkout(link.id)]);
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409]);
    const won = racing.find((r) => r.status === 201)!;
    const lost = racing.find((r) => r.status === 409)!;
    expect(lost.body.error).toBe(
      "Every remaining payment of this link is being made by other payers. Try again in a few minutes.",
    );
    // An unpaid checkout that expired gives its place back.
    await s.sql`update invoices set link_expires_at = now() - interval '1 second' where id = ${won.body.id}`;
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
