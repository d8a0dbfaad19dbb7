import { Asset } from "@stellar/stellar-sdk";
import postgres from "postgres";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { deliverEmails } from "@/lib/jobs/deliver-emails";
import { sendReminders } from "@/lib/jobs/send-reminders";
import { createInvoiceSchema, updateInvoiceSchema } from "@/lib/schemas/invoices";
import type { AuthedContext } from "@/lib/services/context";
import {
  stopReminders,
  unsubscribeTarget,
  unsubscribeToken,
  unsubscribeUrl,
  verifyUnsubscribeToken,
} from "@/lib/services/email/unsubscribe";
import { unsubscribePage } from "@/lib/services/email/unsubscribe-page";
import { cancelInvoice, sendInvoice } from "@/lib/services/invoices/change-status";
import { createInvoice } from "@/lib/services/invoices/create-invoice";
import { updateInvoice } from "@/lib/services/invoices/update-invoice";
import { confirmPayment } from "@/lib/services/payments/settle";
import { client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp, TEST_JWT_SECRET } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { testContext } from "./helpers/context";
import { createTestDatabase } from "./helpers/postgres";
import { startTestSmtp, type TestSmtp } from "./helpers/smtp";
import {
  type Chain,
  funded,
  type Keypair,
  Memo,
  pay,
  send,
  startChain,
  TESTNET,
} from "./helpers/stellar";

// Receipts, payment notices, reminders and unsubscribe (docs/decisions.md, Reminders and
// receipts): real PostgreSQL, real signed payments on the local ledger, the outbox delivered
// over SMTP to a real server (tests/helpers/smtp.ts), a pinned clock for the reminder rules.

let handle: DatabaseHandle;
let handleB: DatabaseHandle;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let smtp: TestSmtp;
let chain: Chain;
let freelancer: Keypair;
let clock = new Date("2026-06-01T09:00:00.000Z");
const APP_URL = "https://invoices.example.com";

function ctx(h = handle): AuthedContext {
  return {
    ...testContext(h, db.url, () => clock, {
      APP_URL,
      SMTP_URL: smtp.url,
      EMAIL_FROM: "Billing <billing@invoices.example.com>",
      HORIZON_TESTNET_URL: chain.ledger.url,
      RPC_TESTNET_URL: `${chain.ledger.url}/rpc`,
    }),
    wallet: freelancer.publicKey(),
  };
}

beforeAll(async () => {
  db = await createTestDatabase();
  handle = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
  handleB = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
  smtp = await startTestSmtp();
  chain = await startChain(TESTNET);
  freelancer = await funded(chain);
});

afterAll(async () => {
  await smtp?.close();
  await chain?.ledger.close();
  await sql?.end();
  await handle?.close();
  await handleB?.close();
  await db?.drop();
});

beforeEach(async () => {
  clock = new Date("2026-06-01T09:00:00.000Z");
  smtp.clear();
  await sql`delete from email_messages`;
  await sql`delete from profiles`;
  // Each test sees its own invoices only: earlier ones leave the reminder scan.
  await sql`update invoices set deleted_at = now() where deleted_at is null`;
});

async function sentInvoice(overrides: Record<string, unknown> = {}) {
  const c = ctx();
  const inv = await createInvoice(
    c,
    createInvoiceSchema.parse(
      invoiceBody({
        dueDate: "2026-06-30",
        freelancerEmail: "me@freelancer.example",
        lineItems: [{ description: "Work", quantity: "1", rate: "100" }],
        ...overrides,
      }),
    ),
  );
  await sendInvoice(c, inv.id);
  return inv;
}

