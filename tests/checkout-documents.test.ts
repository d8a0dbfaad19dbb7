import http from "node:http";
import type { Keypair } from "@stellar/stellar-sdk";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signId } from "@/lib/services/signed-ids";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, TEST_CRON_SECRET, TEST_JWT_SECRET } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import { Asset, type Chain, funded, Memo, pay, send } from "./helpers/stellar";

// Issue 28, item 11 (docs/decisions.md, Checkout documents): the payment page links the
// client's invoice PDF and receipt without sign-in, through a capability token the server
// signs for that page. A token that is not ours is 404 and reveals nothing; the documents
// follow the payment page's own rules; the costly per-IP budget applies. Real PostgreSQL, the
// built server, the local ledger and real signed payments.

let testnet: Chain;
let mainnet: Chain;
let app: RunningApp;
let db: LedgerApp["db"];
let sql: postgres.Sql;
let anon: Api;
const COSTLY_PER_MINUTE = 20;

beforeAll(async () => {
  ({ testnet, mainnet, app, db, sql, anon } = await startLedgerApp({
    RATE_LIMIT_COSTLY_PER_MINUTE: String(COSTLY_PER_MINUTE),
  }));
});

afterAll(() => stopLedgerApp({ sql, app, testnet, mainnet, db }));

type Freelancer = { kp: Keypair; api: Api; token: string };

async function freelancer(): Promise<Freelancer> {
  const kp = await funded(testnet);
  const { token } = await signIn(app.url, kp);
  return { kp, api: client(app.url, token), token };
}

