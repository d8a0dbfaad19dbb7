import { Keypair } from "@stellar/stellar-sdk";
import postgres from "postgres";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { isDomainError } from "@/lib/domain/errors";
import { deliverEmails } from "@/lib/jobs/deliver-emails";
import { createInvoiceSchema } from "@/lib/schemas/invoices";
import type { AuthedContext } from "@/lib/services/context";
import { NOT_CONFIGURED } from "@/lib/services/email/deliver";
import { listInvoiceEmails, resendInvoiceEmail } from "@/lib/services/email/invoice-email";
import { enqueueEmail } from "@/lib/services/email/outbox";
import { sendInvoice } from "@/lib/services/invoices/change-status";
import { createInvoice } from "@/lib/services/invoices/create-invoice";
import { client, invoiceBody } from "./helpers/api";
import { type RunningApp, startApp, TEST_CRON_SECRET } from "./helpers/app";
import { signIn } from "./helpers/auth";
import { testContext } from "./helpers/context";
import { createTestDatabase } from "./helpers/postgres";
import { startTestSmtp, type TestSmtp } from "./helpers/smtp";

let handle: DatabaseHandle;
let handleB: DatabaseHandle;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let smtp: TestSmtp;
let clock = new Date("2026-06-01T09:00:00.000Z");
const wallet = Keypair.random().publicKey();
const APP_URL = "https://invoices.example.com";

function ctx(env: Record<string, string> = {}, h = handle): AuthedContext {
  return {
    ...testContext(h, db.url, () => clock, {
      APP_URL,
      SMTP_URL: smtp.url,
      EMAIL_FROM: "Billing <billing@invoices.example.com>",
      ...env,
    }),
    wallet,
  };
}
/** The same server without SMTP_URL. */
const noSmtp = (): AuthedContext => {
  const c = ctx();
  return { ...c, config: { ...c.config, email: { ...c.config.email, smtpUrl: undefined } } };
};

beforeAll(async () => {
  db = await createTestDatabase();
  handle = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
  handleB = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
  smtp = await startTestSmtp();
});

afterAll(async () => {
  await smtp?.close();
  await sql?.end();
  await handle?.close();
  await handleB?.close();
  await db?.drop();
});

beforeEach(async () => {
  smtp.accept();
  smtp.clear();
  await sql`delete from email_messages`;
});

async function sentInvoice(overrides: Record<string, unknown> = {}, c = ctx()) {
  const inv = await createInvoice(
    c,
    createInvoiceSchema.parse(invoiceBody({ dueDate: "2026-06-30", ...overrides })),
  );
  await sendInvoice(c, inv.id);
  return inv;
}

const rows = () =>
  sql`select kind, "to", subject, status, attempts, last_error, message_id from email_messages order by created_at, id`;

/** The message's header section, folded lines joined. */
const headerBlock = (raw: string) => raw.split("\r\n\r\n")[0].replace(/\r\n[ \t]+/g, " ");
const header = (raw: string, name: string) =>
  new RegExp(`^${name}: (.*)$`, "im").exec(headerBlock(raw))?.[1]?.trim();

async function thrown(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected an error");
}