/** A real payment of `amount` XLM to the invoice, recorded through confirm. */
async function payXlm(invoice: { id: string; invoiceNumber: string }, amount: string) {
  const payer = await funded(chain);
  const tx = await pay(
    chain,
    payer,
    freelancer.publicKey(),
    Asset.native(),
    amount,
    Memo.text(invoice.invoiceNumber),
  );
  const hash = await send(chain, tx);
  // A partial payment is recorded, and confirm answers it as an underpayment (400).
  await confirmPayment(ctx(), { invoiceId: invoice.id, transactionHash: hash }).catch((err) => {
    if (!String(err).includes("Underpayment")) throw err;
  });
}

const messages = (kind: string) =>
  sql<{ to: string; subject: string; dedupe_key: string; status: string; payload: any }[]>`
    select "to", subject, dedupe_key, status, payload from email_messages
    where kind = ${kind} order by created_at, id`;

async function deliverAll() {
  for (let i = 0; i < 5; i++) {
    const r = await deliverEmails(ctx());
    if (!r.more) break;
  }
}

describe("receipts and payment notices", () => {
  it("a partial payment says what remains; the completing one says paid in full", async () => {
    const inv = await sentInvoice();
    await payXlm(inv, "40");

    let receipts = await messages("receipt");
    let notices = await messages("payment_notice");
    expect(receipts).toHaveLength(1);
    expect(receipts[0].to).toBe("ada@example.com");
    expect(receipts[0].subject).toBe(`Receipt for invoice ${inv.invoiceNumber}: payment received`);
    expect(receipts[0].payload).toMatchObject({
      amount: "40.0000000",
      remaining: "60.0000000",
      paidInFull: false,
    });
    expect(notices).toHaveLength(1);
    expect(notices[0].to).toBe("me@freelancer.example");

    clock = new Date("2026-06-02T09:00:00.000Z");
    await payXlm(inv, "60");
    receipts = await messages("receipt");
    notices = await messages("payment_notice");
    expect(receipts).toHaveLength(2);
    expect(receipts[1].subject).toBe(`Receipt for invoice ${inv.invoiceNumber}: paid in full`);
    expect(receipts[1].payload).toMatchObject({ remaining: "0.0000000", paidInFull: true });
    expect(notices[1].subject).toBe(`Invoice ${inv.invoiceNumber}: paid in full`);
    // One key per payment: never the same twice.
    expect(new Set(receipts.map((r) => r.dedupe_key)).size).toBe(2);

    await deliverAll();
    const [partial, full] = smtp
      .to("ada@example.com")
      .filter((m) => m.parsed.subject?.startsWith("Receipt"));
    expect(partial.parsed.text).toContain("your payment of 40.00 XLM towards invoice");
    expect(partial.parsed.text).toContain("60.00 XLM remains to be paid");
    expect(full.parsed.text).toContain("is paid in full");
    expect(partial.raw.replace(/\r\n[ \t]+/g, " ")).toContain(
      `List-Unsubscribe: <${unsubscribeUrl(ctx().config, inv.id)}>`,
    );
    const notice = smtp.to("me@freelancer.example").at(-1);
    expect(notice?.parsed.text).toContain("paid invoice");
  });

  it("the notice goes to the profile's email when there is one, none without any address", async () => {
    const now = new Date();
    await sql`insert into profiles (wallet, email, created_at, updated_at)
      values (${freelancer.publicKey()}, 'profile@freelancer.example', ${now}, ${now})`;
    const inv = await sentInvoice();
    await payXlm(inv, "10");
    expect((await messages("payment_notice")).map((n) => n.to)).toEqual([
      "profile@freelancer.example",
    ]);

    await sql`delete from profiles`;
    const bare = await sentInvoice({ freelancerEmail: null });
    await payXlm(bare, "10");
    expect(await messages("payment_notice")).toHaveLength(1);
    expect(await messages("receipt")).toHaveLength(2);
  });
});

