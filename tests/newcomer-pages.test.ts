import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { createTestDatabase } from "./helpers/postgres";

/**
 * What a newcomer meets on the built server: a favicon, transaction links on the configured
 * explorer (EXPLORER_TESTNET_URL: a local ledger under `npm run dev:offline`), and a 404 page
 * that says so without JavaScript.
 */
let app: RunningApp;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let owner: Api;

const LOCAL_EXPLORER = "http://127.0.0.1:8001/transactions/";

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startApp({
    DATABASE_URL: db.url,
    RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
    EXPLORER_TESTNET_URL: LOCAL_EXPLORER,
  });
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
  owner = client(app.url, (await signIn(app.url)).token);
});

afterAll(async () => {
  await sql?.end();
  await app?.stop();
  await db?.drop();
});

/** The page as a browser without JavaScript shows it: the HTML without its scripts. */
const withoutScripts = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, "");

describe("favicon", () => {
  it("/favicon.ico answers 200 with an icon, and pages link it", async () => {
    const res = await fetch(`${app.url}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^image\//);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0])); // an ICO header
    const page = await (await fetch(`${app.url}/`)).text();
    expect(page).toMatch(/<link rel="icon" href="\/favicon\.ico[^"]*"/);
  });
});

describe("explorer links", () => {
  it("the checkout's receipt links the transaction on the configured explorer", async () => {
    const created = await owner.post("/api/invoices", invoiceBody());
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await owner.post(`/api/invoices/${id}/send`, {})).status).toBe(200);
    const hash = "ab".repeat(32);
    await sql`update invoices set status = 'PAID', transaction_hash = ${hash}, paid_at = now(),
      ledger_number = 7 where id = ${id}`;

    const res = await fetch(`${app.url}/pay/${id}`);
    expect(res.status).toBe(200);
    const html = withoutScripts(await res.text());
    expect(html).toContain(`href="${LOCAL_EXPLORER}${hash}"`);
    expect(html).not.toContain("stellar.expert");
  });
});

describe("unknown checkout without JavaScript", () => {
  it("/pay/<unknown id> answers 404 with the not-found message in the HTML", async () => {
    const res = await fetch(`${app.url}/pay/does-not-exist`);
    expect(res.status).toBe(404);
    const html = withoutScripts(await res.text());
    expect(html).toContain("<h1");
    expect(html).toContain("Invoice not found");
    expect(html).toContain("This invoice or payment link does not exist");
    expect(html.match(/Invoice not found<\/h1>/g)).toHaveLength(1);
  });
});
