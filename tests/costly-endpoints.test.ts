import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { createTestDatabase } from "./helpers/postgres";

/**
 * Issue 27, item 7 (docs/decisions.md, Limits): the costly operations (PDF, CSV exports,
 * the invoice email, the profile save) share one budget per client IP whichever wallets sign
 * in from it, and an invoice's PDF is kept until anything it shows changes. Each loopback
 * address (127.0.0.x) is a client IP of its own on Linux; sign-in and creation go through
 * fetch from 127.0.0.1 and count against no costly budget.
 */
let app: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
const COSTLY_PER_MINUTE = 6;
const COSTLY_MESSAGE = "Too many PDF, export, email and profile requests from this address";

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startApp({
    DATABASE_URL: db.url,
    RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
    RATE_LIMIT_INVOICES_PER_HOUR: "1000",
    RATE_LIMIT_COSTLY_PER_MINUTE: String(COSTLY_PER_MINUTE),
  });
});

afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** A request from the client address `from` (its own connection). */
function request(
  from: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(
      {
        host: "127.0.0.1",
        port: app.port,
        path,
        method,
        localAddress: from,
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          ...(payload
            ? { "content-type": "application/json", "content-length": payload.length }
            : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** Fixed one-minute windows: start a run early enough in a window to finish inside it. */
async function awaitFreshWindow() {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 40_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 50));
}

async function wallet() {
  const { token } = await signIn(app.url);
  const api = client(app.url, token);
  const created = await api.post("/api/invoices", invoiceBody());
  expect(created.status).toBe(201);
  return { token, api, invoiceId: created.body.id as string };
}

async function pdfText(pdf: Buffer): Promise<string> {
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const doc = await getDocument({ data: new Uint8Array(pdf), verbosity: 0 }).promise;
  const content = await (await doc.getPage(1)).getTextContent();
  await doc.destroy();
  return content.items.map((i) => ("str" in i ? i.str : "")).join("\n");
}

describe("costly operations: one budget per IP across wallets", () => {
  it(`the ${COSTLY_PER_MINUTE + 1}th PDF/export/profile request in a minute from one IP is 429, whatever the wallet`, async () => {
    const [a, b, c] = await Promise.all([wallet(), wallet(), wallet()]);
    await awaitFreshWindow();
    const ip = "127.0.0.9";
    const calls: [typeof a, string, string, unknown?][] = [
      [a, "GET", `/api/invoices/${a.invoiceId}/pdf`],
      [a, "GET", "/api/exports/invoices.csv"],
      [b, "GET", `/api/invoices/${b.invoiceId}/pdf`],
      [b, "GET", "/api/exports/payments.csv"],
      [c, "GET", `/api/invoices/${c.invoiceId}/pdf`],
      [c, "PUT", "/api/profile", { displayName: "Carol" }],
    ];
    for (const [who, method, path, body] of calls) {
      const res = await request(ip, method, path, who.token, body);
      expect(res.status, `${method} ${path}`).toBe(200);
    }
    // A fourth wallet from the same address has no fresh budget either.
    const d = await wallet();
    const over = await request(ip, "GET", `/api/invoices/${d.invoiceId}/pdf`, d.token);
    expect(over.status).toBe(429);
    const body = JSON.parse(over.body.toString());
    expect(body).toMatchObject({ error: COSTLY_MESSAGE, code: "RATE_LIMIT_EXCEEDED" });
    expect(Number(over.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(over.headers["x-ratelimit-policy"]).toContain(`${COSTLY_PER_MINUTE};w=60`);
    // Only the costly operations: the same wallet's other calls from that address still work.
    expect((await request(ip, "GET", `/api/invoices/${d.invoiceId}/owner`, d.token)).status).toBe(
      200,
    );
    // Another address has its own budget.
    expect(
      (await request("127.0.0.10", "GET", `/api/invoices/${d.invoiceId}/pdf`, d.token)).status,
    ).toBe(200);
  });
});

describe("a client's statement: the files are costly, the figures are not", () => {
  it("CSV and PDF share the budget; the JSON answers past it", async () => {
    const a = await wallet();
    const saved = await a.api.post("/api/clients", { name: "Ada", email: "ada@example.com" });
    expect(saved.status).toBe(201);
    await awaitFreshWindow();
    const ip = "127.0.3.1"; // apart from the 127.0.0.x the PDF tests below count up through
    const base = `/api/clients/${saved.body.id}/statement?from=2026-01-01&to=2026-01-31`;
    for (let i = 0; i < COSTLY_PER_MINUTE; i++) {
      const res = await request(ip, "GET", `${base}&format=${i % 2 ? "pdf" : "csv"}`, a.token);
      expect(res.status).toBe(200);
    }
    const over = await request(ip, "GET", `${base}&format=pdf`, a.token);
    expect(over.status).toBe(429);
    expect(JSON.parse(over.body.toString())).toMatchObject({ error: COSTLY_MESSAGE });
    expect((await request(ip, "GET", base, a.token)).status).toBe(200);
  });
});

describe("the PDF is kept until what it shows changes", () => {
  // Each request from a fresh address, so this file's low costly limit never applies here.
  let n = 20;
  const pdf = async (token: string, id: string) => {
    const res = await request(`127.0.0.${n++}`, "GET", `/api/invoices/${id}/pdf`, token);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    return res.body;
  };

  it("the same bytes while nothing changes; drawn again after an edit and a profile change", async () => {
    const { token, api, invoiceId } = await wallet();
    const first = await pdf(token, invoiceId);
    // A fresh drawing carries its creation time (to the second): the same bytes a second
    // later are the kept PDF.
    await new Promise((r) => setTimeout(r, 1100));
    expect((await pdf(token, invoiceId)).equals(first)).toBe(true);

    const edited = await api.patch(`/api/invoices/${invoiceId}`, { title: "Edited title" });
    expect(edited.status).toBe(200);
    const afterEdit = await pdf(token, invoiceId);
    expect(afterEdit.equals(first)).toBe(false);
    expect(await pdfText(afterEdit)).toContain("Edited title");

    const profile = await request(`127.0.0.${n++}`, "PUT", "/api/profile", token, {
      address: "7 Cache Lane",
    });
    expect(profile.status).toBe(200);
    const afterProfile = await pdf(token, invoiceId);
    expect(afterProfile.equals(afterEdit)).toBe(false);
    expect(await pdfText(afterProfile)).toContain("7 Cache Lane");

    const cancelled = await api.post(`/api/invoices/${invoiceId}/cancel`, { reason: "done" });
    expect(cancelled.status).toBe(200);
    const afterCancel = await pdf(token, invoiceId);
    expect(await pdfText(afterCancel)).toContain("Status: CANCELLED");
    expect((await pdf(token, invoiceId)).equals(afterCancel)).toBe(true);
  });

  it("many asking at once for a PDF not drawn yet all get the same bytes", async () => {
    const { token, invoiceId } = await wallet();
    const all = await Promise.all(Array.from({ length: 8 }, () => pdf(token, invoiceId)));
    for (const one of all) expect(one.equals(all[0])).toBe(true);
  });
});
