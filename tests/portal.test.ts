import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PORTAL_LINK_SENT } from "@/lib/schemas/portal";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, TEST_CRON_SECRET } from "./helpers/app";
import { requestNonce, signIn, signMessage } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import { flatPdfText } from "./helpers/pdf";
import { type CaughtMail, startTestSmtp, type TestSmtp } from "./helpers/smtp";
import { Asset, type Chain, funded, type Keypair, Memo, pay, send } from "./helpers/stellar";

// The client portal (docs/decisions.md, Client portal) over HTTP: the built server, a real
// SMTP server catching the sign-in emails, real signed payments on the local ledger for the
// wallet sign-in, and the freelancer's own endpoints to compare with.

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
    RATE_LIMIT_PORTAL_SIGN_IN_PER_15_MINUTES: "1000",
  }));
});

afterAll(async () => {
  await stopLedgerApp({ sql, app, testnet, mainnet, db, prices });
  await smtp?.close();
});

type Freelancer = { kp: Keypair; api: Api; token: string };

async function freelancer(company: string): Promise<Freelancer> {
  const kp = await funded(testnet);
  const { token } = await signIn(app.url, kp);
  const api = client(app.url, token);
  expect((await api.put("/api/profile", { company })).status).toBe(200);
  return { kp, api, token };
}

async function sentInvoice(f: Freelancer, over: Record<string, unknown>) {
  const created = await f.api.post("/api/invoices", invoiceBody(over));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await f.api.post(`/api/invoices/${created.body.id}/send`)).status).toBe(200);
  return created.body as { id: string; invoiceNumber: string };
}

const cron = () =>
  fetch(`${app.url}/api/cron/emails`, { headers: { authorization: `Bearer ${TEST_CRON_SECRET}` } });

const portalMails = (to: string) =>
  smtp.to(to).filter((m) => m.parsed.subject?.startsWith("Your sign-in link"));

