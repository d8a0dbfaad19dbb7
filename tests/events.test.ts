import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { INSUFFICIENT_SCOPE, READ_SCOPES } from "@/lib/domain/api-key-scopes";
import { newEventId } from "@/lib/ids";
import { ROUTE_SPECS } from "@/lib/openapi/routes";
import { EVENT_DATA, eventPage, UNKNOWN_EVENT_TYPE } from "@/lib/schemas/events";
import type { AuthedContext } from "@/lib/services/context";
import { withTransaction } from "@/lib/services/db";
import { EVENT_LIST_DAYS, listEvents, NO_SUCH_EVENT } from "@/lib/services/events/list-events";
import { EventPayloadError, writeEvent } from "@/lib/services/events/outbox";
import { applyTransition } from "@/lib/services/invoices/lifecycle";
import { lockLiveInvoice } from "@/lib/services/invoices/store";
import { envelopeBody } from "@/lib/webhooks/envelope";
import { deleteOldWebhookRecords, WEBHOOK_LOG_RETENTION_DAYS } from "@/lib/webhooks/retention";
import { z } from "@/lib/zod";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { testContext } from "./helpers/context";
import { createTestDatabase } from "./helpers/postgres";

// GET /api/events over HTTP (docs/decisions.md, Events): the wallet's outbox of the last 30
// days, newest first, in cursor pages.

const DAY = 86_400_000;

type EventBody = {
  id: string;
  type: string;
  created: number;
  createdAt: string;
  invoiceId: string | null;
  data: Record<string, unknown>;
};
type Page = { events: EventBody[]; limit: number; hasMore: boolean };

