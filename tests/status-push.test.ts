import type { Keypair } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp, TEST_CRON_SECRET } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { type LedgerApp, startLedgerApp, stopLedgerApp } from "./helpers/ledger-app";
import { Asset, chainEnv, funded, Memo, pay, send } from "./helpers/stellar";

// The pushed status and the status cache (docs/decisions.md, "Pushed status"): two app
// instances on one real PostgreSQL; payments are real signed transactions on the local ledger,
// recorded through instance A, while the payer's page follows instance B.

let s: LedgerApp;
let b: RunningApp;
let f: { kp: Keypair; api: Api };
let payer: Keypair;

const PER_IP = 3;

beforeAll(async () => {
  s = await startLedgerApp();
  b = await startApp({
    DATABASE_URL: s.db.url,
    RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
    STATUS_STREAMS_PER_IP: String(PER_IP),
    ...chainEnv(s.testnet, s.mainnet),
    ...s.prices.env,
  });
  const kp = await funded(s.testnet);
  f = { kp, api: client(s.app.url, (await signIn(s.app.url, kp)).token) };
  payer = await funded(s.testnet);
  // The watcher's cursor starts here, so the late payment below is after it.
  await watcherTick();
});

const watcherTick = () =>
  fetch(`${s.app.url}/api/cron/watcher`, {
    headers: { authorization: `Bearer ${TEST_CRON_SECRET}` },
  }).then((r) => r.json());

afterAll(async () => {
  await b?.stop();
  await stopLedgerApp(s ?? {});
});

type Message = { id?: string; data?: string; retry?: number; comment?: string };

/** A server-sent event stream as a browser's EventSource reads it, message by message. */
async function openStream(base: string, invoiceId: string) {
  const ctrl = new AbortController();
  const res = await fetch(`${base}/api/payments/${invoiceId}/events`, { signal: ctrl.signal });
  const messages: Message[] = [];
  const waiters: (() => void)[] = [];
  if (res.ok && res.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = "";
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const m: Message = {};
            for (const line of block.split("\n")) {
              if (line.startsWith(":")) m.comment = line.slice(1).trim();
              else if (line.startsWith("id: ")) m.id = line.slice(4);
              else if (line.startsWith("data: ")) m.data = line.slice(6);
              else if (line.startsWith("retry: ")) m.retry = Number(line.slice(7));
            }
            messages.push(m);
            for (const w of waiters.splice(0)) w();
          }
        }
      } catch {
        // aborted
      }
    })();
  }
  /** The status messages received so far, parsed. */
  const statuses = () =>
    messages.filter((m) => m.data).map((m) => JSON.parse(m.data as string) as StatusBody);
  /** Waits for a status message that `match`es. */
  const until = async (match: (s: StatusBody) => boolean, ms = 10_000) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = statuses().find(match);
      if (found) return found;
      if (Date.now() > deadline) {
        throw new Error(`no matching message in ${ms} ms: ${JSON.stringify(statuses())}`);
      }
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 200);
      });
    }
  };
  return { res, messages, statuses, until, close: () => ctrl.abort() };
}

type StatusBody = {
  invoiceId: string;
  status: string;
  amountPaid: string;
  amountDue: string;
  payments: unknown[];
};

async function sentInvoice(total = "25") {
  const created = await f.api.post(
    "/api/invoices",
    invoiceBody({ lineItems: [{ description: "Work", quantity: "1", rate: total }] }),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await f.api.post(`/api/invoices/${created.body.id}/send`)).status).toBe(200);
  return created.body as { id: string; invoiceNumber: string };
}

/** Pays `amount` XLM with the invoice's memo and records it through instance A. */
async function payThroughA(inv: { id: string; invoiceNumber: string }, amount: string) {
  const hash = await send(
    s.testnet,
    await pay(
      s.testnet,
      payer,
      f.kp.publicKey(),
      Asset.native(),
      amount,
      Memo.text(inv.invoiceNumber),
    ),
  );
  await s.anon.post("/api/payments/confirm", { invoiceId: inv.id, transactionHash: hash });
  return hash;
}