/** Runs the email cron until `count` portal emails to `to` arrived; answers the last. */
async function portalMail(to: string, count = 1): Promise<CaughtMail> {
  for (let i = 0; i < 50; i++) {
    await cron();
    const mails = portalMails(to);
    if (mails.length >= count) return mails[count - 1];
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No portal email to ${to}`);
}

/** The sign-in links of a portal email (each once). */
function linksOf(mail: CaughtMail): string[] {
  const html = mail.parsed.html || "";
  const urls = [...html.matchAll(/href="([^"]*\/api\/portal\/sign-in\?token=[^"]*)"/g)].map((m) =>
    m[1].replaceAll("&amp;", "&"),
  );
  return [...new Set(urls)];
}

/** The link of a portal email that signs in to `f`'s portal (its row names the freelancer). */
async function linkFor(mail: CaughtMail, f: Freelancer): Promise<string> {
  for (const url of linksOf(mail)) {
    const token = new URL(url).searchParams.get("token") as string;
    const id = token.split(".")[0];
    const [row] = await sql`select owner_wallet from portal_links where id = ${id}`;
    if (row?.owner_wallet === f.kp.publicKey()) return url;
  }
  throw new Error(`no link for ${f.kp.publicKey()}`);
}

const requestLink = (email: string) =>
  fetch(`${app.url}/api/portal/link`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email }),
  });

/** Opens a sign-in link as a browser would (no redirect followed): the cookie, if any. */
async function openLink(url: string) {
  const res = await fetch(url, { redirect: "manual" });
  const setCookie = res.headers.get("set-cookie");
  return {
    status: res.status,
    location: res.headers.get("location"),
    setCookie,
    cookie: setCookie ? setCookie.split(";")[0] : null,
  };
}

const portalGet = (cookie: string | null, path = "/api/portal") =>
  fetch(`${app.url}${path}`, { headers: cookie ? { cookie } : {} });

const sameHeaders = (res: Response) => ({
  status: res.status,
  contentType: res.headers.get("content-type"),
  cacheControl: res.headers.get("cache-control"),
  setCookie: res.headers.get("set-cookie"),
});

let ada: Freelancer;
let bo: Freelancer;
let adaInvoice: { id: string; invoiceNumber: string };
let adaOther: { id: string; invoiceNumber: string };
let boInvoice: { id: string; invoiceNumber: string };
let mail: CaughtMail;

describe("the sign-in link", () => {
  beforeAll(async () => {
    ada = await freelancer("Ada Studio");
    bo = await freelancer("Bo Works");
    adaInvoice = await sentInvoice(ada, {
      clientName: "Zoë Client",
      clientEmail: " Client@Example.com ",
      lineItems: [{ description: "Work", quantity: "1", rate: "100" }],
    });
    adaOther = await sentInvoice(ada, {
      clientName: "Other Client",
      clientEmail: "other@example.com",
      lineItems: [{ description: "Work", quantity: "1", rate: "50" }],
    });
    boInvoice = await sentInvoice(bo, {
      clientName: "Zoë at Bo",
      clientEmail: "client@example.com",
      lineItems: [{ description: "Work", quantity: "1", rate: "70" }],
    });
  });

  it("answers the same for a known and an unknown address; 400 only for a body that is not one", async () => {
    const known = await requestLink("client@example.com");
    const unknown = await requestLink("nobody-here@example.com");
    const knownBody = await known.text();
    const unknownBody = await unknown.text();
    expect(sameHeaders(known)).toEqual(sameHeaders(unknown));
    expect(known.status).toBe(202);
    expect(knownBody).toBe(unknownBody);
    expect(JSON.parse(knownBody)).toEqual({ message: PORTAL_LINK_SENT });
    expect(known.headers.get("set-cookie")).toBeNull();

    const bad = await requestLink("not an email");
    expect(bad.status).toBe(400);
    expect((await bad.json()).details).toHaveProperty("email");

    mail = await portalMail("client@example.com");
    // The unknown address got nothing, after every queued email was delivered.
    await cron();
    expect(smtp.to("nobody-here@example.com")).toHaveLength(0);
    expect(
      await sql`select 1 from portal_links where client_email = 'nobody-here@example.com'`,
    ).toHaveLength(0);
  });

  it("emails one link per freelancer in one message; the database keeps only hashes", async () => {
    const links = linksOf(mail);
    expect(links).toHaveLength(2);
    expect(mail.parsed.html).toContain("Open Ada Studio");
    expect(mail.parsed.html).toContain("Open Bo Works");
    const rows = await sql`select token_hash, owner_wallet from portal_links
      where client_email = 'client@example.com'`;
    expect(rows).toHaveLength(2);
    for (const l of links) {
      const token = new URL(l).searchParams.get("token") as string;
      const stored = JSON.stringify(
        await sql`select * from email_messages where kind = 'portal_link'`,
      );
      expect(stored).not.toContain(token);
      expect(JSON.stringify(rows)).not.toContain(token);
    }
  });

  it("works once, sets the session cookie, and opens only that client of that freelancer", async () => {
    const adaLink = await linkFor(mail, ada);
    const first = await openLink(adaLink);
    expect(first.status).toBe(303);
    expect(first.location).toBe(`${app.url}/portal`);
    const flags = (first.setCookie as string).split(";").map((p) => p.trim());
    expect(flags[0]).toMatch(/^portal_session=[A-Za-z0-9_-]{43}$/);
    expect(flags).toEqual(
      expect.arrayContaining(["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=604800"]),
    );
    // Served over http here, so not Secure (APP_URL https: Secure; lib/services/portal/tokens.test.ts).
    expect(flags).not.toContain("Secure");

    const again = await openLink(adaLink);
    expect(again.status).toBe(303);
    expect(again.location).toBe(`${app.url}/portal?link=expired`);
    expect(again.setCookie).toBeNull();

    const view = await portalGet(first.cookie);
    expect(view.status).toBe(200);
    const body = await view.json();
    expect(body.business).toBe("Ada Studio");
    expect(body.client.email).toBe("client@example.com");
    expect(body.invoices.map((i: { number: string }) => i.number)).toEqual([
      adaInvoice.invoiceNumber,
    ]);
    const inv = body.invoices[0];
    expect(inv).toMatchObject({
      status: "PENDING",
      total: "100.0000000",
      amountDue: "100.0000000",
      currency: "XLM",
      payUrl: `/pay/${adaInvoice.id}`,
      receiptUrl: null,
    });
    const pdf = await fetch(`${app.url}${inv.pdfUrl}`);
    expect(pdf.status).toBe(200);
    expect(await flatPdfText(await pdf.arrayBuffer())).toContain(adaInvoice.invoiceNumber);

    // Another client's invoice of the same freelancer, and the other freelancer's: 404.
    for (const id of [adaOther.id, boInvoice.id, "nosuchinvoice0000000000"]) {
      const res = await portalGet(first.cookie, `/api/portal/invoices/${id}/einvoice?format=cii`);
      expect(res.status, id).toBe(404);
    }
    expect(
      (await portalGet(first.cookie, "/api/portal/credit-notes/nosuchnote00000000000/pdf")).status,
    ).toBe(404);

    // Bo's link opens Bo's invoice of the same address, and nothing of Ada's.
    const boLink = await linkFor(mail, bo);
    const boSession = await openLink(boLink);
    const boView = await (await portalGet(boSession.cookie)).json();
    expect(boView.business).toBe("Bo Works");
    expect(boView.invoices.map((i: { id: string }) => i.id)).toEqual([boInvoice.id]);
  });

  it("an unknown, altered or missing token is the expired page", async () => {
    for (const q of ["?token=abc", "?token=", ""]) {
      const res = await openLink(`${app.url}/api/portal/sign-in${q}`);
      expect(res.status).toBe(303);
      expect(res.location).toBe(`${app.url}/portal?link=expired`);
      expect(res.setCookie).toBeNull();
    }
    expect((await portalGet(null)).status).toBe(401);
    expect(
      (await portalGet("portal_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")).status,
    ).toBe(401);
  });

  it("expires after 30 minutes", async () => {
    const before = portalMails("client@example.com").length;
    expect((await requestLink("CLIENT@example.com")).status).toBe(202);
    const second = await portalMail("client@example.com", before + 1);
    const link = await linkFor(second, ada);
    const rows = await sql`select id, created_at, expires_at from portal_links
      where client_email = 'client@example.com' and used_at is null order by created_at desc limit 2`;
    for (const r of rows) expect(r.expires_at.getTime() - r.created_at.getTime()).toBe(30 * 60_000);
    // 30 minutes later (the row's expiry reached): the link is dead.
    await sql`update portal_links set expires_at = now() - interval '1 second'
      where id in ${sql(rows.map((r) => r.id as string))}`;
    const res = await openLink(link);
    expect(res.location).toBe(`${app.url}/portal?link=expired`);
    expect(res.setCookie).toBeNull();
  });

  it("sends at most 5 emails an hour to one address, with the same answer past it", async () => {
    const email = "many@example.com";
    await sentInvoice(ada, { clientEmail: email });
    const known = [];
    for (let i = 0; i < 7; i++) known.push(await requestLink(email));
    const bodies = await Promise.all(known.map((r) => r.text()));
    expect(new Set(known.map((r) => r.status))).toEqual(new Set([202]));
    expect(new Set(bodies).size).toBe(1);
    const [{ n }] =
      await sql`select count(*)::int as n from email_messages where kind = 'portal_link' and "to" = ${email}`;
    expect(n).toBe(5);
  });
});

describe("the freelancer's side", () => {
  it("lists the client's sessions, and a revoke takes effect on the next portal request", async () => {
    const saved = await ada.api.post("/api/clients", {
      name: "Zoë Client",
      email: "client@example.com",
    });
    expect([200, 201]).toContain(saved.status);
    const before = portalMails("client@example.com").length;
    await requestLink("client@example.com");
    const link = await linkFor(await portalMail("client@example.com", before + 1), ada);
    const session = await openLink(link);
    expect((await portalGet(session.cookie)).status).toBe(200);

    const listed = await ada.api.get(`/api/clients/${saved.body.id}/portal-sessions`);
    expect(listed.status).toBe(200);
    expect(listed.body.sessions.length).toBeGreaterThanOrEqual(1);
    expect(listed.body.sessions[0]).toMatchObject({ via: "email" });
    expect(listed.body.sessions[0].lastSeenAt).not.toBeNull();
    // Bo cannot see or end Ada's client's sessions.
    expect((await bo.api.get(`/api/clients/${saved.body.id}/portal-sessions`)).status).toBe(403);
    expect((await bo.api.delete(`/api/clients/${saved.body.id}/portal-sessions`)).status).toBe(403);
    expect((await portalGet(session.cookie)).status).toBe(200);

    const revoked = await ada.api.delete(`/api/clients/${saved.body.id}/portal-sessions`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked).toBe(listed.body.sessions.length);
    expect((await portalGet(session.cookie)).status).toBe(401);
    expect(
      (await ada.api.get(`/api/clients/${saved.body.id}/portal-sessions`)).body.sessions,
    ).toEqual([]);
    const [audit] =
      await sql`select action, actor_wallet from client_audit_logs where client_id = ${saved.body.id}`;
    expect(audit).toMatchObject({
      action: "portal_sessions_revoked",
      actor_wallet: ada.kp.publicKey(),
    });
  });
});

describe("wallet sign-in", () => {
  async function walletSession(kp: Keypair) {
    const { nonce, message } = await requestNonce(app.url, kp.publicKey());
    const res = await fetch(`${app.url}/api/portal/wallet-session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        walletAddress: kp.publicKey(),
        nonce,
        signature: signMessage(kp, message, { digest: "sep53", encoding: "base64" }),
      }),
    });
    return { res, body: await res.json() };
  }

  it("a wallet that paid an invoice opens that freelancer's portal for that invoice's client; one that did not gets 404", async () => {
    const payer = await funded(testnet);
    const inv = await sentInvoice(ada, {
      clientName: "Wallet Payer",
      clientEmail: "payer@example.com",
      lineItems: [{ description: "Work", quantity: "1", rate: "12" }],
    });
    const hash = await send(
      testnet,
      await pay(
        testnet,
        payer,
        ada.kp.publicKey(),
        Asset.native(),
        "12",
        Memo.text(inv.invoiceNumber),
      ),
    );
    const confirmed = await anon.post("/api/payments/confirm", {
      invoiceId: inv.id,
      transactionHash: hash,
    });
    expect(confirmed.status).toBe(200);

    const { res, body } = await walletSession(payer);
    expect(res.status).toBe(200);
    expect(body).toEqual({
      status: "signed_in",
      business: "Ada Studio",
      clientEmail: "payer@example.com",
    });
    const cookie = (res.headers.get("set-cookie") as string).split(";")[0];
    const view = await (await portalGet(cookie)).json();
    expect(view.invoices.map((i: { id: string }) => i.id)).toEqual([inv.id]);
    expect(view.invoices[0]).toMatchObject({ status: "PAID", amountDue: "0.0000000" });
    expect(view.payments).toHaveLength(1);
    expect(view.payments[0]).toMatchObject({ transactionHash: hash, amount: "12.0000000" });
    expect((await fetch(`${app.url}${view.payments[0].receiptUrl}`)).status).toBe(200);

    const stranger = await funded(testnet);
    const refused = await walletSession(stranger);
    expect(refused.res.status).toBe(404);
    expect(refused.res.headers.get("set-cookie")).toBeNull();

    // A wallet that paid two freelancers picks one with the answer's pickToken.
    const boInv = await sentInvoice(bo, {
      clientName: "Wallet Payer",
      clientEmail: "payer@bo.example",
      lineItems: [{ description: "Work", quantity: "1", rate: "3" }],
    });
    const hash2 = await send(
      testnet,
      await pay(
        testnet,
        payer,
        bo.kp.publicKey(),
        Asset.native(),
        "3",
        Memo.text(boInv.invoiceNumber),
      ),
    );
    expect(
      (await anon.post("/api/payments/confirm", { invoiceId: boInv.id, transactionHash: hash2 }))
        .status,
    ).toBe(200);
    const choose = await walletSession(payer);
    expect(choose.body.status).toBe("choose");
    expect(choose.res.headers.get("set-cookie")).toBeNull();
    expect(
      choose.body.choices
        .map((c: { business: string; clientEmail: string }) => [c.business, c.clientEmail])
        .sort(),
    ).toEqual([
      ["Ada Studio", "payer@example.com"],
      ["Bo Works", "payer@bo.example"],
    ]);
    const picked = await fetch(`${app.url}/api/portal/wallet-session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        pickToken: choose.body.pickToken,
        ownerWallet: bo.kp.publicKey(),
        clientEmail: "payer@bo.example",
      }),
    });
    expect(picked.status).toBe(200);
    const boCookie = (picked.headers.get("set-cookie") as string).split(";")[0];
    const boView = await (await portalGet(boCookie)).json();
    expect(boView.invoices.map((i: { id: string }) => i.id)).toEqual([boInv.id]);
    // A pick the wallet did not pay for is refused, whatever it names.
    const forged = await fetch(`${app.url}/api/portal/wallet-session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        pickToken: choose.body.pickToken,
        ownerWallet: bo.kp.publicKey(),
        clientEmail: "client@example.com",
      }),
    });
    expect(forged.status).toBe(404);
  });
});