describe("the invoice email on send", () => {
  it("reaches the client with the summary, Pay now link, PDF, text part and List-Unsubscribe", async () => {
    const inv = await sentInvoice({
      freelancerName: "Sam Freelancer",
      freelancerEmail: "sam@example.com",
    });
    expect((await rows()).map((r) => r.status)).toEqual(["pending"]);

    const r = await deliverEmails(ctx());
    expect(r).toMatchObject({ attempted: 1, sent: 1, failed: 0 });
    const [mail] = await smtp.waitFor(1);
    expect(mail.envelope.to).toEqual(["ada@example.com"]);
    expect(mail.envelope.from).toBe("billing@invoices.example.com");
    const p = mail.parsed;
    expect(p.subject).toBe(`Invoice ${inv.invoiceNumber} from Sam Freelancer: 1,001.00 XLM`);
    expect(p.from?.value).toEqual([{ name: "Billing", address: "billing@invoices.example.com" }]);
    expect(p.replyTo?.value).toEqual([{ name: "Sam Freelancer", address: "sam@example.com" }]);
    const payUrl = `${APP_URL}/pay/${inv.id}`;
    expect(p.html).toContain(`href="${payUrl}"`);
    expect(p.html).toContain("Pay now");
    expect(p.text).toContain(payUrl);
    expect(p.text).toContain("1,001.00 XLM");
    expect(p.text).toContain("30 Jun 2026");
    expect(p.attachments).toHaveLength(1);
    expect(p.attachments[0].contentType).toBe("application/pdf");
    expect(p.attachments[0].filename).toBe(`${inv.invoiceNumber}.pdf`);
    expect(p.attachments[0].content.subarray(0, 5).toString()).toBe("%PDF-");
    const unsubscribe = header(mail.raw, "List-Unsubscribe") ?? "";
    expect(unsubscribe).toMatch(new RegExp(`^<${APP_URL}/api/unsubscribe/${inv.id}\\.[\\w-]+>$`));
    expect(header(mail.raw, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    expect(p.html).toContain(unsubscribe.slice(1, -1));

    const [row] = await rows();
    expect(row.status).toBe("sent");
    expect(row.message_id).toBe(p.messageId);
    // Delivered once: another pass sends nothing.
    expect((await deliverEmails(ctx())).attempted).toBe(0);
    expect(smtp.messages).toHaveLength(1);
  });

  it("Reply-To, sender and footer come from the freelancer's profile", async () => {
    const owner = Keypair.random().publicKey();
    // A real 1x1 PNG logo: on the attached PDF as an image, in the email by its URL.
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
      "base64",
    );
    await sql`insert into profiles (wallet, display_name, company, email, email_footer, logo, logo_type,
        logo_updated_at, created_at, updated_at)
      values (${owner}, 'Studio Sam', 'Sam & Co', 'hello@studio.example', 'Thanks! <b>VAT</b> 123',
        ${png}, 'image/png', now(), now(), now())`;
    const c = { ...ctx(), wallet: owner };
    const inv = await sentInvoice({ freelancerName: "Someone Else" }, c);
    await deliverEmails(ctx());
    const [mail] = await smtp.waitFor(1);
    expect(mail.parsed.replyTo?.value).toEqual([
      { name: "Studio Sam", address: "hello@studio.example" },
    ]);
    expect(mail.parsed.subject).toBe(`Invoice ${inv.invoiceNumber} from Studio Sam: 1,001.00 XLM`);
    expect(mail.parsed.text).toContain("Thanks! <b>VAT</b> 123");
    expect(mail.parsed.html).toContain("Thanks! &lt;b&gt;VAT&lt;/b&gt; 123");
    // The name, the company and the logo, in the email and on its PDF.
    expect(mail.parsed.text).toContain("Sam & Co");
    expect(mail.parsed.html).toContain(`${APP_URL}/api/profile/logo/${owner}?v=`);
    const pdf = mail.parsed.attachments.find((a) => a.contentType === "application/pdf");
    expect(pdf?.content.toString("latin1")).toMatch(/\/Subtype\s*\/Image/);
  });

  it("emailClient false: nothing is queued; the owner view says so", async () => {
    const inv = await sentInvoice({ emailClient: false });
    expect(inv.emailClient).toBe(false);
    expect(await rows()).toHaveLength(0);
    const emailed = await sentInvoice({ reminders: [-3, 0, 7] });
    expect(emailed).toMatchObject({ emailClient: true, reminders: [-3, 0, 7] });
    expect(await rows()).toHaveLength(1);
  });

  it("escapes HTML and cannot inject headers through the client's name or a subject", async () => {
    const inv = await sentInvoice({
      clientName: "Bob\r\nBcc: evil@x.example",
      title: "<script>alert(1)</script>",
      freelancerName: "Eve\r\nBcc: evil@x.example <b>",
    });
    await deliverEmails(ctx());
    const [mail] = await smtp.waitFor(1);
    expect(mail.envelope.to).toEqual(["ada@example.com"]);
    expect(headerBlock(mail.raw)).not.toMatch(/^bcc:/im);
    expect(mail.parsed.bcc).toBeUndefined();
    expect(mail.parsed.to && "value" in mail.parsed.to ? mail.parsed.to.value : []).toEqual([
      { name: "Bob Bcc: evil@x.example", address: "ada@example.com" },
    ]);
    expect(mail.parsed.subject).toBe(
      `Invoice ${inv.invoiceNumber} from Eve Bcc: evil@x.example <b>: 1,001.00 XLM`,
    );
    expect(mail.parsed.html).not.toContain("<script>");
    expect(mail.parsed.html).toContain("&lt;script&gt;");

    // A recipient with a line break or several addresses, or a two-line subject, is refused
    // at enqueue (400) and never reaches SMTP.
    for (const to of [
      "a@x.example\r\nBcc: evil@x.example",
      "a@x.example, b@x.example",
      "A <a@x.example>",
    ]) {
      const err = await thrown(resendInvoiceEmail(ctx(), inv.id, { to }));
      expect(isDomainError(err) && err.kind).toBe("validation");
    }
    const err = await thrown(
      enqueueEmail(
        handle.db,
        {
          wallet,
          invoiceId: inv.id,
          kind: "invoice",
          dedupeKey: "x",
          to: "a@x.example",
          subject: "Hi\r\nBcc: evil@x.example",
          payload: {},
        },
        clock,
      ),
    );
    expect(isDomainError(err) && err.kind).toBe("validation");
    expect(await rows()).toHaveLength(1);
    expect((await deliverEmails(ctx())).attempted).toBe(0);
    expect(smtp.messages).toHaveLength(1);
  });
});

describe("delivery", () => {
  it("SMTP down then up: each message delivered once, in order", async () => {
    const a = await sentInvoice({ clientEmail: "one@example.com" });
    clock = new Date(clock.getTime() + 1000);
    const b = await sentInvoice({ clientEmail: "two@example.com" });
    clock = new Date(clock.getTime() + 1000);
    const c = await sentInvoice({ clientEmail: "three@example.com" });
    await smtp.down();
    const down = await deliverEmails(ctx());
    expect(down).toMatchObject({ attempted: 1, retrying: 1, sent: 0 });
    let state = await rows();
    expect(state.map((r) => r.status)).toEqual(["pending", "pending", "pending"]);
    expect(state[0].attempts).toBe(1);
    expect(state[0].last_error).toMatch(/ECONNREFUSED/);
    // Not yet due again: nothing is attempted.
    expect((await deliverEmails(ctx())).attempted).toBe(0);

    await smtp.up();
    clock = new Date(clock.getTime() + 61_000);
    // Two workers at once: the rows are claimed with SKIP LOCKED, never sent twice.
    const [r1, r2] = await Promise.all([deliverEmails(ctx()), deliverEmails(ctx({}, handleB))]);
    expect(r1.sent + r2.sent).toBe(3);
    await smtp.waitFor(3);
    expect(smtp.messages.map((m) => m.envelope.to[0])).toEqual([
      "one@example.com",
      "two@example.com",
      "three@example.com",
    ]);
    state = await rows();
    expect(state.map((r) => r.status)).toEqual(["sent", "sent", "sent"]);
    expect((await deliverEmails(ctx())).attempted).toBe(0);
    expect(smtp.messages).toHaveLength(3);
    expect([a, b, c].map((i) => i.id)).toHaveLength(3);
  });

  it("a 550 rejection is final and shown; a 451 is retried", async () => {
    const inv = await sentInvoice();
    smtp.reject(451);
    expect(await deliverEmails(ctx())).toMatchObject({ retrying: 1 });
    smtp.reject(550, "No such user here");
    clock = new Date(clock.getTime() + 61_000);
    expect(await deliverEmails(ctx())).toMatchObject({ failed: 1 });
    clock = new Date(clock.getTime() + 3_600_000);
    expect((await deliverEmails(ctx())).attempted).toBe(0);
    expect(smtp.messages).toHaveLength(0);
    const { emails } = await listInvoiceEmails(ctx(), inv.id);
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ status: "failed", attempts: 2, to: "ada@example.com" });
    expect(emails[0].lastError).toMatch(/550 No such user here/);
  });

  it("retries for 24 h after queueing, then fails", async () => {
    await sentInvoice();
    await smtp.down();
    const start = clock.getTime();
    for (let i = 0; i < 40 && clock.getTime() < start + 25 * 3_600_000; i++) {
      await deliverEmails(ctx());
      clock = new Date(clock.getTime() + 3_600_000);
    }
    await smtp.up();
    const [row] = await rows();
    expect(row.status).toBe("failed");
    expect(row.last_error).toMatch(/ECONNREFUSED/);
    expect(row.attempts).toBeGreaterThan(20);
  });
});

