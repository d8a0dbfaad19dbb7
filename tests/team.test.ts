import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROUTE_SPECS } from "@/lib/openapi/routes";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { createTestDatabase } from "./helpers/postgres";

/**
 * Team access (docs/decisions.md, Team access) through the real server and PostgreSQL:
 * invitations (accept, expire, revoke on the very next request), the member's writes audited
 * with its own wallet, every operation of the registry against an explicit table of who may
 * call it, and IDOR: a member on A's books never reaches B's data, nor A's through its own key.
 */
let app: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;

type Who = { token: string; wallet: string; api: Api };
let ownerA: Who;
let ownerB: Who;
let member: Who;

const MISSING = "zzzzzzzzzzzzzzzzzzzzzzzz";

async function who(): Promise<Who> {
  const s = await signIn(app.url);
  return { token: s.token, wallet: s.wallet, api: client(app.url, s.token) };
}

/** Invites `wallet` to `owner`'s books and opens them as it: the books token's client. */
async function joined(owner: Who, invitee: Who, role: "accountant" | "member") {
  const invited = await owner.api.post("/api/team", { wallet: invitee.wallet, role });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  const opened = await invitee.api.post(`/api/team/books/${owner.wallet}/session`);
  expect(opened.status, JSON.stringify(opened.body)).toBe(200);
  const token = opened.body.token as string;
  return { id: invited.body.id as string, token, api: client(app.url, token) };
}

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startApp({
    DATABASE_URL: db.url,
    RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
  });
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
  ownerA = await who();
  ownerB = await who();
  member = await who();
  expect(
    (await ownerA.api.put("/api/profile", { company: "Ada Studio", displayName: "Ada" })).status,
  ).toBe(200);
});

afterAll(async () => {
  await sql?.end();
  await app?.stop();
  await db?.drop();
});

