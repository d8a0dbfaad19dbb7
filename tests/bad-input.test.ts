import { Keypair } from "@stellar/stellar-sdk";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { createTestDatabase } from "./helpers/postgres";

/**
 * Generated malformed requests against every endpoint: none may answer 5xx, the fixed
 * message comes back where one exists, and the database is unchanged afterwards.
 */
let app: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let token: string;
let invoiceId: string;
let clientId: string;

type Endpoint = {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: string;
  auth: boolean;
  /** A valid body; variants break it field by field. */
  body?: Record<string, unknown>;
  /** Message a malformed body must produce, when the API fixes one (docs/decisions.md). */
  message?: string;
  query?: Record<string, string>;
};

const wallet = Keypair.random().publicKey();
const hash = "a".repeat(64);

function endpoints(): Endpoint[] {
  return [
    {
      method: "POST",
      path: "/api/auth/nonce",
      auth: false,
      body: { walletAddress: wallet },
      message: "Invalid Stellar address",
    },
    {
      method: "POST",
      path: "/api/auth/session",
      auth: false,
      body: { walletAddress: wallet, nonce: "0".repeat(32), signature: "00" },
      message: "Invalid request",
    },
    { method: "POST", path: "/api/invoices", auth: true, body: invoiceBody() },
    {
      method: "GET",
      path: "/api/invoices",
      auth: true,
      query: {
        limit: "10",
        offset: "0",
        sort: "total:asc",
        status: "PAID",
        currency: "XLM",
        network: "testnet",
      },
    },
    {
      method: "GET",
      path: "/api/invoices/stats",
      auth: true,
      query: { network: "testnet", includeDemoLinks: "true" },
    },
    {
      method: "PATCH",
      path: `/api/invoices/${invoiceId}`,
      auth: true,
      body: { title: "x", lineItems: [{ description: "a", quantity: "1", rate: "1" }] },
    },
    {
      method: "POST",
      path: `/api/invoices/${invoiceId}/cancel`,
      auth: true,
      body: { reason: "x" },
    },
    {
      method: "POST",
      path: "/api/clients",
      auth: true,
      body: { name: "N", email: "n@example.com", company: "C", address: "A", isFavorite: true },
    },
    {
      method: "PATCH",
      path: `/api/clients/${clientId}/favorite`,
      auth: true,
      body: { isFavorite: true },
    },
    {
      method: "POST",
      path: "/api/links",
      auth: true,
      body: {
        amount: "5",
        asset: "XLM",
        networkPassphrase: "Test SDF Network ; September 2015",
        title: "t",
        reference: "r",
      },
    },
    {
      method: "POST",
      path: `/api/payments/${invoiceId}/pay-intent`,
      auth: false,
      body: { networkPassphrase: "Test SDF Network ; September 2015", senderPublicKey: wallet },
    },
    {
      method: "POST",
      path: "/api/payments/submit",
      auth: false,
      body: { invoiceId, signedTransactionXdr: "AAAA" },
    },
    {
      method: "POST",
      path: "/api/payments/confirm",
      auth: false,
      body: { invoiceId, transactionHash: hash },
    },
    {
      method: "POST",
      path: "/api/payments/verify-tx",
      auth: false,
      body: { transactionHash: hash },
      message: undefined,
    },
    {
      method: "POST",
      path: "/api/webhooks",
      auth: true,
      body: { url: "https://example.com/hook", events: ["invoice.paid"] },
    },
  ];
}

const weird: unknown[] = [
  null,
  true,
  0,
  -1,
  1e308,
  -0.0000001,
  "",
  " ",
  "\u0000",
  "\ud800",
  "\u202e\u0041",
  "😀".repeat(50),
  "x".repeat(20_000),
  [],
  [1, 2, 3],
  {},
  { nested: { deep: [null] } },
  "1e400",
  "99999999999999999999999.12345678",
  "NaN",
];

type Case = {
  label: string;
  method: string;
  path: string;
  auth: boolean;
  body?: string;
  contentType?: string;
  message?: string;
};