describe("without SMTP_URL", () => {
  it("nothing is sent and the API says so", async () => {
    const inv = await sentInvoice({}, noSmtp());
    const listed = await listInvoiceEmails(noSmtp(), inv.id);
    expect(listed.configured).toBe(false);
    expect(listed.emails[0]).toMatchObject({ status: "skipped", lastError: NOT_CONFIGURED });
    // A message queued by another path is closed by the job, never sent.
    await enqueueEmail(
      handle.db,
      {
        wallet,
        invoiceId: inv.id,
        kind: "invoice",
        dedupeKey: "k",
        to: "a@x.example",
        subject: "S",
        payload: {},
      },
      clock,
    );
    expect(await deliverEmails(noSmtp())).toMatchObject({ attempted: 0, skipped: 1 });
    const resent = await resendInvoiceEmail(noSmtp(), inv.id, {});
    expect(resent.configured).toBe(false);
    expect(resent.email.status).toBe("skipped");
    expect(smtp.messages).toHaveLength(0);
  });
});

describe("resend", () => {
  it("emails the invoice again, at most 10 per hour per invoice", async () => {
    // A copy to the freelancer's own address (the only other recipient allowed).
    const inv = await sentInvoice({ freelancerEmail: "me@freelancer.example" });
    const other = await sentInvoice();
    for (let i = 0; i < 10; i++) {
      const r = await resendInvoiceEmail(
        ctx(),
        inv.id,
        i === 0 ? { to: "me@freelancer.example" } : {},
      );
      expect(r).toMatchObject({ configured: true, email: { status: "pending" } });
    }
    const err = await thrown(resendInvoiceEmail(ctx(), inv.id, {}));
    expect(isDomainError(err) && err.kind).toBe("rate_limited");
    // Per invoice: another invoice is not limited.
    await resendInvoiceEmail(ctx(), other.id, {});
    // One message per invoice and recipient at a time (in order): a few passes.
    for (let i = 0; i < 3; i++) await deliverEmails(ctx());
    await smtp.waitFor(13);
    expect(smtp.to("me@freelancer.example")).toHaveLength(1);
    expect(smtp.to("me@freelancer.example")[0].parsed.text).toContain("A copy of invoice");
    // An hour later the invoice can be emailed again.
    clock = new Date(clock.getTime() + 3_600_001);
    await resendInvoiceEmail(ctx(), inv.id, {});
    const { emails } = await listInvoiceEmails(ctx(), inv.id);
    expect(emails).toHaveLength(12);
    expect(emails[0].status).toBe("pending");
  });

  it("only the owner; not a draft", async () => {
    const inv = await sentInvoice();
    const stranger = { ...ctx(), wallet: Keypair.random().publicKey() };
    expect(isDomainError(await thrown(resendInvoiceEmail(stranger, inv.id, {})))).toBe(true);
    expect(isDomainError(await thrown(listInvoiceEmails(stranger, inv.id)))).toBe(true);
    const draft = await createInvoice(ctx(), createInvoiceSchema.parse(invoiceBody()));
    const err = await thrown(resendInvoiceEmail(ctx(), draft.id, {}));
    expect(isDomainError(err) && err.kind).toBe("business_rule");
  });
});

