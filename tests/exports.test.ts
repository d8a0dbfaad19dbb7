import http from "node:http";
import { Keypair, Networks } from "@stellar/stellar-sdk";
import { parse } from "csv-parse";
import { parse as parseSync } from "csv-parse/sync";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { INSUFFICIENT_SCOPE } from "@/lib/domain/api-key-scopes";
import { toStroops } from "@/lib/domain/money";
import { newId } from "@/lib/ids";
import { ROUTE_SPECS } from "@/lib/openapi/routes";
import { EMPTY_EXPORT_RANGE, INVALID_EXPORT_DATE } from "@/lib/schemas/exports";
import { PAYMENT_COLUMNS } from "@/lib/services/exports/payments";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { insertBulkPayments, processUsage } from "./helpers/exports";
import { createTestDatabase } from "./helpers/postgres";

// GET /api/exports/payments.csv and invoices.csv over HTTP (docs/decisions.md, Exports): the
// CSV read back with csv-parse and compared with what the API itself says about the same
// invoices and payments. Payments are arranged as rows (the recorder has its own tests).

type Row = Record<string, string>;
type User = { api: Api; token: string; wallet: string };

const payer = Keypair.random().publicKey();
const USDC_ISSUER = Keypair.random().publicKey();

describe("CSV exports", () => {
  let app: RunningApp;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: postgres.Sql;
  let a: User;
  let b: User;

  beforeAll(async () => {
    db = await createTestDatabase();
    app = await startApp({
      DATABASE_URL: db.url,
      RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
      RATE_LIMIT_COSTLY_PER_MINUTE: "100000",
      RATE_LIMIT_INVOICES_PER_HOUR: "100000",
    });
    sql = postgres(db.url, { max: 2, onnotice: () => {} });
    a = await user();
    b = await user();
  });

  afterAll(async () => {
    await sql?.end();
    await app?.stop();
    await db?.drop();
  });

  async function user(): Promise<User> {
    const s = await signIn(app.url);
    return { api: client(app.url, s.token), token: s.token, wallet: s.wallet };
  }

  /** A sent invoice through the API. */
  async function sentInvoice(u: User, overrides: Record<string, unknown> = {}) {
    const res = await u.api.post("/api/invoices", invoiceBody(overrides));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await u.api.post(`/api/invoices/${res.body.id}/send`)).status).toBe(200);
    return res.body as { id: string; invoiceNumber: string };
  }

  type PaymentFields = {
    amount: string;
    at: string;
    asset?: string;
    issuer?: string | null;
    applied?: boolean;
    reason?: string | null;
    refunded?: string;
    fiat?: { value: string; rate: string; source: string; at: string } | null;
    priceValue?: string | null;
    paidLate?: boolean;
    operationIndex?: number;
  };

  /** A payment row for `u`'s invoice, as the recorder writes one. */
  async function payment(u: User, invoiceId: string, p: PaymentFields): Promise<string> {
    const id = newId();
    const [{ currency }] = await sql`select currency from invoices where id = ${invoiceId}`;
    await sql`insert into payments (id, invoice_id, transaction_hash, ledger_number, from_wallet,
      to_wallet, amount, operation_index, asset, asset_issuer, applied, unapplied_reason,
      amount_refunded, status, confirmed_at, fiat_currency, fiat_value, rate, rate_source, rate_at,
      price_value, paid_late)
      values (${id}, ${invoiceId}, ${(id + id).slice(0, 64).padEnd(64, "0")}, ${700_000 + Math.floor(Math.random() * 1000)},
        ${payer}, ${u.wallet}, ${p.amount}, ${p.operationIndex ?? 0}, ${p.asset ?? currency},
        ${p.issuer ?? null}, ${p.applied ?? true}, ${p.reason ?? null}, ${p.refunded ?? "0"},
        ${p.refunded && p.refunded === p.amount ? "REFUNDED" : "CONFIRMED"}, ${p.at},
        ${p.fiat ? "USD" : null}, ${p.fiat?.value ?? null}, ${p.fiat?.rate ?? null},
        ${p.fiat?.source ?? null}, ${p.fiat?.at ?? null}, ${p.priceValue ?? null}, ${p.paidLate ?? false})`;
    return id;
  }

  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const download = (token: string, path: string) => fetch(app.url + path, { headers: auth(token) });

  async function csvOf(
    token: string,
    path: string,
  ): Promise<{ res: Response; text: string; rows: Row[] }> {
    const res = await download(token, path);
    const bytes = new Uint8Array(await res.arrayBuffer());
    // UTF-8 with a byte-order mark (Excel reads the file as UTF-8 only then); the decoder
    // takes the mark off.
    const text = new TextDecoder().decode(bytes);
    expect(res.status, text.slice(0, 500)).toBe(200);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseSync(text, { columns: true }) as Row[];
    return { res, text, rows };
  }

  it("lists each payment once with the values the owner's view shows, in RFC 4180 UTF-8", async () => {
    const u = await user();
    const xlm = await sentInvoice(u, { clientName: "Zoë, Ltd", network: "testnet" });
    const usdc = await sentInvoice(u, { currency: "USDC", network: "mainnet" });
    const fiat = {
      value: "131.25",
      rate: "0.175000000000",
      source: "prices.local",
      at: "2026-03-01T09:59:00Z",
    };
    const applied = await payment(u, xlm.id, {
      amount: "750",
      at: "2026-03-01T10:00:00.123Z",
      fiat,
      priceValue: "131.25",
      paidLate: true,
    });
    const unapplied = await payment(u, usdc.id, {
      amount: "9.5",
      at: "2026-03-02T10:00:00Z",
      asset: "USDC",
      issuer: USDC_ISSUER,
      applied: false,
      reason: "wrong_asset",
    });
    // Partly refunded; recorded before values were kept: the fiat cells are empty.
    const refunded = await payment(u, usdc.id, {
      amount: "100",
      at: "2026-03-03T10:00:00Z",
      refunded: "40",
      operationIndex: 2,
    });
    // Another wallet's payment never shows.
    const other = await sentInvoice(b);
    await payment(b, other.id, { amount: "1", at: "2026-03-01T11:00:00Z" });

    const { res, text, rows } = await csvOf(u.token, "/api/exports/payments.csv");
    expect(res.headers.get("content-type")).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="payments.csv"');
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(text.startsWith(`${PAYMENT_COLUMNS.map(([h]) => h).join(",")}\r\n`)).toBe(true);
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text).toContain(',"Zoë, Ltd",'); // the comma quoted, UTF-8 kept
    expect(rows.map((r) => r.paymentId)).toEqual([applied, unapplied, refunded]);

    // Each row against GET /api/invoices/:id (the owner's view of the same payment).
    for (const row of rows) {
      const view = await u.api.get(`/api/invoices/${row.invoiceId}/owner`);
      const p = view.body.payments.find((x: { id: string }) => x.id === row.paymentId);
      expect(row).toMatchObject({
        invoiceNumber: view.body.invoiceNumber,
        clientName: view.body.clientName,
        clientEmail: view.body.clientEmail,
        asset: p.asset,
        assetIssuer: p.assetIssuer ?? "",
        amount: p.amount,
        transactionHash: p.transactionHash,
        ledger: String(p.ledgerNumber),
        operationIndex: String(p.operationIndex),
        fromWallet: p.fromWallet,
        unappliedReason: p.unappliedReason ?? "",
        amountRefunded: p.amountRefunded,
        rate: p.rate ?? "",
        confirmedAt: p.confirmedAt,
        network: view.body.networkPassphrase.startsWith("Public") ? "mainnet" : "testnet",
      });
    }
    expect(rows.map((r) => r.status)).toEqual(["applied", "unapplied", "refunded"]);
    expect(rows[0]).toMatchObject({
      amount: "750.0000000",
      fiatCurrency: "USD",
      fiatValue: "131.25",
      // The API's decimal string, not numeric(30,12)'s "0.175000000000".
      rate: "0.175",
      rateSource: "prices.local",
      rateAt: "2026-03-01T09:59:00.000Z",
      priceValue: "131.2500000",
      paidLate: "true",
      confirmedAt: "2026-03-01T10:00:00.123Z",
      network: "testnet",
    });
    expect(rows[2]).toMatchObject({
      amountRefunded: "40.0000000",
      fiatCurrency: "",
      fiatValue: "",
      rate: "",
      rateSource: "",
      rateAt: "",
      paidLate: "false",
      network: "mainnet",
    });

    // The other wallet sees its own payment only.
    const theirs = await csvOf(b.token, "/api/exports/payments.csv");
    expect(theirs.rows.map((r) => r.invoiceId)).toEqual([other.id]);
  });

  it("filters on confirmation time (from inclusive, to exclusive) and network", async () => {
    const u = await user();
    const test = await sentInvoice(u, { network: "testnet" });
    const main = await sentInvoice(u, { network: "mainnet" });
    const ids = {
      before: await payment(u, test.id, { amount: "1", at: "2026-04-30T23:59:59.999Z" }),
      first: await payment(u, test.id, { amount: "2", at: "2026-05-01T00:00:00Z" }),
      mainnet: await payment(u, main.id, { amount: "3", at: "2026-05-15T12:00:00Z" }),
      last: await payment(u, test.id, { amount: "4", at: "2026-05-31T23:59:59.999Z" }),
      after: await payment(u, test.id, { amount: "5", at: "2026-06-01T00:00:00Z" }),
    };
    const idsOf = async (query: string) =>
      (await csvOf(u.token, `/api/exports/payments.csv${query}`)).rows.map((r) => r.paymentId);
    expect(await idsOf("?from=2026-05-01&to=2026-06-01")).toEqual([
      ids.first,
      ids.mainnet,
      ids.last,
    ]);
    expect(await idsOf("?from=2026-05-01&to=2026-06-01&network=testnet")).toEqual([
      ids.first,
      ids.last,
    ]);
    expect(await idsOf("?network=mainnet")).toEqual([ids.mainnet]);
    expect(await idsOf("?from=2026-05-31T23:59:59.999Z")).toEqual([ids.last, ids.after]);
    expect(await idsOf("?to=2026-05-01T02:00:00%2B02:00")).toEqual([ids.before]);
    const named = await download(
      u.token,
      "/api/exports/payments.csv?from=2026-05-01&to=2026-06-01&network=testnet",
    );
    expect(named.headers.get("content-disposition")).toBe(
      'attachment; filename="payments_2026-05-01_2026-06-01_testnet.csv"',
    );
    await named.body?.cancel();
  });

  it("answers 400 with details for a bad range, date, network or parameter", async () => {
    for (const [query, field, message] of [
      ["from=yesterday", "from", INVALID_EXPORT_DATE],
      ["to=2026-13-01", "to", INVALID_EXPORT_DATE],
      ["from=2026-05-01&to=2026-05-01", "to", EMPTY_EXPORT_RANGE],
      ["from=2026-06-01&to=2026-05-01", "to", EMPTY_EXPORT_RANGE],
      ["network=futurenet", "network", undefined],
      ["limit=5", "", undefined],
    ] as const) {
      for (const what of ["payments", "invoices"]) {
        const res = await a.api.get(`/api/exports/${what}.csv?${query}`);
        expect(res.status, `${what} ${query}`).toBe(400);
        expect(res.body.error).toBe("Invalid request");
        const details = res.body.details as Record<string, string>;
        if (field) expect(Object.keys(details), query).toContain(field);
        if (message) expect(details[field]).toBe(message);
      }
    }
    expect((await fetch(`${app.url}/api/exports/payments.csv`)).status).toBe(401);
  });

  it("neutralises cells a spreadsheet would run as formulas, and round-trips everything else", async () => {
    const corpus = [
      "=cmd|' /C calc'!A0",
      "+1",
      "-1",
      "@SUM(A1:A9)",
      "\tTabbed",
      "\rReturn",
      'Say "hi", then leave',
      "two\nlines",
      "three\r\nlines\ron one\n",
      "Ünïcödé 日本語 🚀",
      "plain",
      " =spaced",
      "'quoted already",
    ];
    const dangerous = /^[=+\-@\t\r]/;
    const u = await user();
    for (const [i, text] of corpus.entries()) {
      const inv = await sentInvoice(u, { title: `Corpus ${i}` });
      // Straight into the row: the API trims names, the exports must hold up whatever is stored.
      await sql`update invoices set client_name = ${text}, title = ${text}, created_at = ${new Date(Date.UTC(2026, 0, 1, 0, i))} where id = ${inv.id}`;
      await payment(u, inv.id, {
        amount: "1",
        at: new Date(Date.UTC(2026, 0, 2, 0, i)).toISOString(),
        fiat: { value: "0.17", rate: "0.17", source: text, at: "2026-01-02T00:00:00Z" },
      });
    }
    const expected = corpus.map((t) => (dangerous.test(t) ? `'${t}` : t));
    const { text, rows: payments } = await csvOf(u.token, "/api/exports/payments.csv");
    // A line break of any kind is inside quotes: other readers split records on a bare LF.
    expect(text).toContain(',"two\nlines",');
    expect(text).toContain(',"three\r\nlines\ron one\n",');
    expect(payments.map((r) => r.clientName)).toEqual(expected);
    expect(payments.map((r) => r.rateSource)).toEqual(expected);
    const invoices = (await csvOf(u.token, "/api/exports/invoices.csv")).rows;
    expect(invoices.map((r) => r.clientName)).toEqual(expected);
    expect(invoices.map((r) => r.title)).toEqual(expected);
    // No cell of ours starts with a formula character (amounts are never negative).
    for (const row of [...payments, ...invoices]) {
      for (const [column, cell] of Object.entries(row)) {
        expect(dangerous.test(cell), `${column}: ${JSON.stringify(cell)}`).toBe(false);
      }
    }
  });

  it("lists invoices with the amounts, status and dates the API shows, filtered on creation", async () => {
    const u = await user();
    const draft = await u.api.post(
      "/api/invoices",
      invoiceBody({ title: "Draft", dueDate: "2026-12-31" }),
    );
    const sent = await sentInvoice(u, {
      currency: "USDC",
      network: "mainnet",
      taxRate: "10",
      discount: "5",
    });
    await payment(u, sent.id, { amount: "100", at: "2026-02-01T00:00:00Z", asset: "USDC" });
    await sql`update invoices set amount_paid = 100, status = 'PROCESSING' where id = ${sent.id}`;
    const gone = await sentInvoice(u);
    expect((await u.api.post(`/api/invoices/${gone.id}/cancel`)).status).toBe(200);
    const deleted = await u.api.post("/api/invoices", invoiceBody({ title: "Deleted" }));
    expect((await u.api.delete(`/api/invoices/${deleted.body.id}`)).status).toBe(200);

    const { res, rows } = await csvOf(u.token, "/api/exports/invoices.csv");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="invoices.csv"');
    expect(rows.map((r) => r.invoiceId)).toEqual([draft.body.id, sent.id, gone.id]);
    for (const row of rows) {
      const v = (await u.api.get(`/api/invoices/${row.invoiceId}/owner`)).body;
      expect(row).toEqual({
        invoiceNumber: v.invoiceNumber,
        invoiceId: v.id,
        kind: "INVOICE",
        parentLinkId: "",
        status: v.status,
        title: v.title,
        clientName: v.clientName,
        clientEmail: v.clientEmail,
        clientCompany: v.clientCompany ?? "",
        currency: v.currency,
        priceCurrency: v.priceCurrency ?? "",
        subtotal: v.subtotal,
        taxRate: v.taxRate,
        taxAmount: v.taxAmount,
        discount: v.discount,
        total: v.total,
        amountPaid: v.amountPaid,
        amountDue: v.amountDue,
        createdAt: v.createdAt,
        sentAt: v.sentAt ?? "",
        dueDate: v.dueDate ?? "",
        paidAt: v.paidAt ?? "",
        cancelledAt: v.cancelledAt ?? "",
        network: v.networkPassphrase.startsWith("Public") ? "mainnet" : "testnet",
        amountsIn: v.priceCurrency ?? v.currency,
      });
    }
    expect(rows[1]).toMatchObject({
      status: "PROCESSING",
      amountPaid: "100.0000000",
      network: "mainnet",
    });

    // createdAt filter: [from, to).
    const at = (id: string) => rows.find((r) => r.invoiceId === id)?.createdAt as string;
    const from = encodeURIComponent(at(sent.id));
    const to = encodeURIComponent(at(gone.id));
    const ranged = await csvOf(u.token, `/api/exports/invoices.csv?from=${from}&to=${to}`);
    expect(ranged.rows.map((r) => r.invoiceId)).toEqual([sent.id]);
    const main = await csvOf(u.token, "/api/exports/invoices.csv?network=mainnet");
    expect(main.rows.map((r) => r.invoiceId)).toEqual([sent.id]);
  });

  it("names the payment link a checkout belongs to (parentLinkId) in both files (issue 27, item 15)", async () => {
    const u = await user();
    const link = await u.api.post("/api/links", {
      asset: "XLM",
      networkPassphrase: Networks.TESTNET,
      amount: "5",
      reusable: true,
    });
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    const opened = await client(app.url).post(`/api/links/${link.body.id}/checkout`, {});
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const checkoutId = opened.body.id as string;
    const paid = await payment(u, checkoutId, { amount: "5", at: "2026-04-01T00:00:00Z" });

    const { rows: payments } = await csvOf(u.token, "/api/exports/payments.csv");
    expect(payments.map((r) => [r.paymentId, r.invoiceId, r.parentLinkId])).toEqual([
      [paid, checkoutId, link.body.id],
    ]);
    const { rows: invoices } = await csvOf(u.token, "/api/exports/invoices.csv");
    expect(invoices.find((r) => r.invoiceId === link.body.id)).toMatchObject({
      kind: "LINK",
      parentLinkId: "",
    });
    expect(invoices.find((r) => r.invoiceId === checkoutId)).toMatchObject({
      kind: "LINK",
      parentLinkId: link.body.id,
    });
  });

  it("through API keys: invoices:read on the key's network only; 403 without it", async () => {
    const u = await user();
    const test = await sentInvoice(u, { network: "testnet" });
    const main = await sentInvoice(u, { network: "mainnet" });
    const testPayment = await payment(u, test.id, { amount: "1", at: "2026-01-01T00:00:00Z" });
    await payment(u, main.id, { amount: "2", at: "2026-01-01T00:00:01Z" });
    const key = async (scopes: string[], network: string) => {
      const res = await u.api.post("/api/keys", { name: scopes.join(" "), scopes, network });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.secret as string;
    };
    const reader = await key(["invoices:read"], "testnet");
    expect((await csvOf(reader, "/api/exports/payments.csv")).rows.map((r) => r.paymentId)).toEqual(
      [testPayment],
    );
    expect((await csvOf(reader, "/api/exports/invoices.csv")).rows.map((r) => r.invoiceId)).toEqual(
      [test.id],
    );
    // Asking for the other network gives nothing, never its rows.
    expect((await csvOf(reader, "/api/exports/payments.csv?network=mainnet")).rows).toEqual([]);

    const writer = await key(["invoices:write", "clients:read"], "testnet");
    for (const what of ["payments", "invoices"]) {
      const res = await client(app.url, writer).get(`/api/exports/${what}.csv`);
      expect(res.status).toBe(403);
      expect(res.body.error).toBe(INSUFFICIENT_SCOPE);
    }
    for (const path of ["/api/exports/payments.csv", "/api/exports/invoices.csv"]) {
      const op = ROUTE_SPECS.find((o) => o.path === path);
      expect(op?.scope).toEqual(["invoices:read"]);
    }
  });

  it("adds the revenue in the reporting currency to the statistics", async () => {
    const u = await user();
    const inv = await sentInvoice(u);
    const fiat = (value: string) => ({
      value,
      rate: "0.2",
      source: "prices.local",
      at: "2026-01-01T00:00:00Z",
    });
    await payment(u, inv.id, { amount: "100", at: "2026-01-01T00:00:00Z", fiat: fiat("20.00") });
    // A third refunded: two thirds of 100.00 kept, 66.666... -> 66.67 (half up).
    await payment(u, inv.id, {
      amount: "300",
      at: "2026-01-02T00:00:00Z",
      fiat: fiat("100.00"),
      refunded: "100",
    });
    await payment(u, inv.id, { amount: "5", at: "2026-01-03T00:00:00Z" }); // no value kept
    await payment(u, inv.id, {
      amount: "7",
      at: "2026-01-04T00:00:00Z",
      fiat: fiat("1.40"),
      applied: false,
      reason: "already_paid",
    });
    const stats = await u.api.get("/api/invoices/stats");
    expect(stats.status).toBe(200);
    expect(stats.body.revenue).toEqual({ currency: "USD", amount: "86.67", unpriced: 1 });
  });

  it("streams 100,000 payments: first bytes at once, and a paused reader holds the server back", async () => {
    const u = await user();
    const inv = await sentInvoice(u);
    const N = 100_000;
    const { sum } = await insertBulkPayments(sql, {
      invoiceId: inv.id,
      wallet: u.wallet,
      payer,
      n: N,
    });
    const rss = () => processUsage(app.pid).rss;
    const cpu = () => processUsage(app.pid).cpuTicks;
    // Warm the route up (its first request loads its code).
    await (await download(u.token, "/api/exports/payments.csv?to=2026-01-01")).text();
    const before = rss();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rss());
    }, 20);
    onTestFinished(() => clearInterval(sampler));

    // node:http, whose pause() stops reading the socket (fetch's body keeps reading ahead).
    const started = performance.now();
    const body = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .get(`${app.url}/api/exports/payments.csv`, { headers: auth(u.token) }, resolve)
        .on("error", reject);
    });
    expect(body.statusCode).toBe(200);
    // 'readable' without read(): the bytes stay queued for the parser, and the socket stops.
    await new Promise((r) => body.once("readable", r));
    const firstByteAt = performance.now() - started;
    // A reader that stops after the first bytes: once the socket buffers between it and the
    // server are full (a few MB), the server must wait for it instead of reading on. It goes
    // idle (a 500 ms window with at most 2 ticks of CPU) having done a small part of the work.
    const cpuAtStart = cpu();
    let idleAt = 0;
    for (let i = 0; i < 60 && !idleAt; i++) {
      const t0 = cpu();
      await new Promise((r) => setTimeout(r, 500));
      if (cpu() - t0 <= 2) idleAt = cpu();
    }
    expect(idleAt, "the server never went idle while the reader paused").toBeGreaterThan(0);
    const pausedFor = performance.now() - started;

    let bytes = 0;
    body.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
    });
    let count = 0;
    let stroops = 0n;
    let previous = "";
    const seen = new Set<string>();
    for await (const record of body.pipe(
      parse({ columns: true, bom: true }),
    ) as AsyncIterable<Row>) {
      count++;
      stroops += toStroops(record.amount);
      seen.add(record.paymentId);
      const key = `${record.confirmedAt} ${record.paymentId}`;
      if (key < previous) expect.fail(`${key} after ${previous}`);
      previous = key;
      if (count === 1)
        expect(record).toMatchObject({ paymentId: "bulk0000001", ledger: "1000001" });
    }
    const total = performance.now() - started;
    const cpuTotal = cpu() - cpuAtStart;
    const beforeIdle = idleAt - cpuAtStart;
    clearInterval(sampler);
    peak = Math.max(peak, rss());

    expect(count).toBe(N);
    expect(seen.size).toBe(N);
    expect(stroops).toBe(toStroops(sum));
    console.log(
      `export: ${N} rows, ${(bytes / 1e6).toFixed(1)} MB in ${total.toFixed(0)} ms (${pausedFor.toFixed(0)} of them paused; first byte ${firstByteAt.toFixed(0)} ms); server CPU ${beforeIdle} ticks before going idle of ${cpuTotal} in all; RSS peak +${((peak - before) / 1e6).toFixed(1)} MB`,
    );
    expect(bytes).toBeGreaterThan(15e6);
    // Buffered, the first byte would come when all 100,000 rows had been read and written.
    expect(firstByteAt).toBeLessThan((total - pausedFor) / 5);
    // Without backpressure the server would read on while nobody reads: it would go idle
    // only with (nearly) all the work done.
    expect(beforeIdle).toBeLessThan(cpuTotal / 2);
  }, 180_000);
});