const status = (base: string, id: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/api/payments/${id}/status`, { headers });

describe("GET /api/payments/:invoiceId/events", () => {
  it("sends the status at once, then every change committed through another instance", async () => {
    const inv = await sentInvoice("25");
    const stream = await openStream(b.url, inv.id);
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(stream.res.headers.get("cache-control")).toContain("no-transform");

    const first = await stream.until((m) => m.status === "PENDING");
    expect(first).toMatchObject({ amountPaid: "0.0000000", amountDue: "25.0000000" });
    expect(stream.messages[0].retry).toBe(5000);
    // The message is the status endpoint's body, and its id that body's ETag.
    const polled = await status(b.url, inv.id);
    expect(await polled.json()).toEqual(first);
    expect(stream.messages[1].id).toBe(polled.headers.get("etag"));

    await payThroughA(inv, "10");
    const partial = await stream.until((m) => m.amountPaid === "10.0000000");
    expect(partial).toMatchObject({ status: "PENDING", amountDue: "15.0000000" });
    expect(partial.payments).toHaveLength(1);

    await payThroughA(inv, "15");
    const paid = await stream.until((m) => m.status === "PAID");
    expect(paid).toMatchObject({ amountPaid: "25.0000000", amountDue: "0.0000000" });
    // One message per change: nothing repeated.
    expect(stream.statuses().map((m) => `${m.status} ${m.amountPaid}`)).toEqual([
      "PENDING 0.0000000",
      "PENDING 10.0000000",
      "PAID 25.0000000",
    ]);
    stream.close();
  });

  it("pushes a change written straight to the database, by any writer", async () => {
    const inv = await sentInvoice("5");
    const stream = await openStream(b.url, inv.id);
    await stream.until((m) => m.status === "PENDING");
    await s.sql`update invoices set status = 'CANCELLED', updated_at = now() where id = ${inv.id}`;
    await stream.until((m) => m.status === "CANCELLED");
    stream.close();
  });

  it("speaks Form A with ?envelope=true, under /api/v1 too", async () => {
    const inv = await sentInvoice("3");
    for (const path of ["/api", "/api/v1"]) {
      const ctrl = new AbortController();
      const res = await fetch(`${b.url}${path}/payments/${inv.id}/events?envelope=true`, {
        signal: ctrl.signal,
      });
      expect(res.status).toBe(200);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      let text = "";
      while (!text.includes("data: "))
        text += new TextDecoder().decode((await reader.read()).value);
      while (!/data: .*\n\n/.test(text))
        text += new TextDecoder().decode((await reader.read()).value);
      const data = JSON.parse(/data: (.*)\n/.exec(text)?.[1] as string);
      expect(data).toMatchObject({ success: true, data: { status: "PENDING" } });
      ctrl.abort();
    }
  });

  it("answers 404 for an unknown invoice, as JSON, before any stream", async () => {
    const res = await fetch(`${b.url}/api/payments/inv_doesnotexist0000000000/events`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "Invoice not found" });
  });

  it("bounds open streams per client address and frees a place when a client goes", async () => {
    const inv = await sentInvoice("5");
    const open = [];
    for (let i = 0; i < PER_IP; i++) {
      const st = await openStream(b.url, inv.id);
      expect(st.res.status).toBe(200);
      await st.until((m) => m.status === "PENDING");
      open.push(st);
    }
    const refused = await fetch(`${b.url}/api/payments/${inv.id}/events`);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: "Too many open status streams" });
    expect(refused.headers.get("retry-after")).toBeTruthy();

    open[0].close();
    // The server notices the client has gone and frees its place.
    const deadline = Date.now() + 5000;
    let again = await openStream(b.url, inv.id);
    while (again.res.status === 429 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      again = await openStream(b.url, inv.id);
    }
    expect(again.res.status).toBe(200);
    again.close();
    for (const st of open.slice(1)) st.close();
  });

  it("catches up after losing its listening connection: nothing changed meanwhile is missed", async () => {
    const inv = await sentInvoice("5");
    const stream = await openStream(b.url, inv.id);
    await stream.until((m) => m.status === "PENDING");
    // Every instance's LISTEN connection goes; the change happens while they reconnect.
    await s.sql`select pg_terminate_backend(pid) from pg_stat_activity
                where query ilike 'listen %' and pid <> pg_backend_pid()`;
    await s.sql`update invoices set status = 'CANCELLED', updated_at = now() where id = ${inv.id}`;
    await stream.until((m) => m.status === "CANCELLED", 15_000);
    const res = await status(b.url, inv.id);
    expect((await res.json()).status).toBe("CANCELLED");
    stream.close();
  });
});

describe("GET /api/payments/:invoiceId/status: ETag and the per-instance cache", () => {
  it("answers 304 for an unchanged status and never a stale one after a change on another instance", async () => {
    const inv = await sentInvoice("25");
    const first = await status(b.url, inv.id);
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag") as string;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers.get("cache-control")).toBe("no-cache");
    const body = await first.json();

    // Unchanged: the same tag everywhere, and a bodiless 304 for it.
    const again = await status(b.url, inv.id);
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.json()).toEqual(body);
    const onA = await status(s.app.url, inv.id);
    expect(onA.headers.get("etag")).toBe(etag);
    const notModified = await status(b.url, inv.id, { "if-none-match": etag });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe("");
    expect(notModified.headers.get("etag")).toBe(etag);

    // B has the invoice in memory; the payment is recorded through A. As soon as B has
    // heard of it (its stream says so), B's answers are the new status.
    const stream = await openStream(b.url, inv.id);
    await stream.until((m) => m.status === "PENDING");
    await payThroughA(inv, "25");
    await stream.until((m) => m.status === "PAID");
    const after = await status(b.url, inv.id, { "if-none-match": etag });
    expect(after.status).toBe(200);
    const paid = await after.json();
    expect(paid).toMatchObject({ status: "PAID", amountPaid: "25.0000000" });
    expect(after.headers.get("etag")).not.toBe(etag);
    stream.close();
  });

  it("forgets a settled invoice's cached status when a late payment arrives through another instance", async () => {
    const inv = await sentInvoice("7");
    await payThroughA(inv, "7");
    // PAID: B keeps it in memory for minutes, unless told of a change.
    expect((await (await status(b.url, inv.id)).json()).payments).toHaveLength(1);
    expect((await (await status(b.url, inv.id)).json()).payments).toHaveLength(1);
    const stream = await openStream(b.url, inv.id);
    await stream.until((m) => m.status === "PAID");
    // A late payment, found by A's watcher: recorded, not applied.
    await send(
      s.testnet,
      await pay(
        s.testnet,
        payer,
        f.kp.publicKey(),
        Asset.native(),
        "2",
        Memo.text(inv.invoiceNumber),
      ),
    );
    await watcherTick();
    await stream.until((m) => m.payments.length === 2);
    const late = await (await status(b.url, inv.id)).json();
    expect(late).toMatchObject({ status: "PAID" });
    expect(late.payments).toHaveLength(2);
    stream.close();
  });
});