describe("GET /api/events", () => {
  let app: RunningApp;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: postgres.Sql;
  let handle: DatabaseHandle;
  let a: { api: Api; wallet: string };
  let b: { api: Api; wallet: string };
  /** Ids of events inserted with an old created_at (31 and 45 days ago), for wallet A. */
  const tooOld: string[] = [];
  /** An event of wallet A from 29 days ago: still listed. */
  let recentEnough = "";

  beforeAll(async () => {
    db = await createTestDatabase();
    app = await startApp({
      DATABASE_URL: db.url,
      RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
      RATE_LIMIT_INVOICES_PER_HOUR: "100000",
    });
    sql = postgres(db.url, { max: 2, onnotice: () => {} });
    handle = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent", migrate: false });
    a = await user();
    b = await user();

    // Wallet A: an event 29 days old first (lowest seq), then 7 invoices created and 3 sent
    // through the API, then events older than 30 days written last (highest seq), so the age
    // rule is what keeps them out, not the order.
    recentEnough = await insertEvent(a.wallet, 29);
    for (let i = 0; i < 7; i++) {
      const res = await a.api.post("/api/invoices", invoiceBody({ title: `Work ${i}` }));
      expect(res.status).toBe(201);
      if (i % 2 === 0 && i < 6) {
        expect((await a.api.post(`/api/invoices/${res.body.id}/send`)).status).toBe(200);
      }
    }
    tooOld.push(await insertEvent(a.wallet, 31), await insertEvent(a.wallet, 45));
    // Wallet B: two invoices of its own.
    for (let i = 0; i < 2; i++) {
      expect((await b.api.post("/api/invoices", invoiceBody())).status).toBe(201);
    }
  });

  afterAll(async () => {
    await handle?.close();
    await sql?.end();
    await app?.stop();
    await db?.drop();
  });

  async function user() {
    const s = await signIn(app.url);
    return { api: client(app.url, s.token), wallet: s.wallet };
  }

  /** An event written straight into the outbox, `daysAgo` old, already fanned out. */
  async function insertEvent(wallet: string, daysAgo: number): Promise<string> {
    const id = newEventId();
    const at = new Date(Date.now() - daysAgo * DAY);
    await sql`insert into events (id, type, wallet, invoice_id, data, created_at, fanned_out_at)
      values (${id}, 'invoice.expired', ${wallet}, null, ${sql.json({ old: daysAgo })}, ${at}, ${at})`;
    return id;
  }

  /** What the list must show for `wallet`: its events of the last 30 days, newest first. */
  async function expectedIds(wallet: string, type?: string): Promise<string[]> {
    const rows = await sql`select id from events
      where wallet = ${wallet} and created_at >= now() - interval '30 days'
        ${type ? sql`and type = ${type}` : sql``}
      order by seq desc`;
    return rows.map((r) => r.id as string);
  }

  /** Follows `starting_after` from the first page to the last; checks every page's shape. */
  async function walk(api: Api, params: string): Promise<{ ids: string[]; pages: Page[] }> {
    const pages: Page[] = [];
    let after = "";
    for (let i = 0; i < 50; i++) {
      const res = await api.get(`/api/events?${params}${after}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const page = res.body as Page;
      expect(eventPage.b.parse(page)).toStrictEqual(page);
      pages.push(page);
      if (!page.hasMore) break;
      after = `&starting_after=${page.events.at(-1)?.id}`;
    }
    return { ids: pages.flatMap((p) => p.events.map((e) => e.id)), pages };
  }

  it("pages with starting_after reach every event of the last 30 days once, newest first", async () => {
    const expected = await expectedIds(a.wallet);
    // 7 invoice.created + 3 invoice.sent + the one from 29 days ago.
    expect(expected).toHaveLength(11);
    const { ids, pages } = await walk(a.api, "limit=3");
    expect(ids).toEqual(expected);
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages.map((p) => p.events.length)).toEqual([3, 3, 3, 2]);
    expect(pages.map((p) => p.hasMore)).toEqual([true, true, true, false]);
    expect(pages.every((p) => p.limit === 3)).toBe(true);
    // Newest first also by time: createdAt never increases down the list.
    const all = pages.flatMap((p) => p.events);
    for (let i = 1; i < all.length; i++) {
      expect(Date.parse(all[i].createdAt)).toBeLessThanOrEqual(Date.parse(all[i - 1].createdAt));
    }
    expect(all.at(-1)?.id).toBe(recentEnough);
    // A page that ends exactly at the last event says so.
    const exact = await a.api.get(`/api/events?limit=11`);
    expect(exact.body.events).toHaveLength(11);
    expect(exact.body.hasMore).toBe(false);
    const after = await a.api.get(`/api/events?starting_after=${recentEnough}`);
    expect(after.status).toBe(200);
    expect(after.body).toEqual({ events: [], limit: 50, hasMore: false });
  });

  it("each event is the webhook body {id, type, created, data} plus createdAt and invoiceId", async () => {
    const res = await a.api.get("/api/events?limit=100");
    const rows = await sql`select id, type, invoice_id, data, created_at from events
      where wallet = ${a.wallet}`;
    const byId = new Map(rows.map((r) => [r.id as string, r]));
    for (const e of res.body.events as EventBody[]) {
      const row = byId.get(e.id);
      expect(row, e.id).toBeDefined();
      if (!row) continue;
      const webhookBody = JSON.parse(
        envelopeBody({
          id: row.id,
          type: row.type,
          data: row.data,
          createdAt: row.created_at,
        }).toString("utf8"),
      );
      const { createdAt, invoiceId, ...envelope } = e;
      expect(envelope).toEqual(webhookBody);
      expect(createdAt).toBe((row.created_at as Date).toISOString());
      expect(invoiceId).toBe(row.invoice_id);
    }
    const created = (res.body.events as EventBody[]).find((e) => e.type === "invoice.created");
    expect(created?.invoiceId).toBe(created?.data.id);
    expect(created?.data).toMatchObject({ clientName: "Ada Client", status: "DRAFT" });
  });

  it("type keeps one event type, and pages within it", async () => {
    const expected = await expectedIds(a.wallet, "invoice.sent");
    expect(expected).toHaveLength(3);
    const { ids, pages } = await walk(a.api, "type=invoice.sent&limit=2");
    expect(ids).toEqual(expected);
    expect(pages.map((p) => p.hasMore)).toEqual([true, false]);
    expect(pages.flatMap((p) => p.events).every((e) => e.type === "invoice.sent")).toBe(true);
    // A cursor of another type still places the page.
    const newestCreated = (await expectedIds(a.wallet, "invoice.created"))[0];
    const all = await expectedIds(a.wallet);
    const afterIt = all.slice(all.indexOf(newestCreated) + 1);
    const res = await a.api.get(`/api/events?type=invoice.sent&starting_after=${newestCreated}`);
    expect(res.body.events.map((e: EventBody) => e.id)).toEqual(
      afterIt.filter((id) => expected.includes(id)),
    );
    const none = await a.api.get("/api/events?type=payment.refunded");
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ events: [], limit: 50, hasMore: false });
  });

  it("never shows another wallet's events; its event id as starting_after is a 400", async () => {
    const ofB = await walk(b.api, "limit=1");
    expect(ofB.ids).toEqual(await expectedIds(b.wallet));
    expect(ofB.ids).toHaveLength(2);
    const ofA = await expectedIds(a.wallet);
    expect(ofB.ids.some((id) => ofA.includes(id))).toBe(false);
    expect(
      ofB.pages.flatMap((p) => p.events).every((e) => e.data.freelancerWallet === b.wallet),
    ).toBe(true);

    // B's event id as A's cursor answers exactly as an id that does not exist.
    const foreign = await a.api.get(`/api/events?starting_after=${ofB.ids[0]}`);
    const unknown = await a.api.get(`/api/events?starting_after=${newEventId()}`);
    for (const res of [foreign, unknown]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: "Invalid request",
        code: "VALIDATION_ERROR",
        details: { starting_after: NO_SUCH_EVENT },
      });
    }
    expect(JSON.stringify(foreign.body)).not.toContain(b.wallet);
  });

  it("leaves out events older than 30 days, which retention may then delete", async () => {
    expect(EVENT_LIST_DAYS).toBe(30);
    // Retention never deletes an event the list can still show.
    expect(WEBHOOK_LOG_RETENTION_DAYS).toBeGreaterThanOrEqual(EVENT_LIST_DAYS);
    const listed = async () =>
      ((await a.api.get("/api/events?limit=100")).body.events as EventBody[]).map((e) => e.id);
    const before = await listed();
    expect(before).toContain(recentEnough);
    for (const id of tooOld) expect(before).not.toContain(id);
    // Still in the table (retention has not run), yet not listed: the age filter does it.
    const [{ n }] = await sql`select count(*)::int as n from events where id in ${sql(tooOld)}`;
    expect(n).toBe(2);
    // An old event of the caller's is still a place in the order (by seq): they were written
    // last, so every listed event comes after them.
    const afterOld = await a.api.get(`/api/events?limit=100&starting_after=${tooOld[0]}`);
    expect(afterOld.status).toBe(200);
    expect(afterOld.body.events.map((e: EventBody) => e.id)).toEqual(before);

    const removed = await deleteOldWebhookRecords(handle.db, new Date());
    expect(removed.events).toBe(2);
    expect(await listed()).toEqual(before);
  });

  it("rejects a bad limit, type or starting_after with a 400 and details, in both forms", async () => {
    const cases: [string, string, string][] = [
      ["limit=0", "limit", "limit must be a whole number from 1 to 100"],
      ["limit=101", "limit", "limit must be a whole number from 1 to 100"],
      ["limit=2.5", "limit", "limit must be a whole number from 1 to 100"],
      ["limit=ten", "limit", "limit must be a whole number from 1 to 100"],
      ["type=invoice.nope", "type", UNKNOWN_EVENT_TYPE],
      ["type=*", "type", UNKNOWN_EVENT_TYPE],
      ["starting_after=inv_123", "starting_after", "starting_after must be an event id (evt_...)"],
      ["startingAfter=evt_x", "body", 'Unrecognized key: "startingAfter"'],
    ];
    for (const [query, field, message] of cases) {
      const res = await a.api.get(`/api/events?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code, query).toBe("VALIDATION_ERROR");
      expect(res.body.error, query).toBe("Invalid request");
      expect(res.body.details?.[field], query).toBe(message);
      const formA = await a.api.get(`/api/events?${query}&envelope=true`);
      expect(formA.status, query).toBe(400);
      expect(formA.body).toMatchObject({
        success: false,
        error: { code: "VALIDATION_ERROR", details: { [field]: message } },
      });
    }
  });

  it("answers Form A as {success, data}, 20 a page by default (50 in Form B); 401 without a token", async () => {
    const formA = await a.api.get("/api/events?envelope=true");
    expect(formA.status).toBe(200);
    expect(formA.body.success).toBe(true);
    expect(formA.body.data).toEqual((await a.api.get("/api/events?limit=20")).body);
    expect(z.object({ success: z.literal(true), data: eventPage.a }).parse(formA.body)).toEqual(
      formA.body,
    );
    expect((await a.api.get("/api/events")).body.limit).toBe(50);
    const anon = await client(app.url).get("/api/events");
    expect(anon.status).toBe(401);
  });

  it("through an API key lists only the events of invoices on the key's network", async () => {
    const c = await user();
    const testnet = await c.api.post("/api/invoices", invoiceBody({ network: "testnet" }));
    const mainnet = await c.api.post("/api/invoices", invoiceBody({ network: "mainnet" }));
    expect([testnet.status, mainnet.status]).toEqual([201, 201]);
    const owner: AuthedContext = {
      ...testContext(handle, db.url, () => new Date()),
      wallet: c.wallet,
    };
    const through = (network: "testnet" | "mainnet"): AuthedContext => ({
      ...owner,
      apiKey: {
        id: `key_${network}`,
        wallet: c.wallet,
        prefix: network === "testnet" ? "sk_test_abcdefgh" : "sk_live_abcdefgh",
        scopes: ["invoices:read"],
        network,
      },
    });
    const invoicesOf = async (ctx: AuthedContext) =>
      (await listEvents(ctx, { limit: 100 })).events.map((e) => e.invoiceId);
    expect(await invoicesOf(owner)).toEqual([mainnet.body.id, testnet.body.id]);
    expect(await invoicesOf(through("testnet"))).toEqual([testnet.body.id]);
    expect(await invoicesOf(through("mainnet"))).toEqual([mainnet.body.id]);
    // The other network's event is no cursor for the key either: as if it did not exist.
    const [mainnetEvent] = (await listEvents(through("mainnet"), { limit: 1 })).events;
    await expect(
      listEvents(through("testnet"), { limit: 10, startingAfter: mainnetEvent.id }),
    ).rejects.toMatchObject({
      message: "Invalid request",
      details: { starting_after: NO_SUCH_EVENT },
    });
  });

  it("answers a key with a read scope, on its network only; 403 for a key without one", async () => {
    const d = await user();
    const testnet = await d.api.post("/api/invoices", invoiceBody({ network: "testnet" }));
    const mainnet = await d.api.post("/api/invoices", invoiceBody({ network: "mainnet" }));
    expect([testnet.status, mainnet.status]).toEqual([201, 201]);
    const key = async (scopes: string[], network = "testnet") => {
      const res = await d.api.post("/api/keys", { name: scopes.join(" "), scopes, network });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return client(app.url, res.body.secret as string);
    };
    const invoicesIn = (res: { body: Page }) => res.body.events.map((e) => e.invoiceId);
    for (const scopes of [["invoices:read"], ["clients:read"]]) {
      const res = await (await key(scopes)).get("/api/events");
      expect(res.status, scopes[0]).toBe(200);
      expect(invoicesIn(res)).toEqual([testnet.body.id]);
    }
    const live = await (await key(["invoices:read"], "mainnet")).get("/api/events");
    expect(invoicesIn(live)).toEqual([mainnet.body.id]);
    const writer = await (await key(["webhooks:write", "invoices:write"])).get("/api/events");
    expect(writer.status).toBe(403);
    expect(writer.body.error).toBe(INSUFFICIENT_SCOPE);
  });

  it("an invoice cancelled through an API key names the owner's wallet in cancelledBy, as documented", async () => {
    const e = await user();
    const key = await e.api.post("/api/keys", {
      name: "integration",
      scopes: ["invoices:write", "invoices:read"],
      network: "testnet",
    });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const viaKey = client(app.url, key.body.secret as string);
    const created = await viaKey.post("/api/invoices", invoiceBody({ network: "testnet" }));
    expect(created.status).toBe(201);
    const cancelled = await viaKey.post(`/api/invoices/${created.body.id}/cancel`, {
      reason: "Ordered twice",
    });
    expect(cancelled.status).toBe(200);
    const res = await e.api.get("/api/events?type=invoice.cancelled");
    expect(res.body.events).toHaveLength(1);
    const data = (res.body.events as EventBody[])[0].data;
    expect(data).toMatchObject({
      id: created.body.id,
      cancelledBy: e.wallet,
      reason: "Ordered twice",
    });
    expect(EVENT_DATA["invoice.cancelled"].safeParse(data).success).toBe(true);
    // The audit trail still names the key that did it.
    const [entry] = await sql`select actor_wallet from invoice_audit_logs
      where invoice_id = ${created.body.id} and action = 'CANCELLED'`;
    expect(entry.actor_wallet).toMatch(/^key:sk_test_/);
  });

  it("an event its schema refuses rolls back the change that caused it", async () => {
    const f = await user();
    const created = await f.api.post("/api/invoices", invoiceBody());
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const at = new Date();
    const change = withTransaction(handle.db, async (tx) => {
      const row = await lockLiveInvoice(tx, id);
      await applyTransition(tx, row, "cancel", { actor: f.wallet, at, reason: null });
      // A builder's bug: invoice.paid without the payment's hash.
      await writeEvent(tx, {
        type: "invoice.paid",
        data: { id, invoiceNumber: "INV-0001", status: "PAID" } as never,
        wallet: f.wallet,
        invoiceId: id,
        at,
      });
    });
    await expect(change).rejects.toBeInstanceOf(EventPayloadError);
    const [row] = await sql`select status from invoices where id = ${id}`;
    expect(row.status).toBe("DRAFT");
    const written = await sql`select type from events where invoice_id = ${id} order by seq`;
    expect(written.map((r) => r.type)).toEqual(["invoice.created"]);
    const audit = await sql`select action from invoice_audit_logs where invoice_id = ${id}`;
    expect(audit.map((r) => r.action)).toEqual(["CREATED"]);
  });

  it("is documented as a read for restricted keys (any read scope)", () => {
    const op = ROUTE_SPECS.find((o) => o.path === "/api/events");
    expect(op?.auth).toBe("authed");
    expect(op?.scope).toEqual(READ_SCOPES);
  });
});
