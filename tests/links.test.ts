import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, client } from "./helpers/api";
import { type RunningApp, startApp, TEST_CRON_SECRET } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { createTestDatabase } from "./helpers/postgres";
import {
  type Chain,
  chainEnv,
  funded,
  Keypair,
  MAINNET,
  startChain,
  TESTNET,
  TransactionBuilder,
} from "./helpers/stellar";

let testnet: Chain;
let mainnet: Chain;
let app: RunningApp;
let limited: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
const anon = () => client(app.url);

beforeAll(async () => {
  testnet = await startChain(TESTNET);
  mainnet = await startChain(MAINNET);
  db = await createTestDatabase();
  const env = { DATABASE_URL: db.url, ...chainEnv(testnet, mainnet) };
  [app, limited] = await Promise.all([
    startApp({
      ...env,
      RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
      RATE_LIMIT_LINKS_PER_HOUR: "100000",
    }),
    startApp(env),
  ]);
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end();
  await Promise.all([app?.stop(), limited?.stop()]);
  await testnet?.ledger.stop();
  await mainnet?.ledger.stop();
  await db?.drop();
});

async function seller(kp?: Keypair): Promise<{ kp: Keypair; api: Api }> {
  const key = kp ?? (await funded(testnet));
  return { kp: key, api: client(app.url, (await signIn(app.url, key)).token) };
}

async function payLink(linkId: string, payer: Keypair) {
  const intent = await anon().post(`/api/payments/${linkId}/pay-intent`, {
    networkPassphrase: TESTNET,
    senderPublicKey: payer.publicKey(),
  });
  expect(intent.status, JSON.stringify(intent.body)).toBe(200);
  const tx = TransactionBuilder.fromXDR(intent.body.transactionXdr, TESTNET);
  tx.sign(payer);
  return anon().post("/api/payments/submit", {
    invoiceId: linkId,
    signedTransactionXdr: tx.toXDR(),
  });
}