function cases(): Case[] {
  const out: Case[] = [];
  for (const e of endpoints()) {
    const base = { method: e.method, path: e.path, auth: e.auth };
    if (e.body) {
      const json = (b: unknown) => JSON.stringify(b);
      for (const raw of ["{", "[1,", "nul", '{"a":}', "\u0000", "{}}"]) {
        out.push({
          ...base,
          label: `${e.path} invalid JSON ${raw}`,
          body: raw,
          message: "Invalid request",
        });
      }
      for (const type of [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/xml",
      ]) {
        out.push({
          ...base,
          label: `${e.path} content-type ${type}`,
          body: json(e.body),
          contentType: type,
        });
      }
      for (const top of [[], "string", 42, null, true]) {
        out.push({ ...base, label: `${e.path} top-level ${json(top)}`, body: json(top) });
      }
      out.push({
        ...base,
        label: `${e.path} huge body`,
        body: json({ ...e.body, pad: "p".repeat(200_000) }),
      });
      out.push({
        ...base,
        label: `${e.path} extra field`,
        body: json({ ...e.body, isAdmin: true }),
      });
      for (const field of Object.keys(e.body)) {
        const { [field]: _, ...rest } = e.body;
        out.push({ ...base, label: `${e.path} missing ${field}`, body: json(rest) });
        for (const value of weird) {
          out.push({
            ...base,
            label: `${e.path} ${field}=${json(value)?.slice(0, 30)}`,
            body: json({ ...e.body, [field]: value }),
            message: e.message,
          });
        }
      }
      if ("lineItems" in e.body) {
        out.push({
          ...base,
          label: `${e.path} 10k line items`,
          body: json({
            ...e.body,
            lineItems: Array.from({ length: 10_000 }, () => ({
              description: "a",
              quantity: "1",
              rate: "1",
            })),
          }),
        });
        for (const value of weird) {
          out.push({
            ...base,
            label: `${e.path} line item quantity ${json(value)?.slice(0, 20)}`,
            body: json({
              ...e.body,
              lineItems: [{ description: "a", quantity: value, rate: "1" }],
            }),
          });
        }
      }
    }
    if (e.query) {
      for (const key of Object.keys(e.query)) {
        for (const value of [
          "-1",
          "abc",
          "1e9",
          "%00",
          "😀",
          "x".repeat(5000),
          "total:asc;drop table invoices",
        ]) {
          const q = new URLSearchParams({ ...e.query, [key]: value });
          out.push({
            ...base,
            path: `${e.path}?${q}`,
            label: `${e.path} ?${key}=${value.slice(0, 20)}`,
          });
        }
      }
    }
  }
  // Path parameters that are not ids, on every route with one.
  const badIds = [
    "..%2F..%2Fetc%2Fpasswd",
    "%00",
    "x".repeat(500),
    "' OR 1=1 --",
    "%F0%9F%98%80",
    "null",
    "-1",
    "1e9",
  ];
  for (const id of badIds) {
    for (const [method, path, auth] of [
      ["GET", `/api/invoices/${id}`, false],
      ["GET", `/api/invoices/${id}/owner`, true],
      ["PATCH", `/api/invoices/${id}`, true],
      ["DELETE", `/api/invoices/${id}`, true],
      ["POST", `/api/invoices/${id}/send`, true],
      ["POST", `/api/invoices/${id}/cancel`, true],
      ["GET", `/api/payments/${id}/status`, false],
      ["POST", `/api/payments/${id}/pay-intent`, false],
      ["GET", `/api/links/${id}`, false],
      ["GET", `/api/links/${id}/status`, false],
      ["PATCH", `/api/clients/${id}/favorite`, true],
      ["DELETE", `/api/clients/${id}`, true],
      ["DELETE", `/api/webhooks/${id}`, true],
      ["GET", `/api/webhooks/${id}/deliveries`, true],
    ] as const) {
      out.push({
        method,
        path,
        auth,
        label: `${method} ${path.slice(0, 60)}`,
        body: method === "GET" || method === "DELETE" ? undefined : "{}",
      });
    }
  }
  return out;
}

async function snapshot() {
  const tables = [
    "invoices",
    "invoice_line_items",
    "invoice_audit_logs",
    "events",
    "clients",
    "payments",
    "auth_nonces",
    "webhook_subscriptions",
    "webhook_deliveries",
  ];
  const out: Record<string, string> = {};
  for (const t of tables) {
    const [row] = await sql.unsafe(
      `select count(*)::text || ':' || coalesce(md5(string_agg(x::text, ',' order by x::text)), '') as v from ${t} x`,
    );
    out[t] = row.v;
  }
  return out;
}

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startApp({
    DATABASE_URL: db.url,
    RATE_LIMIT_GLOBAL_PER_MINUTE: "1000000",
    RATE_LIMIT_INVOICES_PER_HOUR: "1000000",
    RATE_LIMIT_LINKS_PER_HOUR: "1000000",
    RATE_LIMIT_PAY_INTENT_PER_5_MINUTES: "1000000",
  });
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
  ({ token } = await signIn(app.url));
  const api = client(app.url, token);
  invoiceId = (await api.post("/api/invoices", invoiceBody())).body.id;
  clientId = (await api.post("/api/clients", { name: "N", email: "known@example.com" })).body.id;
});

afterAll(async () => {
  await sql?.end();
  await app?.stop();
  await db?.drop();
});

describe("bad input on every endpoint", () => {
  it("never answers 5xx, answers the spec's message, and a rejected request changes nothing", async () => {
    const all = cases();
    expect(all.length).toBeGreaterThanOrEqual(500);
    const failures: string[] = [];
    const accepted: string[] = [];
    let rejected = 0;
    // One at a time: each rejected write is checked against a snapshot taken just before it.
    for (const c of all) {
      const headers: Record<string, string> = {};
      if (c.auth) headers.authorization = `Bearer ${token}`;
      if (c.body !== undefined) headers["content-type"] = c.contentType ?? "application/json";
      const writes = c.method !== "GET";
      const before = writes ? await snapshot() : null;
      let status = 0;
      let body: any = null;
      try {
        const res = await fetch(app.url + c.path, { method: c.method, headers, body: c.body });
        status = res.status;
        body = await res.json().catch(() => null);
      } catch (err) {
        failures.push(`${c.label}: request failed ${err}`);
        continue;
      }
      if (status >= 500) {
        failures.push(`${c.label}: ${status} ${JSON.stringify(body)?.slice(0, 160)}`);
        continue;
      }
      if (status < 400) {
        // The mutation happened to be valid input (e.g. an emoji company name).
        accepted.push(c.label);
        continue;
      }
      rejected++;
      if (!body || typeof body.error !== "string" || typeof body.code !== "string") {
        failures.push(`${c.label}: not a JSON error body`);
      }
      if (c.message && status === 400 && body?.error !== c.message) {
        failures.push(`${c.label}: message ${body?.error} instead of ${c.message}`);
      }
      if (before) {
        const after = await snapshot();
        for (const t of Object.keys(before)) {
          if (before[t] !== after[t]) failures.push(`${c.label}: ${status} but ${t} changed`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(rejected).toBeGreaterThanOrEqual(500);
    // Valid mutations are few and listed for whoever reads the run.
    console.log(`${rejected} rejected, ${accepted.length} valid mutations accepted`);
  });
});