async function invoice(f: Freelancer, { sent = true, rate = "25" } = {}) {
  const created = await f.api.post(
    "/api/invoices",
    invoiceBody({
      title: "Logo design",
      lineItems: [{ description: "Logo", quantity: "1", rate }],
    }),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  if (sent) expect((await f.api.post(`/api/invoices/${created.body.id}/send`)).status).toBe(200);
  return created.body as { id: string; invoiceNumber: string };
}

/** The document links exactly as the payment page renders them. */
async function pageLinks(id: string): Promise<{ invoicePdf: string; receipt: string }> {
  const res = await fetch(`${app.url}/pay/${id}`);
  expect(res.status).toBe(200);
  const html = await res.text();
  const pdf = html.match(/href="(\/api\/documents\/[A-Za-z0-9_.-]+\/invoice)"/)?.[1];
  expect(pdf, "the page's Download invoice (PDF) link").toBeDefined();
  return { invoicePdf: pdf as string, receipt: (pdf as string).replace(/\/invoice$/, "/receipt") };
}

const get = async (path: string) => {
  const res = await fetch(app.url + path);
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
};

const tick = () =>
  fetch(`${app.url}/api/cron/watcher`, {
    headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
  }).then((r) => r.json());

async function payXlm(
  payer: Keypair,
  f: Freelancer,
  inv: { invoiceNumber: string },
  amount: string,
) {
  const hash = await send(
    testnet,
    await pay(
      testnet,
      payer,
      f.kp.publicKey(),
      Asset.native(),
      amount,
      Memo.text(inv.invoiceNumber),
    ),
  );
  await tick();
  return hash;
}

describe("the checkout's invoice PDF", () => {
  it("is linked from /pay/<id> and is the owner's PDF, byte for byte, without sign-in", async () => {
    const f = await freelancer();
    const inv = await invoice(f);
    const { invoicePdf } = await pageLinks(inv.id);
    const pdf = await get(invoicePdf);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toBe(
      `attachment; filename="${inv.invoiceNumber}.pdf"`,
    );
    expect(pdf.body.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const owner = await fetch(`${app.url}/api/invoices/${inv.id}/pdf`, {
      headers: { authorization: `Bearer ${f.token}` },
    });
    expect(owner.status).toBe(200);
    expect(Buffer.from(await owner.arrayBuffer()).equals(pdf.body)).toBe(true);
  });

  it("a tampered, swapped, foreign or unknown token is 404 Invoice not found, naming nothing", async () => {
    const f = await freelancer();
    const [a, b] = [await invoice(f), await invoice(f)];
    const { invoicePdf } = await pageLinks(a.id);
    const token = invoicePdf.split("/")[3];
    const [id, mac] = token.split(".");
    const flipped = mac.slice(0, -1) + (mac.endsWith("A") ? "B" : "A");
    const bad = [
      `${id}.${flipped}`, // one character of the signature changed
      `${b.id}.${mac}`, // another invoice's id under this one's signature
      `${id}.`, // no signature
      id, // the id alone
      signId(TEST_JWT_SECRET, "unsubscribe:v1", a.id), // an unsubscribe link's token
      signId(TEST_JWT_SECRET, "documents:v1", "zz0000000000000000000000"), // no such invoice
    ];
    for (const t of bad) {
      for (const doc of ["invoice", "receipt"]) {
        const res = await get(`/api/documents/${encodeURIComponent(t)}/${doc}`);
        expect(res.status, `${doc} ${t}`).toBe(404);
        const text = res.body.toString("utf8");
        expect(JSON.parse(text).error).toBe("Invoice not found");
        expect(text).not.toContain(a.invoiceNumber);
        expect(text).not.toContain("Logo design");
      }
    }
  });

  it("follows the payment page: a draft and a cancelled invoice as it shows them, a deleted one 404", async () => {
    const f = await freelancer();
    const draft = await invoice(f, { sent: false });
    const draftLinks = await pageLinks(draft.id);
    expect((await get(draftLinks.invoicePdf)).status).toBe(200);

    const cancelled = await invoice(f);
    const cancelledLinks = await pageLinks(cancelled.id);
    expect((await f.api.post(`/api/invoices/${cancelled.id}/cancel`)).status).toBe(200);
    expect((await fetch(`${app.url}/pay/${cancelled.id}`)).status).toBe(200);
    expect((await get(cancelledLinks.invoicePdf)).status).toBe(200);

    // Deleted: gone from /pay/<id>, and its documents with it (the link still verifies).
    expect((await f.api.delete(`/api/invoices/${draft.id}`)).status).toBe(200);
    expect((await fetch(`${app.url}/pay/${draft.id}`)).status).toBe(404);
    const gone = await get(draftLinks.invoicePdf);
    expect(gone.status).toBe(404);
    expect(JSON.parse(gone.body.toString("utf8")).error).toBe("Invoice not found");
  });
});

describe("the checkout's receipt", () => {
  it("404 before a payment counted; then what moved on the ledger, payment by payment", async () => {
    const f = await freelancer();
    const inv = await invoice(f, { rate: "25" });
    const { receipt } = await pageLinks(inv.id);
    const none = await get(receipt);
    expect(none.status).toBe(404);
    expect(JSON.parse(none.body.toString("utf8")).error).toBe(
      "No payment has been received for this invoice yet",
    );

    const payer = await funded(testnet);
    const first = await payXlm(payer, f, inv, "10");
    const partly = await get(receipt);
    expect(partly.status).toBe(200);
    expect(partly.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(partly.headers.get("content-security-policy")).toContain("default-src 'none'");
    const partlyText = partly.body.toString("utf8");
    expect(partlyText).toContain(`Receipt for invoice ${inv.invoiceNumber}`);
    expect(partlyText).toContain("Partly paid: 15.00 XLM left to pay");
    expect(partlyText).toContain(first);

    const second = await payXlm(payer, f, inv, "15");
    const status = (await anon.get(`/api/payments/${inv.id}/status`)).body;
    expect(status.status).toBe("PAID");
    const paid = (await get(receipt)).body.toString("utf8");
    expect(paid).toContain("Paid in full on ");
    const rows = [
      ...paid.matchAll(
        /<tr>\n<td>([^<]+)<\/td>\n<td>([^<]+)<\/td>\n<td>([^<]+)<\/td>\n<td class="hash"><a href="[^"]+">([0-9a-f]{64})<\/a>/g,
      ),
    ];
    const [payments] = [
      await sql`select transaction_hash, confirmed_at from payments where invoice_id = ${inv.id} order by confirmed_at`,
    ];
    expect(rows.map((r) => [r[2], r[3], r[4]])).toEqual([
      ["10.00 XLM", "10.00 XLM", first],
      ["15.00 XLM", "15.00 XLM", second],
    ]);
    // The date each was confirmed on the ledger, in words.
    for (const [i, p] of payments.entries()) {
      expect(rows[i][1]).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC$/);
      expect(p.transaction_hash).toBe([first, second][i]);
    }
  });
});

describe("the costly per-IP budget", () => {
  it(`a document request over ${COSTLY_PER_MINUTE} in a minute from one address is 429`, async () => {
    const f = await freelancer();
    const inv = await invoice(f);
    const { invoicePdf } = await pageLinks(inv.id);
    // Fixed one-minute windows: start early enough in one to finish inside it.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 40_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 50));
    const from = "127.0.0.41";
    const statuses: number[] = [];
    for (let i = 0; i <= COSTLY_PER_MINUTE; i++) statuses.push(await statusFrom(from, invoicePdf));
    expect(statuses.slice(0, COSTLY_PER_MINUTE).every((s) => s === 200)).toBe(true);
    expect(statuses[COSTLY_PER_MINUTE]).toBe(429);
  });
});

function statusFrom(localAddress: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: app.port, path, localAddress, agent: false },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end();
  });
}