describe("reminders", () => {
  const at = (iso: string) => {
    clock = new Date(iso);
  };
  const reminderKeys = async () => (await messages("reminder")).map((m) => m.dedupe_key);

  it("each offset fires once, when its day comes (00:00 UTC)", async () => {
    const inv = await sentInvoice({ reminders: [-3, 0, 7] });
    at("2026-06-26T23:59:59Z");
    expect(await sendReminders(ctx())).toEqual({ queued: 0 });
    at("2026-06-27T00:00:00Z");
    expect(await sendReminders(ctx())).toEqual({ queued: 1 });
    expect(await sendReminders(ctx())).toEqual({ queued: 0 });
    at("2026-06-30T10:00:00Z");
    await sendReminders(ctx());
    at("2026-07-07T00:00:00Z");
    await sendReminders(ctx());
    at("2026-08-20T00:00:00Z");
    await sendReminders(ctx());
    expect(await reminderKeys()).toEqual([
      `reminder:${inv.id}:-3`,
      `reminder:${inv.id}:0`,
      `reminder:${inv.id}:7`,
    ]);
    const subjects = (await messages("reminder")).map((m) => m.subject);
    expect(subjects).toEqual([
      `Reminder: invoice ${inv.invoiceNumber} is due in 3 days`,
      `Reminder: invoice ${inv.invoiceNumber} is due today`,
      `Reminder: invoice ${inv.invoiceNumber} is 7 days overdue`,
    ]);

    await deliverAll();
    const mail = smtp.to("ada@example.com").find((m) => m.parsed.subject?.includes("overdue"));
    const link = unsubscribeUrl(ctx().config, inv.id);
    const headers = mail?.raw.split("\r\n\r\n")[0].replace(/\r\n[ \t]+/g, " ") ?? "";
    expect(headers).toContain(`List-Unsubscribe: <${link}>`);
    expect(headers).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(mail?.parsed.text).toContain(`${APP_URL}/pay/${inv.id}`);
    expect(mail?.parsed.html).toContain(link);
  });

  it("weeks late only the latest due offset is sent", async () => {
    const inv = await sentInvoice({ reminders: [-3, 0, 7] });
    at("2026-07-20T00:00:00Z");
    await sendReminders(ctx());
    expect(await reminderKeys()).toEqual([`reminder:${inv.id}:7`]);
  });

  it("uses the profile's default reminders when the invoice has none", async () => {
    const now = new Date();
    await sql`insert into profiles (wallet, default_reminders, created_at, updated_at)
      values (${freelancer.publicKey()}, '[1]'::jsonb, ${now}, ${now})`;
    const inv = await sentInvoice();
    at("2026-07-01T00:00:00Z");
    await sendReminders(ctx());
    expect(await reminderKeys()).toEqual([`reminder:${inv.id}:1`]);
  });

  it("none after payment in full; a queued one is skipped", async () => {
    const inv = await sentInvoice({ reminders: [-3, 0] });
    at("2026-06-27T00:00:00Z");
    await sendReminders(ctx());
    await payXlm(inv, "100");
    expect((await messages("reminder")).map((m) => m.status)).toEqual(["skipped"]);
    at("2026-06-30T00:00:00Z");
    expect(await sendReminders(ctx())).toEqual({ queued: 0 });
  });

  it("none after cancel, none for drafts", async () => {
    const inv = await sentInvoice({ reminders: [0] });
    await cancelInvoice(ctx(), inv.id, undefined);
    const draft = await createInvoice(
      ctx(),
      createInvoiceSchema.parse(invoiceBody({ dueDate: "2026-06-30", reminders: [0] })),
    );
    expect(draft.id).toBeTruthy();
    at("2026-06-30T00:00:00Z");
    expect(await sendReminders(ctx())).toEqual({ queued: 0 });
  });

  it("none after unsubscribe; the link's page and POST are idempotent, bad tokens 404", async () => {
    const inv = await sentInvoice({ reminders: [-3, 0] });
    at("2026-06-27T00:00:00Z");
    await sendReminders(ctx());
    const token = unsubscribeToken(ctx().config, inv.id);
    expect(verifyUnsubscribeToken(ctx().config, token)).toBe(inv.id);

    const before = await unsubscribeTarget(ctx(), token);
    expect(before.stoppedAt).toBeNull();
    const page = await unsubscribePage(before, token).text();
    expect(page).toContain(`action="/api/unsubscribe/${token}"`);
    expect(page).toContain(inv.invoiceNumber);

    const stopped = await stopReminders(ctx(), token);
    expect(stopped.stoppedAt?.toISOString()).toBe("2026-06-27T00:00:00.000Z");
    at("2026-06-28T00:00:00Z");
    const again = await stopReminders(ctx(), token);
    expect(again.stoppedAt?.toISOString()).toBe("2026-06-27T00:00:00.000Z");
    expect(await unsubscribePage(again, token).text()).toContain("Reminders stopped");
    expect((await messages("reminder")).map((m) => m.status)).toEqual(["skipped"]);

    at("2026-06-30T00:00:00Z");
    expect(await sendReminders(ctx())).toEqual({ queued: 0 });

    const otherId = "a".repeat(24);
    const forged = `${otherId}.${token.split(".")[1]}`;
    for (const bad of [forged, `${inv.id}.nope`, "garbage", `${inv.id}`]) {
      await expect(stopReminders(ctx(), bad)).rejects.toMatchObject({ kind: "not_found" });
    }
  });

  it("two runs at once queue one reminder", async () => {
    const inv = await sentInvoice({ reminders: [0] });
    at("2026-06-30T00:00:00Z");
    const [a, b] = await Promise.all([sendReminders(ctx()), sendReminders(ctx(handleB))]);
    expect(a.queued + b.queued).toBe(1);
    expect(await reminderKeys()).toEqual([`reminder:${inv.id}:0`]);
  });

  it("reminders are settable on create and update, validated", async () => {
    const draft = await createInvoice(
      ctx(),
      createInvoiceSchema.parse(invoiceBody({ reminders: [-1, 2] })),
    );
    const stored = async () =>
      (await sql`select reminders from invoices where id = ${draft.id}`)[0].reminders;
    expect(await stored()).toEqual([-1, 2]);
    await updateInvoice(ctx(), draft.id, updateInvoiceSchema.parse({ reminders: [5] }));
    expect(await stored()).toEqual([5]);
    await updateInvoice(ctx(), draft.id, updateInvoiceSchema.parse({ reminders: null }));
    expect(await stored()).toBeNull();
    expect(createInvoiceSchema.safeParse(invoiceBody({ reminders: [0, 0] })).success).toBe(false);
    expect(updateInvoiceSchema.safeParse({ reminders: [99] }).success).toBe(false);
  });
});