describe("payment links", () => {
  it("create, view, pay through pay-intent + submit, status PAID, link.paid emitted", async () => {
    const s = await seller();
    const created = await s.api.post("/api/links", {
      amount: "12.5",
      asset: "XLM",
      networkPassphrase: TESTNET,
      title: "Coffee",
      reference: "order-77",
    });
    expect(created.status).toBe(201);
    const link = created.body;
    expect(link).toMatchObject({
      amount: "12.5000000",
      asset: "XLM",
      status: "ACTIVE",
      metadata: { title: "Coffee", reference: "order-77" },
      checkoutUrl: `${app.url}/pay/${link.id}`,
    });
    expect(Date.parse(link.expiresAt) - Date.parse(link.createdAt)).toBe(24 * 3600_000);
    const [createdEvent] =
      await sql`select data from events where invoice_id = ${link.id} and type = 'link.created'`;
    expect(createdEvent.data).toMatchObject({
      id: link.id,
      amount: "12.5000000",
      metadata: { reference: "order-77" },
    });

    const view = await anon().get(`/api/links/${link.id}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      id: link.id,
      destination: s.kp.publicKey(),
      status: "ACTIVE",
    });

    const payer = await funded(testnet);
    const paid = await payLink(link.id, payer);
    expect(paid.status).toBe(200);
    const status = await anon().get(`/api/links/${link.id}/status`);
    expect(status.body).toMatchObject({
      status: "PAID",
      transactionHash: paid.body.transactionHash,
      payerWallet: payer.publicKey(),
    });
    const [event] =
      await sql`select data from events where invoice_id = ${link.id} and type = 'link.paid'`;
    expect(event.data).toMatchObject({
      id: link.id,
      amount: "12.5000000",
      asset: "XLM",
      transactionHash: paid.body.transactionHash,
      metadata: { reference: "order-77" },
    });
    // Links stay out of invoice lists and statistics unless asked for.
    expect((await s.api.get("/api/invoices")).body.total).toBe(0);
    expect((await s.api.get("/api/invoices?excludePreview=false")).body.total).toBe(1);
    expect((await s.api.get("/api/invoices/stats")).body.totalInvoices).toBe(0);
    expect((await s.api.get("/api/invoices/stats?includeDemoLinks=true")).body.paidInvoices).toBe(
      1,
    );
    expect((await s.api.get("/api/links")).body.links).toHaveLength(1);
  });

  it("activateNewAccounts: paying creates the recipient's account", async () => {
    const fresh = Keypair.random();
    const s = await seller(fresh);
    const created = await s.api.post("/api/links", {
      amount: "5",
      asset: "XLM",
      networkPassphrase: TESTNET,
      activateNewAccounts: true,
    });
    expect(created.status).toBe(201);
    const payer = await funded(testnet);
    const paid = await payLink(created.body.id, payer);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const account = await testnet.server.loadAccount(fresh.publicKey());
    expect(account.balances.find((b) => b.asset_type === "native")?.balance).toBe("5.0000000");
    const owner = await s.api.get(`/api/invoices/${created.body.id}/owner`);
    expect(owner.body.status).toBe("PAID");

    // Without the option, an unfunded recipient cannot be paid.
    const other = await seller(Keypair.random());
    const plain = await other.api.post("/api/links", {
      amount: "5",
      asset: "XLM",
      networkPassphrase: TESTNET,
    });
    const intent = await anon().post(`/api/payments/${plain.body.id}/pay-intent`, {
      networkPassphrase: TESTNET,
    });
    expect(intent.body.error).toBe(
      "Recipient wallet is not activated on this network. It must be funded first.",
    );
  });

  it("validates the body", async () => {
    const s = await seller();
    const bad = [
      { amount: "5", asset: "USDC", activateNewAccounts: true },
      { amount: "0.5", asset: "XLM", activateNewAccounts: true },
      { amount: "5", asset: "XLM", expiresAt: new Date(Date.now() - 1000).toISOString() },
      { amount: "-5", asset: "XLM" },
      { amount: "5", asset: "BTC" },
      { asset: "XLM" },
    ];
    for (const body of bad) {
      const res = await s.api.post("/api/links", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await anon().post("/api/links", { amount: "5", asset: "XLM" })).status).toBe(401);
  });

  it("an expired link is 404 Link not found and expires through the expiry job", async () => {
    const s = await seller();
    const created = await s.api.post("/api/links", { amount: "5", asset: "XLM" });
    const id = created.body.id;
    await sql`update invoices set link_expires_at = now() - interval '1 second' where id = ${id}`;
    for (const path of [`/api/links/${id}`, `/api/links/${id}/status`]) {
      const res = await anon().get(path);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe("Link not found");
    }
    const intent = await anon().post(`/api/payments/${id}/pay-intent`, {
      networkPassphrase: TESTNET,
    });
    expect(intent.status).toBe(404);
    expect(intent.body.error).toBe("Link not found");
    const cron = await fetch(`${app.url}/api/cron/expire`, {
      headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
    });
    expect(cron.status).toBe(200);
    const [row] = await sql`select status from invoices where id = ${id}`;
    expect(row.status).toBe("EXPIRED");
    const audits =
      await sql`select action from invoice_audit_logs where invoice_id = ${id} order by created_at`;
    expect(audits.map((a) => a.action)).toEqual(["CREATED", "EXPIRED"]);
    expect((await anon().get("/api/links/unknownunknownunknown")).body.error).toBe(
      "Link not found",
    );
  });

  it("the 61st link in an hour is 429 with the spec's message", async () => {
    const kp = await funded(testnet);
    const api = client(limited.url, (await signIn(limited.url, kp)).token);
    for (let i = 1; i <= 60; i++) {
      const res = await api.post("/api/links", { amount: "1", asset: "XLM" });
      expect(res.status, `link ${i}`).toBe(201);
    }
    const over = await api.post("/api/links", { amount: "1", asset: "XLM" });
    expect(over.status).toBe(429);
    expect(over.body.error).toBe(
      "Payment link creation limit reached. Maximum 60 links per hour per wallet.",
    );
    expect(over.body.retryAfter).toBeGreaterThan(0);
  });
});
