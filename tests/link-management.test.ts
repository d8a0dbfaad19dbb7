import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromStroops, toStroops } from "@/lib/domain/money";
import { type Api, client } from "./helpers/api";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import { funded, type Keypair, TESTNET, TransactionBuilder } from "./helpers/stellar";

// Managing a payment link (docs/decisions.md, Payment links, Managing a link): deactivate and
// reactivate, edit, who paid, no 24-hour default for reusable links, link revenue in the
// statistics. Payments are real signed transactions on the local ledger.

let s: LedgerApp;

beforeAll(async () => {
  s = await startLedgerApp({
    RATE_LIMIT_LINK_HOLDS_PER_30_MINUTES: "100000",
    RATE_LIMIT_LINK_HOLDS_PER_LINK_PER_30_MINUTES: "100000",
  });
});

afterAll(async () => {
  await stopLedgerApp(s);
});

const INACTIVE = "This link is no longer accepting payments";
const HOUR = 3600_000;

async function seller(): Promise<{ kp: Keypair; api: Api }> {
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

/** A payer's pay-intent: the unsigned transaction they will sign. */
async function intend(id: string, payer: Keypair) {
  const intent = await s.anon.post(`/api/payments/${id}/pay-intent`, {
    networkPassphrase: TESTNET,
    senderPublicKey: payer.publicKey(),
  });
  expect(intent.status, JSON.stringify(intent.body)).toBe(200);
  return intent.body.transactionXdr as string;
}

/** Signs and submits what pay-intent built, as the payer's wallet would. */
async function signAndSubmit(id: string, payer: Keypair, xdr: string) {
  const tx = TransactionBuilder.fromXDR(xdr, TESTNET);
  tx.sign(payer);
  const res = await s.anon.post("/api/payments/submit", {
    invoiceId: id,
    signedTransactionXdr: tx.toXDR(),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.transactionHash as string;
}

const auditOf = async (id: string) =>
  s.sql`select action, actor_wallet, changes from invoice_audit_logs
    where invoice_id = ${id} order by created_at, id`;

describe("deactivating a link", () => {
  it("refuses new checkouts with 409; a checkout made before is still paid and recorded; reactivating reopens it", async () => {
    const { kp, api } = await seller();
    const link = await createLink(api, { amount: "5", reusable: true, title: "Workshop seat" });
    // Two payers started before the owner deactivated: one has signed-to-be, one has not.
    const early = await checkout(link.id);
    const late = await checkout(link.id);
    expect(early.status).toBe(201);
    expect(late.status).toBe(201);
    const payerA = await funded(s.testnet);
    const payerB = await funded(s.testnet);
    const xdrA = await intend(early.body.id, payerA);

    const off = await api.post(`/api/links/${link.id}/deactivate`, {});
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.deactivatedAt).toEqual(expect.any(String));
    expect(off.body.status).toBe("ACTIVE");
    // Audited once, by the owner; a second call changes nothing.
    expect((await api.post(`/api/links/${link.id}/deactivate`, {})).status).toBe(200);
    const entries = (await auditOf(link.id)).filter((e) => e.action === "UPDATED");
    expect(entries).toEqual([
      {
        action: "UPDATED",
        actor_wallet: kp.publicKey(),
        changes: { active: { from: true, to: false } },
      },
    ]);

    // The public view says so; a new checkout is refused with a clear 409.
    const view = await s.anon.get(`/api/links/${link.id}`);
    expect(view.status).toBe(200);
    expect(view.body.deactivatedAt).toBe(off.body.deactivatedAt);
    const refused = await checkout(link.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(INACTIVE);
    expect(
      (await s.sql`select count(*)::int as n from invoices where parent_link_id = ${link.id}`)[0].n,
    ).toBe(2);

    // The checkouts made before keep working: the signed payment is recorded and applied, and a
    // payer who had not committed yet can still pay theirs.
    const hashA = await signAndSubmit(early.body.id, payerA, xdrA);
    const hashB = await signAndSubmit(late.body.id, payerB, await intend(late.body.id, payerB));
    const paid = await api.get(`/api/links/${link.id}/payments`);
    expect(paid.status).toBe(200);
    expect(paid.body.link).toMatchObject({
      id: link.id,
      paymentsCount: 2,
      amountReceived: "10.0000000",
    });
    const byHash = Object.fromEntries(
      paid.body.payments.map((p: { transactionHash: string }) => [p.transactionHash, p]),
    );
    expect(byHash[hashA]).toMatchObject({
      id: early.body.id,
      status: "PAID",
      payerWallet: payerA.publicKey(),
      amountPaid: "5.0000000",
    });
    expect(byHash[hashB]).toMatchObject({ id: late.body.id, payerWallet: payerB.publicKey() });
    const [money] = await s.sql`select count(*)::int as n, sum(amount)::text as sum from payments
      where invoice_id in (${early.body.id}, ${late.body.id}) and applied`;
    expect(money).toEqual({ n: 2, sum: "10.0000000" });

    // Reactivated: new checkouts again, audited.
    const on = await api.post(`/api/links/${link.id}/reactivate`, {});
    expect(on.status).toBe(200);
    expect(on.body.deactivatedAt).toBeNull();
    expect((await checkout(link.id)).status).toBe(201);
    expect((await auditOf(link.id)).at(-1)).toMatchObject({
      action: "UPDATED",
      changes: { active: { from: false, to: true } },
    });
  });

  it("a single-use link: pay-intent is 409 once deactivated; a transaction built before is still recorded", async () => {
    const { api } = await seller();
    const link = await createLink(api, { amount: "3" });
    const payer = await funded(s.testnet);
    const xdr = await intend(link.id, payer);
    expect((await api.post(`/api/links/${link.id}/deactivate`, {})).status).toBe(200);
    const again = await s.anon.post(`/api/payments/${link.id}/pay-intent`, {
      networkPassphrase: TESTNET,
      senderPublicKey: payer.publicKey(),
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(INACTIVE);
    const hash = await signAndSubmit(link.id, payer, xdr);
    const after = await api.get(`/api/links/${link.id}/payments`);
    expect(after.body.payments).toMatchObject([{ transactionHash: hash, status: "PAID" }]);
    // Paid: the link is a receipt now, and deactivating it again is not possible.
    expect((await api.post(`/api/links/${link.id}/reactivate`, {})).body.status).toBe("PAID");
    const paidOff = await api.post(`/api/links/${link.id}/deactivate`, {});
    expect(paidOff.status).toBe(400);
    expect(paidOff.body.error).toBe("Only an active link can be changed. Current status: PAID");
  });

  it("only the owner manages a link: 403 for another wallet, 404 for unknown ids and checkouts", async () => {
    const { api } = await seller();
    const { api: other } = await seller();
    const link = await createLink(api, { amount: "5", reusable: true });
    for (const res of [
      await other.post(`/api/links/${link.id}/deactivate`, {}),
      await other.post(`/api/links/${link.id}/reactivate`, {}),
      await other.patch(`/api/links/${link.id}`, { title: "Mine now" }),
      await other.get(`/api/links/${link.id}/payments`),
    ]) {
      expect(res.status).toBe(403);
    }
    expect((await s.anon.post(`/api/links/${link.id}/deactivate`, {})).status).toBe(401);
    expect((await api.post("/api/links/unknownunknownunknown/deactivate", {})).status).toBe(404);
    const child = await checkout(link.id);
    expect((await api.post(`/api/links/${child.body.id}/deactivate`, {})).status).toBe(404);
    expect((await s.anon.get(`/api/links/${link.id}`)).body).toMatchObject({
      deactivatedAt: null,
      metadata: { title: "Payment link" },
    });
  });
});

describe("editing a link (PATCH)", () => {
  it("answers 400 naming each bad field and writes nothing", async () => {
    const { api } = await seller();
    const single = await createLink(api, { amount: "5", title: "Logo" });
    const reusable = await createLink(api, { amount: "5", reusable: true, title: "Tips" });
    const past = new Date(Date.now() - HOUR).toISOString();
    const far = new Date(Date.now() + 91 * 24 * HOUR).toISOString();
    const bad: [string, Record<string, unknown>, string[]][] = [
      [single.id, { amount: "6" }, ["amount"]],
      [single.id, { asset: "USDC", title: "x" }, ["asset"]],
      [single.id, { maxPayments: 3, reusable: true }, ["maxPayments", "reusable"]],
      [single.id, { title: "x".repeat(201) }, ["title"]],
      [single.id, { title: 42 }, ["title"]],
      [single.id, { expiresAt: past }, ["expiresAt"]],
      [single.id, { expiresAt: far }, ["expiresAt"]],
      [single.id, { expiresAt: "tomorrow" }, ["expiresAt"]],
      // A single-use link always expires; only a reusable one may be open-ended.
      [single.id, { expiresAt: null }, ["expiresAt"]],
      [reusable.id, { colour: "red" }, []],
    ];
    for (const [id, body, fields] of bad) {
      const res = await api.patch(`/api/links/${id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      for (const field of fields) {
        expect(Object.keys(res.body.details ?? {}), JSON.stringify(res.body)).toContain(field);
      }
    }
    expect((await api.patch(`/api/links/${single.id}`, { amount: "6" })).body.details).toEqual({
      amount: "cannot be changed: create a new link",
    });
    for (const link of [single, reusable]) {
      const now = (await s.anon.get(`/api/links/${link.id}`)).body;
      expect(now).toMatchObject({
        metadata: link.metadata,
        expiresAt: link.expiresAt,
        amount: link.amount,
      });
      expect((await auditOf(link.id)).map((e) => e.action)).toEqual(["CREATED"]);
    }
  });

  it("changes the title and expiry of an active link, audited with the diff; checkouts keep theirs", async () => {
    const { kp, api } = await seller();
    const link = await createLink(api, { amount: "5", reusable: true, title: "Tips" });
    const early = await checkout(link.id);
    const until = new Date(Date.now() + 48 * HOUR);
    until.setMilliseconds(0);
    const res = await api.patch(`/api/links/${link.id}`, {
      title: "Tips 2027",
      expiresAt: until.toISOString(),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      metadata: { title: "Tips 2027" },
      expiresAt: until.toISOString(),
      amount: "5.0000000",
    });
    const [entry] = (await auditOf(link.id)).filter((e) => e.action === "UPDATED");
    expect(entry).toEqual({
      action: "UPDATED",
      actor_wallet: kp.publicKey(),
      changes: {
        title: { from: "Tips", to: "Tips 2027" },
        expiresAt: { from: null, to: until.toISOString() },
      },
    });
    // Back to never expiring; a PATCH that changes nothing writes nothing.
    const open = await api.patch(`/api/links/${link.id}`, { expiresAt: null });
    expect(open.body.expiresAt).toBeNull();
    await api.patch(`/api/links/${link.id}`, { title: "Tips 2027" });
    expect((await auditOf(link.id)).filter((e) => e.action === "UPDATED")).toHaveLength(2);
    expect((await s.anon.get(`/api/links/${early.body.id}`)).body.metadata.title).toBe("Tips");
    // Form A answers with numbers, as every link view does.
    const formA = await api.patch(`/api/links/${link.id}?envelope=true`, { title: "Tips!" });
    expect(formA.body.data).toMatchObject({ amount: 5, metadata: { title: "Tips!" } });
  });

  it("refuses to change an expired link", async () => {
    const { api } = await seller();
    const link = await createLink(api, { amount: "5", reusable: true });
    await s.sql`update invoices set link_expires_at = now() - interval '1 second' where id = ${link.id}`;
    const res = await api.patch(`/api/links/${link.id}`, {
      expiresAt: new Date(Date.now() + HOUR).toISOString(),
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Only an active link can be changed. Current status: EXPIRED");
  });
});

describe("expiry of a new link", () => {
  it("a reusable link never expires unless asked; a single-use link still expires after 24 hours", async () => {
    const { api } = await seller();
    const reusable = await createLink(api, { amount: "5", reusable: true });
    expect(reusable.expiresAt).toBeNull();
    expect(reusable.status).toBe("ACTIVE");
    const limited = await createLink(api, { amount: "5", maxPayments: 3 });
    expect(limited.expiresAt).toBeNull();
    const tipJar = await createLink(api, { openAmount: true, reusable: true });
    expect(tipJar.expiresAt).toBeNull();
    const asked = new Date(Date.now() + 72 * HOUR);
    asked.setMilliseconds(0);
    const dated = await createLink(api, {
      amount: "5",
      reusable: true,
      expiresAt: asked.toISOString(),
    });
    expect(dated.expiresAt).toBe(asked.toISOString());
    // The contract's default stays for a single-use link, fixed or open amount.
    for (const body of [{ amount: "5" }, { openAmount: true }]) {
      const single = await createLink(api, body);
      expect(Date.parse(single.expiresAt) - Date.parse(single.createdAt)).toBe(24 * HOUR);
    }
    // A checkout of it still has half an hour to be paid.
    const child = await checkout(reusable.id);
    expect(child.status).toBe(201);
    expect(Date.parse(child.body.expiresAt) - Date.parse(child.body.createdAt)).toBe(30 * 60_000);
    const [event] = await s.sql`select data from events
      where type = 'link.created' and invoice_id = ${reusable.id}`;
    expect(event.data.expiresAt).toBeNull();
  });
});

describe("link revenue in the statistics", () => {
  it("counts payments on link checkouts per asset and, apart, per price currency; invoice figures unchanged", async () => {
    const { api } = await seller();
    const before = await api.get("/api/invoices/stats?network=testnet");
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect(before.body.linkRevenue).toMatchObject({
      payments: 0,
      totalRevenue: { XLM: "0.0000000", USDC: "0.0000000", EURC: "0.0000000" },
    });

    const xlm = await createLink(api, { amount: "7.5", reusable: true });
    const payer = await funded(s.testnet);
    for (let i = 0; i < 2; i++) {
      const child = await checkout(xlm.id);
      await signAndSubmit(child.body.id, payer, await intend(child.body.id, payer));
    }
    const eur = await createLink(api, { amount: "12.00", priceCurrency: "EUR", reusable: true });
    const fiatChild = await checkout(eur.id);
    await signAndSubmit(fiatChild.body.id, payer, await intend(fiatChild.body.id, payer));
    const [sent] = await s.sql`select amount::text as amount from payments
      where invoice_id = ${fiatChild.body.id}`;

    const stats = await api.get("/api/invoices/stats?network=testnet");
    expect(stats.status).toBe(200);
    const xlmIn = fromStroops(15n * 10_000_000n + toStroops(sent.amount));
    expect(stats.body.linkRevenue).toEqual({
      payments: 3,
      totalRevenue: { XLM: xlmIn, USDC: "0.0000000", EURC: "0.0000000" },
      revenueThisMonth: { XLM: xlmIn, USDC: "0.0000000", EURC: "0.0000000" },
      byPriceCurrency: {
        USD: { totalRevenue: "0.00", revenueThisMonth: "0.00" },
        EUR: { totalRevenue: "12.00", revenueThisMonth: "12.00" },
      },
    });
    // The contract keeps links out of the invoice figures unless includeDemoLinks is asked.
    expect(stats.body.totalRevenue.XLM).toBe("0.0000000");
    expect(stats.body.byPriceCurrency.EUR.totalRevenue).toBe("0.00");
    expect(stats.body.totalInvoices).toBe(0);
    // Form A: numbers.
    const formA = await api.get("/api/invoices/stats?network=testnet&envelope=true");
    expect(formA.body.data.linkRevenue).toMatchObject({
      payments: 3,
      byPriceCurrency: { EUR: { totalRevenue: 12 } },
    });
    // The other network has none.
    const mainnet = await api.get("/api/invoices/stats?network=mainnet");
    expect(mainnet.body.linkRevenue.payments).toBe(0);
  });
});