describe("over HTTP (the built server, its cron route and the real SMTP server)", () => {
  let app: RunningApp;
  let bare: RunningApp;
  const cron = (a: RunningApp) =>
    fetch(`${a.url}/api/cron/emails`, { headers: { authorization: `Bearer ${TEST_CRON_SECRET}` } });

  beforeAll(async () => {
    app = await startApp({ DATABASE_URL: db.url, SMTP_URL: smtp.url });
    bare = await startApp({ DATABASE_URL: db.url });
  });
  afterAll(async () => {
    await app?.stop();
    await bare?.stop();
  });

  it("send emails the client through /api/cron/emails; GET emails shows it; bad recipients are 400", async () => {
    const s = await signIn(app.url);
    const api = client(app.url, s.token);
    const created = await api.post(
      "/api/invoices",
      invoiceBody({ clientEmail: "http@example.com" }),
    );
    const id = created.body.id;
    expect((await api.post(`/api/invoices/${id}/send`)).status).toBe(200);
    expect((await fetch(`${app.url}/api/cron/emails`)).status).toBe(401);
    const pass = await cron(app);
    expect(pass.status).toBe(200);
    expect(await pass.json()).toMatchObject({ attempted: 1, sent: 1, failed: 0 });
    const [mail] = await smtp.waitFor(1);
    expect(mail.envelope.to).toEqual(["http@example.com"]);
    expect(mail.parsed.text).toContain(`${app.url}/pay/${id}`);

    const listed = await api.get(`/api/invoices/${id}/emails`);
    expect(listed.status).toBe(200);
    expect(listed.body.configured).toBe(true);
    expect(listed.body.emails).toMatchObject([
      { kind: "invoice", status: "sent", to: "http@example.com" },
    ]);

    for (const to of ["x@example.com\r\nBcc: evil@example.com", "a@example.com, b@example.com"]) {
      const r = await api.post(`/api/invoices/${id}/email`, { to });
      expect(r.status).toBe(400);
    }
    // Never to an address of the caller's choice: only the client's or the owner's own.
    const stranger = await api.post(`/api/invoices/${id}/email`, { to: "victim@example.org" });
    expect(stranger.status).toBe(400);
    expect(stranger.body).toMatchObject({
      error: "The invoice can be emailed only to its client's email or to your own",
      details: { to: "must be the invoice's client email or your own" },
    });
    expect((await api.put("/api/profile", { email: "me@freelancer.example" })).status).toBe(200);
    const own = await api.post(`/api/invoices/${id}/email`, { to: "Me@Freelancer.example" });
    expect(own.status).toBe(202);
    const again = await api.post(`/api/invoices/${id}/email`, {});
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ configured: true, email: { status: "pending" } });
    const other = client(app.url, (await signIn(app.url)).token);
    expect((await other.get(`/api/invoices/${id}/emails`)).status).toBe(403);
    expect((await other.post(`/api/invoices/${id}/email`, {})).status).toBe(403);
    await cron(app);
    await smtp.waitFor(3);
    expect(smtp.messages).toHaveLength(3);
    expect(smtp.messages.flatMap((m) => m.envelope.to)).not.toContain("victim@example.org");
  });

  it("without SMTP_URL the API says the email was not sent", async () => {
    const s = await signIn(bare.url);
    const api = client(bare.url, s.token);
    const id = (await api.post("/api/invoices", invoiceBody())).body.id;
    await api.post(`/api/invoices/${id}/send`);
    const listed = await api.get(`/api/invoices/${id}/emails`);
    expect(listed.body).toMatchObject({
      configured: false,
      emails: [{ status: "skipped", lastError: NOT_CONFIGURED }],
    });
    const again = await api.post(`/api/invoices/${id}/email`, {});
    expect(again.body).toMatchObject({ configured: false, email: { status: "skipped" } });
    expect(await (await cron(bare)).json()).toMatchObject({ attempted: 0 });
    expect(smtp.messages).toHaveLength(0);
  });
});