describe("invitations", () => {
  it("refuses one's own wallet and a malformed address, naming wallet; a second live one is 409", async () => {
    const self = await ownerA.api.post("/api/team", { wallet: ownerA.wallet, role: "member" });
    expect(self.status).toBe(400);
    expect(self.body.details).toHaveProperty("wallet");
    const bad = await ownerA.api.post("/api/team", {
      wallet: `${ownerA.wallet.slice(0, -1)}A`,
      role: "member",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toHaveProperty("wallet");
    const role = await ownerA.api.post("/api/team", { wallet: member.wallet, role: "boss" });
    expect(role.status).toBe(400);
    expect(role.body.details).toHaveProperty("role");
    const x = await who();
    expect((await ownerA.api.post("/api/team", { wallet: x.wallet, role: "member" })).status).toBe(
      201,
    );
    expect((await ownerA.api.post("/api/team", { wallet: x.wallet, role: "member" })).status).toBe(
      409,
    );
  });

  it("pending, accepted by the first books session, expired past 7 days, revoked at once", async () => {
    const invitee = await who();
    const invited = await ownerA.api.post("/api/team", {
      wallet: invitee.wallet,
      role: "accountant",
    });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({
      wallet: invitee.wallet,
      role: "accountant",
      state: "pending",
    });
    expect(Date.parse(invited.body.expiresAt) - Date.parse(invited.body.invitedAt)).toBe(
      7 * 86_400_000,
    );
    // The invited wallet sees the books, with the owner's business name.
    const books = await invitee.api.get("/api/team/books");
    expect(books.status).toBe(200);
    expect(books.body).toEqual([
      expect.objectContaining({
        owner: ownerA.wallet,
        businessName: "Ada Studio",
        role: "accountant",
        state: "pending",
      }),
    ]);
    // Opening accepts; the token's requests act on A's books.
    const opened = await invitee.api.post(`/api/team/books/${ownerA.wallet}/session`);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ books: ownerA.wallet, role: "accountant" });
    const asAccountant = client(app.url, opened.body.token);
    expect((await asAccountant.get("/api/auth/session")).body.walletAddress).toBe(ownerA.wallet);
    const team = (await ownerA.api.get("/api/team")).body;
    expect(team.find((m: any) => m.id === invited.body.id)).toMatchObject({ state: "active" });
    expect((await asAccountant.get("/api/invoices")).status).toBe(200);

    // Revoked: the very next request is refused, though the token has not expired.
    const revoked = await ownerA.api.delete(`/api/team/${invited.body.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.state).toBe("revoked");
    const after = await asAccountant.get("/api/invoices");
    expect(after.status).toBe(403);
    expect(after.body.error).toMatch(/no longer have access to these books/);
    // And it cannot be reopened; its own books still work.
    expect((await invitee.api.post(`/api/team/books/${ownerA.wallet}/session`)).status).toBe(404);
    expect((await invitee.api.get("/api/invoices")).status).toBe(200);
    expect((await invitee.api.get("/api/team/books")).body).toEqual([]);

    // Expired: an invitation not accepted within 7 days (its expiry moved into the past).
    const late = await who();
    const lateInvite = await ownerA.api.post("/api/team", { wallet: late.wallet, role: "member" });
    await sql`update team_members set invited_at = now() - interval '8 days',
      expires_at = now() - interval '1 day' where id = ${lateInvite.body.id}`;
    expect((await late.api.get("/api/team/books")).body[0].state).toBe("expired");
    const refused = await late.api.post(`/api/team/books/${ownerA.wallet}/session`);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/invitation has expired/);
    const listed = (await ownerA.api.get("/api/team")).body;
    expect(listed.find((m: any) => m.id === lateInvite.body.id).state).toBe("expired");
    // Invited again, it works.
    const again = await ownerA.api.post("/api/team", { wallet: late.wallet, role: "member" });
    expect(again.status).toBe(201);
    expect((await late.api.post(`/api/team/books/${ownerA.wallet}/session`)).status).toBe(200);

    // Another owner's row is 404, to change and to revoke.
    expect((await ownerB.api.delete(`/api/team/${again.body.id}`)).status).toBe(404);
    expect(
      (await ownerB.api.patch(`/api/team/${again.body.id}`, { role: "accountant" })).status,
    ).toBe(404);
  });

  it("a role change applies on the member's next request", async () => {
    const w = await who();
    const { id, api } = await joined(ownerA, w, "member");
    expect(
      (await api.post("/api/clients", { name: "Temp", email: "temp@example.com" })).status,
    ).toBe(201);
    expect((await ownerA.api.patch(`/api/team/${id}`, { role: "accountant" })).status).toBe(200);
    const refused = await api.post("/api/clients", { name: "Temp2", email: "t2@example.com" });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/^Your role \(accountant\)/);
  });
});

describe("a member's writes", () => {
  it("are audited with the member's wallet as the actor, on the owner's invoice", async () => {
    const { api } = await joined(ownerA, member, "member");
    const created = await api.post("/api/invoices", invoiceBody({ title: "By the member" }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.freelancerWallet ?? ownerA.wallet).toBe(ownerA.wallet);
    expect((await api.patch(`/api/invoices/${created.body.id}`, { title: "Edited" })).status).toBe(
      200,
    );
    // The owner sees it in its own books, and who did what.
    const view = await ownerA.api.get(`/api/invoices/${created.body.id}/owner`);
    expect(view.status).toBe(200);
    const actors = view.body.auditLogs.map((e: any) => [e.action, e.actorWallet]);
    expect(actors).toEqual([
      ["CREATED", member.wallet],
      ["UPDATED", member.wallet],
    ]);
    // The member's own books hold nothing of it.
    expect((await member.api.get("/api/invoices")).body.total).toBe(0);
  });

  it("an Idempotency-Key works for a member: replayed in the same books, its own in each books", async () => {
    const m2 = await who();
    const aBooks = await joined(ownerA, m2, "member");
    const bBooks = await joined(ownerB, m2, "member");
    const ids: string[] = [];
    for (const books of [aBooks.api, bBooks.api]) {
      const inv = await books.post("/api/invoices", invoiceBody());
      expect(inv.status).toBe(201);
      await sql`update invoices set status = 'PENDING', sent_at = now() where id = ${inv.body.id}`;
      ids.push(inv.body.id);
    }
    const credit = (token: string, invoiceId: string) =>
      fetch(`${app.url}/api/invoices/${invoiceId}/credit-notes`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "idempotency-key": "same-key-1",
        },
        body: JSON.stringify({ reason: "Wrong rate" }),
      });
    const created: string[] = [];
    for (const [i, books] of [aBooks, bBooks].entries()) {
      const res = await credit(books.token, ids[i]);
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(201);
      expect(res.headers.get("idempotent-replayed")).toBeNull();
      created.push(body.id);
    }
    expect(new Set(created).size).toBe(2);
    // The same request again in A's books is the stored answer, nothing new.
    const again = await credit(aBooks.token, ids[0]);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await again.json()).id).toBe(created[0]);
    const [{ n }] =
      await sql`select count(*)::int as n from credit_notes where invoice_id = ${ids[0]}`;
    expect(n).toBe(1);
  });
});

/**
 * Who may call each signed-in operation, written out here (not read from the production rule,
 * so a wrong default fails this test). Every other signed-in operation is a write: a member
 * may, an accountant may not.
 */
const OWNER_ONLY = new Set([
  "deleteSessions",
  "createApiKey",
  "listApiKeys",
  "revokeApiKey",
  "createRefund",
  "submitRefund",
  "putProfile",
  "createWebhook",
  "listWebhooks",
  "deleteWebhook",
  "rotateWebhookSecret",
  "sendWebhookTestEvent",
  "listWebhookDeliveries",
  "retryWebhookDelivery",
  "listTeam",
  "inviteTeamMember",
  "changeTeamRole",
  "revokeTeamMember",
  "listTeamBooks",
  "openTeamBooks",
]);
const ACCOUNTANT_MAY = new Set([
  "deleteSession",
  "getSession",
  "listInvoices",
  "getInvoiceStats",
  "getOwnerInvoice",
  "getInvoicePdf",
  "getInvoiceEInvoice",
  "exportPayments",
  "exportInvoices",
  "exportCreditNotes",
  "getWalletReadiness",
  "listCreditNotes",
  "getCreditNote",
  "getCreditNotePdf",
  "getCreditNoteEInvoice",
  "listQuotes",
  "getOwnerQuote",
  "listInvoiceEmails",
  "listClients",
  "getClientStatement",
  "listClientPortalSessions",
  "getProfile",
  "listRecurring",
  "getRecurring",
  "listLinks",
  "listLinkPayments",
  "listEvents",
]);

describe("the permission matrix", () => {
  it("every signed-in operation of the registry: allowed or 403 as the table says, per role", async () => {
    const authed = ROUTE_SPECS.filter((op) => op.auth === "authed");
    expect(authed.length).toBeGreaterThan(70);
    const ids = new Set(authed.map((op) => op.operationId));
    for (const id of [...OWNER_ONLY, ...ACCOUNTANT_MAY]) expect(ids, id).toContain(id);

    const roles = {
      accountant: (await joined(ownerA, await who(), "accountant")).api,
      member: (await joined(ownerA, await who(), "member")).api,
    };
    const checked: string[] = [];
    for (const op of authed) {
      // Signing out would end the token the rest of the loop uses: it is checked last.
      if (op.operationId === "deleteSession") continue;
      const method = typeof op.method === "string" ? op.method : op.method[0];
      const path = op.path.replace(/\{[^}]+\}/g, MISSING);
      const body = ["POST", "PUT", "PATCH"].includes(method) ? {} : undefined;
      for (const [role, api] of Object.entries(roles)) {
        const allowed =
          !OWNER_ONLY.has(op.operationId) &&
          (role === "member" || ACCOUNTANT_MAY.has(op.operationId));
        const res =
          method === "GET"
            ? await api.get(path)
            : method === "DELETE"
              ? await api.delete(path)
              : method === "PUT"
                ? await api.put(path, body)
                : method === "PATCH"
                  ? await api.patch(path, body)
                  : await api.post(path, body);
        const what = `${role} ${op.operationId} -> ${res.status} ${JSON.stringify(res.body)}`;
        if (allowed) {
          expect([401, 403, 500], what).not.toContain(res.status);
        } else {
          expect(res.status, what).toBe(403);
          expect(res.body.error, what).toMatch(new RegExp(`^Your role \\(${role}\\)`));
        }
      }
      checked.push(op.operationId);
    }
    expect(checked.length).toBe(authed.length - 1);
    // Signing out one's books token is for any role; afterwards the token is refused (401).
    for (const api of Object.values(roles)) {
      expect((await api.delete("/api/auth/session")).status).toBe(204);
      expect((await api.get("/api/invoices")).status).toBe(401);
    }
  });
});

async function checksum() {
  const out: string[] = [];
  for (const t of [
    "invoices",
    "invoice_line_items",
    "invoice_audit_logs",
    "clients",
    "payments",
    "credit_notes",
    "sales_quotes",
    "recurring_schedules",
    "quote_audit_logs",
  ]) {
    const [r] = await sql.unsafe(
      `select count(*) || ':' || coalesce(md5(string_agg(x::text, ',' order by x::text)), '') as v from ${t} x`,
    );
    out.push(`${t}=${r.v}`);
  }
  return out.join(" ");
}

describe("IDOR", () => {
  it("a member on A's books gets what A itself gets on B's ids (403 Unauthorized or 404), and nothing changes", async () => {
    const { api: onA } = await joined(ownerA, await who(), "member");
    const b = ownerB.api;
    const invoice = (await b.post("/api/invoices", invoiceBody())).body;
    await sql`update invoices set status = 'PENDING', sent_at = now() where id = ${invoice.id}`;
    const clientB = (await b.post("/api/clients", { name: "B's", email: "bs@example.com" })).body;
    const quote = (
      await b.post("/api/quotes", {
        clientName: "Q",
        clientEmail: "q@example.com",
        title: "Q",
        currency: "XLM",
        lineItems: [{ description: "x", quantity: "1", rate: "10" }],
      })
    ).body;
    expect(quote.id, JSON.stringify(quote)).toBeTruthy();
    const note = (await b.post(`/api/invoices/${invoice.id}/credit-notes`, { reason: "Less" }))
      .body;
    expect(note.id, JSON.stringify(note)).toBeTruthy();
    const paymentId = "payidor".padEnd(24, "a");
    await sql`insert into payments (id, invoice_id, transaction_hash, ledger_number, from_wallet,
      to_wallet, amount, asset, confirmed_at)
      values (${paymentId}, ${invoice.id}, ${"c".repeat(64)}, 10,
        ${"GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7"}, ${ownerB.wallet}, 1, 'XLM', now())`;
    const link = (await b.post("/api/links", { amount: "5", asset: "XLM" })).body;
    const schedule = (
      await b.post("/api/recurring", {
        template: invoiceBody({ title: "Retainer" }),
        interval: "month",
        startDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
        count: 3,
      })
    ).body;
    expect(schedule.id, JSON.stringify(schedule)).toBeTruthy();

    const calls: [string, (api: Api) => Promise<{ status: number; body: any }>][] = [
      ["invoice owner view", (a) => a.get(`/api/invoices/${invoice.id}/owner`)],
      ["invoice update", (a) => a.patch(`/api/invoices/${invoice.id}`, { title: "mine" })],
      ["invoice send", (a) => a.post(`/api/invoices/${invoice.id}/send`)],
      ["invoice cancel", (a) => a.post(`/api/invoices/${invoice.id}/cancel`, { reason: "x" })],
      ["invoice delete", (a) => a.delete(`/api/invoices/${invoice.id}`)],
      ["invoice duplicate", (a) => a.post(`/api/invoices/${invoice.id}/duplicate`)],
      ["invoice pdf", (a) => a.get(`/api/invoices/${invoice.id}/pdf`)],
      ["invoice e-invoice", (a) => a.get(`/api/invoices/${invoice.id}/einvoice`)],
      ["invoice emails", (a) => a.get(`/api/invoices/${invoice.id}/emails`)],
      ["invoice email", (a) => a.post(`/api/invoices/${invoice.id}/email`, { to: "me@x.com" })],
      [
        "credit an invoice",
        (a) => a.post(`/api/invoices/${invoice.id}/credit-notes`, { reason: "x" }),
      ],
      [
        "manual payment",
        (a) =>
          a.post(`/api/invoices/${invoice.id}/payments`, {
            amount: "1",
            method: "bank_transfer",
            receivedOn: "2026-01-01",
          }),
      ],
      ["void payment", (a) => a.delete(`/api/invoices/${invoice.id}/payments/${paymentId}`)],
      ["credit note", (a) => a.get(`/api/credit-notes/${note.id}`)],
      ["credit note pdf", (a) => a.get(`/api/credit-notes/${note.id}/pdf`)],
      ["credit note e-invoice", (a) => a.get(`/api/credit-notes/${note.id}/einvoice`)],
      ["quote owner view", (a) => a.get(`/api/quotes/${quote.id}/owner`)],
      ["quote update", (a) => a.patch(`/api/quotes/${quote.id}`, { title: "mine" })],
      ["quote send", (a) => a.post(`/api/quotes/${quote.id}/send`)],
      ["quote delete", (a) => a.delete(`/api/quotes/${quote.id}`)],
      [
        "client favorite",
        (a) => a.patch(`/api/clients/${clientB.id}/favorite`, { isFavorite: true }),
      ],
      [
        "client statement",
        (a) => a.get(`/api/clients/${clientB.id}/statement?from=2026-01-01&to=2026-12-31`),
      ],
      ["client delete", (a) => a.delete(`/api/clients/${clientB.id}`)],
      ["link update", (a) => a.patch(`/api/links/${link.id}`, { description: "mine" })],
      ["link payments", (a) => a.get(`/api/links/${link.id}/payments`)],
      ["link deactivate", (a) => a.post(`/api/links/${link.id}/deactivate`)],
      ["recurring view", (a) => a.get(`/api/recurring/${schedule.id}`)],
      ["recurring update", (a) => a.patch(`/api/recurring/${schedule.id}`, { count: 9 })],
      ["recurring pause", (a) => a.post(`/api/recurring/${schedule.id}/pause`)],
      ["recurring delete", (a) => a.delete(`/api/recurring/${schedule.id}`)],
    ];
    const before = await checksum();
    for (const [name, call] of calls) {
      const asOwner = await call(ownerA.api);
      const asMember = await call(onA);
      expect([403, 404], `${name}: ${JSON.stringify(asMember.body)}`).toContain(asMember.status);
      expect(asMember.status, name).toBe(asOwner.status);
      expect(asMember.body?.error, name).toBe(asOwner.body?.error);
    }
    // The refund endpoints are the owner's alone: a member is refused before any lookup.
    const refund = await onA.post(`/api/invoices/${invoice.id}/payments/${paymentId}/refund`, {});
    expect(refund.status).toBe(403);
    expect(await checksum()).toBe(before);

    // Lists on A's books never show B's.
    const text = JSON.stringify([
      (await onA.get("/api/invoices")).body,
      (await onA.get("/api/clients")).body,
      (await onA.get("/api/quotes")).body,
      (await onA.get("/api/credit-notes")).body,
      (await onA.get("/api/links")).body,
      (await onA.get("/api/recurring")).body,
      (await onA.get("/api/events")).body,
    ]);
    for (const id of [invoice.id, clientB.id, quote.id, note.id, link.id, schedule.id]) {
      expect(text).not.toContain(id);
    }
  });

  it("a member's own API key reaches only its own books, never the books it was invited to", async () => {
    const w = await who();
    const { api: onA } = await joined(ownerA, w, "member");
    const mine = await onA.post("/api/invoices", invoiceBody({ title: "In A's books" }));
    expect(mine.status).toBe(201);
    const key = await w.api.post("/api/keys", {
      name: "Mine",
      scopes: ["invoices:read", "invoices:write"],
    });
    expect(key.status).toBe(201);
    const withKey = client(app.url, key.body.secret);
    expect((await withKey.get("/api/invoices")).body.total).toBe(0);
    const view = await withKey.get(`/api/invoices/${mine.body.id}/owner`);
    expect(view.status).toBe(403);
    expect(view.body.error).toBe("Unauthorized");
    // Nor can a key (or a books token) open books.
    expect((await withKey.post(`/api/team/books/${ownerA.wallet}/session`)).status).toBe(403);
    expect((await onA.post(`/api/team/books/${ownerA.wallet}/session`)).status).toBe(403);
    expect((await onA.get("/api/team/books")).status).toBe(403);
  });
});