describe("the statement over the portal", () => {
  it("equals the freelancer's statement of that client, as JSON, CSV and PDF", async () => {
    const email = "statement@example.com";
    const payer = await funded(testnet);
    const one = await sentInvoice(ada, {
      clientName: "Statement Client",
      clientEmail: email,
      saveClient: true,
      lineItems: [{ description: "Work", quantity: "1", rate: "40" }],
    });
    await sentInvoice(ada, {
      clientName: "Statement Client",
      clientEmail: email,
      lineItems: [{ description: "More", quantity: "2", rate: "15" }],
    });
    const hash = await send(
      testnet,
      await pay(
        testnet,
        payer,
        ada.kp.publicKey(),
        Asset.native(),
        "25",
        Memo.text(one.invoiceNumber),
      ),
    );
    await anon.post("/api/payments/confirm", { invoiceId: one.id, transactionHash: hash });
    const list = await ada.api.get("/api/clients");
    const saved = (list.body.data ?? list.body).find((c: { email: string }) => c.email === email);
    expect(saved).toBeTruthy();

    const day = new Date().toISOString().slice(0, 10);
    const q = `from=2020-01-01&to=${day}`;
    const owner = await ada.api.get(`/api/clients/${saved.id}/statement?${q}`);
    expect(owner.status).toBe(200);

    const { nonce, message } = await requestNonce(app.url, payer.publicKey());
    const signed = await fetch(`${app.url}/api/portal/wallet-session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        walletAddress: payer.publicKey(),
        nonce,
        signature: signMessage(payer, message, { digest: "sep53", encoding: "base64" }),
      }),
    });
    const cookie = (signed.headers.get("set-cookie") as string).split(";")[0];
    const portal = await portalGet(cookie, `/api/portal/statement?${q}`);
    expect(portal.status).toBe(200);
    const body = await portal.json();
    expect(body).toEqual(owner.body);
    expect(body.currencies[0]).toMatchObject({
      currency: "XLM",
      invoiced: "70.0000000",
      paid: "25.0000000",
      closingBalance: "45.0000000",
    });

    const csv = await portalGet(cookie, `/api/portal/statement?${q}&format=csv`);
    const ownerCsv = await fetch(`${app.url}/api/clients/${saved.id}/statement?${q}&format=csv`, {
      headers: { authorization: `Bearer ${ada.token}` },
    });
    expect(await csv.text()).toBe(await ownerCsv.text());

    const pdf = await portalGet(cookie, `/api/portal/statement?${q}&format=pdf`);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const text = await flatPdfText(await pdf.arrayBuffer());
    expect(text).toContain(one.invoiceNumber);
    expect(text).toContain("Statement Client");
  });

  it("the freelancer emails the statement: the PDF attached and the portal's address, audited", async () => {
    const list = await ada.api.get("/api/clients");
    const saved = (list.body.data ?? list.body).find(
      (c: { email: string }) => c.email === "statement@example.com",
    );
    const day = new Date().toISOString().slice(0, 10);
    const sent = await ada.api.post(`/api/clients/${saved.id}/statement/send`, {
      from: "2020-01-01",
      to: day,
    });
    expect(sent.status).toBe(202);
    expect(sent.body.to).toBe("statement@example.com");
    expect(
      (
        await ada.api.post(`/api/clients/${saved.id}/statement/send`, {
          from: day,
          to: "2020-01-01",
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await bo.api.post(`/api/clients/${saved.id}/statement/send`, {
          from: "2020-01-01",
          to: day,
        })
      ).status,
    ).toBe(403);
    let got: CaughtMail | undefined;
    for (let i = 0; i < 50 && !got; i++) {
      await cron();
      got = smtp
        .to("statement@example.com")
        .find((m) => m.parsed.subject?.startsWith("Statement of account from Ada Studio"));
      if (!got) await new Promise((r) => setTimeout(r, 200));
    }
    if (!got) throw new Error("no statement email");
    expect(got.parsed.text).toContain(`${app.url}/portal`);
    const [attachment] = got.parsed.attachments;
    expect(attachment.contentType).toBe("application/pdf");
    expect(await flatPdfText(new Uint8Array(attachment.content))).toContain("Statement Client");
    const [audit] =
      await sql`select action, details from client_audit_logs where client_id = ${saved.id} and action = 'statement_sent'`;
    expect(audit.details).toMatchObject({ from: "2020-01-01", to: day });
  });
});

describe("sign-out", () => {
  it("ends the session and clears the cookie", async () => {
    const before = portalMails("client@example.com").length;
    await requestLink("client@example.com");
    const link = linksOf(await portalMail("client@example.com", before + 1))[0];
    const session = await openLink(link);
    expect((await portalGet(session.cookie)).status).toBe(200);
    const out = await fetch(`${app.url}/api/portal/sign-out`, {
      method: "POST",
      headers: { cookie: session.cookie as string },
    });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toMatch(/^portal_session=; Path=\/; Max-Age=0; HttpOnly/);
    expect((await portalGet(session.cookie)).status).toBe(401);
  });
});