describe("unsubscribe over HTTP (the built server)", () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({ DATABASE_URL: db.url });
  });
  afterAll(() => app?.stop());

  it("GET shows the page and changes nothing; one-click POST stops reminders, twice; bad tokens 404", async () => {
    const s = await signIn(app.url);
    const api = client(app.url, s.token);
    const created = await api.post("/api/invoices", invoiceBody({ reminders: [0] }));
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect((await api.post(`/api/invoices/${id}/send`)).status).toBe(200);
    const link = `${app.url}/api/unsubscribe/${unsubscribeToken({ jwtSecret: TEST_JWT_SECRET }, id)}`;
    const stoppedAt = async () =>
      (await sql`select reminders_stopped_at from invoices where id = ${id}`)[0]
        .reminders_stopped_at;

    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toContain("Stop reminders");
    expect(await stoppedAt()).toBeNull();

    for (let i = 0; i < 2; i++) {
      const one = await fetch(link, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
      expect(one.status).toBe(200);
      expect(await one.text()).toContain("Reminders stopped");
    }
    expect(await stoppedAt()).toBeInstanceOf(Date);

    expect((await fetch(`${link.slice(0, -4)}AAAA`)).status).toBe(404);
    expect((await fetch(`${app.url}/api/unsubscribe/nothing`, { method: "POST" })).status).toBe(
      404,
    );
  });
});
