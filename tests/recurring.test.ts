import { spawn } from "node:child_process";
import path from "node:path";
import { Keypair } from "@stellar/stellar-sdk";
import postgres from "postgres";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/domain/errors";
import { toErrorPayload } from "@/lib/http/errors";
import { createRecurringInvoices } from "@/lib/jobs/create-recurring-invoices";
import { createInvoiceSchema } from "@/lib/schemas/invoices";
import { createRecurringSchema, updateRecurringSchema } from "@/lib/schemas/recurring";
import { ownerInvoiceSerializer } from "@/lib/serializers/invoices";
import { recurringDetailSerializer } from "@/lib/serializers/recurring";
import { SAVED_CLIENT_NOT_FOUND } from "@/lib/services/clients/saved-client";
import { upsertClient } from "@/lib/services/clients/upsert-client";
import type { AuthedContext } from "@/lib/services/context";
import { sendInvoice } from "@/lib/services/invoices/change-status";
import { createInvoice } from "@/lib/services/invoices/create-invoice";
import { duplicateInvoice } from "@/lib/services/invoices/duplicate-invoice";
import { getOwnerInvoice } from "@/lib/services/invoices/view-invoice";
import {
  createRecurring,
  deleteRecurring,
  getRecurring,
  listRecurring,
  pauseRecurring,
  resumeRecurring,
  updateRecurring,
} from "@/lib/services/recurring/schedules";
import { invoiceBody } from "./helpers/api";
import { testContext } from "./helpers/context";
import { createTestDatabase } from "./helpers/postgres";
import { kill } from "./helpers/worker";

// Recurring invoices (docs/decisions.md, Recurring invoices), in-process against a real
// database with a pinned clock: the schedule's dates, one invoice per period however many
// workers run and whatever crashes, PATCH, pause/resume, owner checks and bad input.

let handleA: DatabaseHandle;
let handleB: DatabaseHandle;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let clock = new Date("2027-01-31T08:00:00.000Z");
const ROOT = path.resolve(import.meta.dirname, "..");

function ctx(wallet: string, handle = handleA): AuthedContext {
  return { ...testContext(handle, db.url, () => clock), wallet };
}
const job = (handle = handleA, opts = {}) =>
  createRecurringInvoices(
    testContext(handle, db.url, () => clock),
    opts,
  );

beforeAll(async () => {
  db = await createTestDatabase();
  handleA = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
  handleB = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
});

// Each test starts with no live schedule, so a job's counts are the test's own.
beforeEach(async () => {
  await sql`update recurring_schedules set deleted_at = now() where deleted_at is null`;
});

afterAll(async () => {
  await sql?.end();
  await handleA?.close();
  await handleB?.close();
  await db?.drop();
});

/** A monthly schedule from Jan 31 2027 of 13 invoices, as the API would parse its body. */
function monthly(wallet: string, over: Record<string, unknown> = {}) {
  return createRecurring(
    ctx(wallet),
    createRecurringSchema.parse({
      template: invoiceBody({ title: "Retainer" }),
      interval: "month",
      startDate: "2027-01-31",
      count: 13,
      dueInDays: 14,
      ...over,
    }),
  );
}

const madeBy = (id: string) =>
  sql<{ id: string; recurring_period: number; due_date: Date; status: string; total: string }[]>`
    select id, recurring_period, due_date, status, total from invoices
    where recurring_id = ${id} order by recurring_period`;

const day = (d: Date) => d.toISOString().slice(0, 10);

/** GET /api/recurring/:id's body (Form B) for the owner. */
const shownAt = async (wallet: string, id: string) =>
  recurringDetailSerializer.b(await getRecurring(ctx(wallet), id), {
    appUrl: "http://x",
    now: clock,
  });

const JAN31_MONTHS = [
  "2027-01-31",
  "2027-02-28",
  "2027-03-31",
  "2027-04-30",
  "2027-05-31",
  "2027-06-30",
  "2027-07-31",
  "2027-08-31",
  "2027-09-30",
  "2027-10-31",
  "2027-11-30",
  "2027-12-31",
  "2028-01-31",
];

describe("the recurring job", () => {
  it("13 monthly periods from Jan 31: each invoice on its calendar date, due 14 days later, sent; then it ends", async () => {
    const wallet = Keypair.random().publicKey();
    clock = new Date("2027-01-30T08:00:00.000Z");
    const r = await monthly(wallet);
    expect(r.nextRunAt?.toISOString()).toBe("2027-01-31T00:00:00.000Z");
    expect((await job()).created).toBe(0);

    for (const [n, date] of JAN31_MONTHS.entries()) {
      clock = new Date(`${date}T00:00:00.000Z`);
      clock = new Date(clock.getTime() - 1);
      expect((await job()).created, `before ${date}`).toBe(0);
      clock = new Date(`${date}T09:00:00.000Z`);
      expect(await job(), date).toMatchObject({ created: 1, sent: 1, unsent: 0 });
      const rows = await madeBy(r.id);
      expect(rows.length).toBe(n + 1);
      const due = new Date(`${date}T00:00:00.000Z`);
      due.setUTCDate(due.getUTCDate() + 14);
      expect(rows[n]).toMatchObject({ recurring_period: n, status: "PENDING" });
      expect(day(rows[n].due_date)).toBe(day(due));
    }
    clock = new Date("2030-01-01T00:00:00.000Z");
    expect((await job()).created).toBe(0);
    const detail = await getRecurring(ctx(wallet), r.id);
    expect(detail.nextRunAt).toBeNull();
    expect(detail.invoices.map((i) => i.recurringPeriod)).toEqual([...Array(13).keys()].reverse());

    // Sent as any send: the client's email is queued with each (docs/decisions.md, Email).
    const [{ n: emails }] = await sql`select count(*)::int as n from email_messages
      where kind = 'invoice' and invoice_id in (select id from invoices where recurring_id = ${r.id})`;
    expect(emails).toBe(13);

    // The invoice carries recurringId, and so does its invoice.created event.
    const first = await getOwnerInvoice(ctx(wallet), detail.invoices[12].id);
    expect(ownerInvoiceSerializer.b(first, { appUrl: "http://x", now: clock }).recurringId).toBe(
      r.id,
    );
    const [event] = await sql`select data from events
      where invoice_id = ${first.id} and type = 'invoice.created'`;
    expect(event.data.recurringId).toBe(r.id);
  });

  it("after downtime it catches up every missed period once, each with a full payment term", async () => {
    const wallet = Keypair.random().publicKey();
    clock = new Date("2027-01-31T08:00:00.000Z");
    const r = await monthly(wallet);
    clock = new Date("2027-04-10T12:00:00.000Z");
    expect((await job()).created).toBe(3);
    expect((await job()).created).toBe(0);
    const rows = await madeBy(r.id);
    expect(rows.map((x) => x.recurring_period)).toEqual([0, 1, 2]);
    // Created late: due 14 days from the day it was made, never in the past.
    expect(rows.map((x) => day(x.due_date))).toEqual(["2027-04-24", "2027-04-24", "2027-04-24"]);
  });

  it("a worker killed mid-run and a transaction aborted mid-way: 13 invoices, never 14", async () => {
    const wallet = Keypair.random().publicKey();
    clock = new Date("2027-01-31T08:00:00.000Z");
    const r = await monthly(wallet);
    clock = new Date("2028-03-01T00:00:00.000Z");

    // A real process, SIGKILLed while a period's transaction is open.
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "tests/helpers/recurring-worker.ts"],
      {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: process.env.HOME ?? "",
          NODE_ENV: "test",
          DATABASE_URL: db.url,
          RECURRING_CLOCK: clock.toISOString(),
          SLOW_MS: "400",
          LOG_LEVEL: "error",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
    });
    child.stderr?.on("data", (d) => {
      out += d;
    });
    const deadline = Date.now() + 30_000;
    while ((await madeBy(r.id)).length < 4 || !/period 4\n/.test(out)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`worker: ${out}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await kill(child);
    // Period 4's transaction died with the process.
    expect((await madeBy(r.id)).map((x) => x.recurring_period)).toEqual([0, 1, 2, 3]);

    // In-process: a crash after period 6's invoice is written, before its commit.
    await expect(
      job(handleA, {
        afterInsert: async (_tx: unknown, p: { period: number }) => {
          if (p.period === 6) throw new Error("crash");
        },
      }),
    ).rejects.toThrow("crash");
    expect((await madeBy(r.id)).length).toBe(6);

    expect((await job()).created).toBe(7);
    expect((await job()).created).toBe(0);
    expect((await madeBy(r.id)).map((x) => x.recurring_period)).toEqual([...Array(13).keys()]);
  }, 60_000);

  it("two workers on separate connections racing: 13 invoices, never 14", async () => {
    const wallet = Keypair.random().publicKey();
    clock = new Date("2027-01-31T08:00:00.000Z");
    const r = await monthly(wallet);
    const other = await monthly(wallet, { interval: "week", count: 5 });
    clock = new Date("2028-03-01T00:00:00.000Z");
    const results = await Promise.all([
      job(handleA),
      job(handleB),
      job(handleA, { batchSize: 2 }),
      job(handleB, { batchSize: 3 }),
    ]);
    const total = results.reduce((s, x) => s + x.created, 0);
    expect((await madeBy(r.id)).map((x) => x.recurring_period)).toEqual([...Array(13).keys()]);
    expect((await madeBy(other.id)).length).toBe(5);
    // Bounded runs may leave work for the next pass; all of it is done once.
    expect(total + (await job()).created).toBe(18);
    expect((await madeBy(r.id)).length).toBe(13);
  });

  it("autoSend refused (the wallet cannot receive): the invoice stays a draft, the period is done, the job goes on", async () => {
    const { startChain, TESTNET } = await import("./helpers/stellar");
    const chain = await startChain(TESTNET);
    try {
      const wallet = Keypair.random().publicKey(); // no account on the ledger
      clock = new Date("2027-01-31T08:00:00.000Z");
      const r = await monthly(wallet, { count: 2 });
      clock = new Date("2027-03-01T00:00:00.000Z");
      const run = await createRecurringInvoices(
        testContext(handleA, db.url, () => clock, {
          HORIZON_TESTNET_URL: chain.ledger.url,
          RPC_TESTNET_URL: `${chain.ledger.url}/rpc`,
        }),
      );
      expect(run).toMatchObject({ created: 2, sent: 0, unsent: 2 });
      expect((await madeBy(r.id)).map((x) => x.status)).toEqual(["DRAFT", "DRAFT"]);
      // The schedule says why, not only the log (issue 27, item 15): GET /api/recurring/:id.
      const shown = await shownAt(wallet, r.id);
      expect(shown.lastRefusal).toEqual({
        reason: expect.stringMatching(
          /^INV-0002 was kept as a draft: Your wallet cannot receive XLM on Testnet yet: the account is not activated/,
        ),
        period: 1,
        at: clock.toISOString(),
      });
      const [{ n }] = await sql`select count(*)::int as n from email_messages
        where invoice_id in (select id from invoices where recurring_id = ${r.id})`;
      expect(n).toBe(0);
    } finally {
      await chain.ledger.stop();
    }
  });

  it("a period the job refuses to create: the schedule shows why until a period is made (issue 27, item 15)", async () => {
    const wallet = Keypair.random().publicKey();
    clock = new Date("2027-01-31T08:00:00.000Z");
    const r = await monthly(wallet, { count: 3, autoSend: false });
    expect((await shownAt(wallet, r.id)).lastRefusal).toBe(null);
    // The stored template now makes the create-invoice service refuse (as a limit would).
    const other = Keypair.random().publicKey();
    await sql`update recurring_schedules
      set template = template || ${sql.json({ freelancerWallet: other })} where id = ${r.id}`;
    expect(await job()).toMatchObject({ created: 0, failed: 1 });
    expect(await madeBy(r.id)).toEqual([]);
    const refused = await shownAt(wallet, r.id);
    expect(refused.lastRefusal).toEqual({
      reason: "The invoice was not created: Freelancer wallet must match authenticated wallet",
      period: 0,
      at: clock.toISOString(),
    });
    expect(refused).toMatchObject({ nextPeriod: 0, status: "active" });
    // Anything that is not a domain error is an internal error in the owner's words.
    await sql`update recurring_schedules set template = '{}'::jsonb where id = ${r.id}`;
    clock = new Date("2027-01-31T09:00:00.000Z");
    await job();
    expect((await shownAt(wallet, r.id)).lastRefusal?.reason).toBe(
      "The invoice was not created: The invoice could not be created because of an internal error; it is tried again on the next run",
    );

    // Fixed: the next run makes the period and the refusal is gone.
    await sql`update recurring_schedules set template = ${sql.json(invoiceBody({ title: "Retainer" }))}
      where id = ${r.id}`;
    expect(await job()).toMatchObject({ created: 1, failed: 0 });
    expect(await shownAt(wallet, r.id)).toMatchObject({
      lastRefusal: null,
      nextPeriod: 1,
    });
  });

  it("autoSend false: drafts", async () => {
    const wallet = Keypair.random().publicKey();
    clock = new Date("2027-01-31T08:00:00.000Z");
    const r = await monthly(wallet, { count: 1, autoSend: false });
    expect((await job()).created).toBe(1);
    expect((await madeBy(r.id))[0].status).toBe("DRAFT");
  });
});

describe("changes", () => {
  it("PATCH applies to the periods still to come, never to invoices made", async () => {
    const wallet = Keypair.random().publicKey();
    clock = new Date("2027-01-31T08:00:00.000Z");
    const r = await monthly(wallet);
    await job();
    await updateRecurring(
      ctx(wallet),
      r.id,
      updateRecurringSchema.parse({
        template: invoiceBody({ lineItems: [{ description: "More", quantity: "1", rate: "99" }] }),
        dueInDays: 3,
      }),
    );
    clock = new Date("2027-02-28T09:00:00.000Z");
    await job();
    const rows = await madeBy(r.id);
    expect(rows.map((x) => [x.total, day(x.due_date)])).toEqual([
      ["1001.0000000", "2027-02-14"],
      ["99.0000000", "2027-03-03"],
    ]);
    // The anchor is the key of "one invoice per period": fixed once invoices exist.
    const refused = updateRecurring(
      ctx(wallet),
      r.id,
      updateRecurringSchema.parse({ interval: "week" }),
    );
    await expect(refused).rejects.toBeInstanceOf(ConflictError);
    // A lower count ends it.
    const ended = await updateRecurring(
      ctx(wallet),
      r.id,
      updateRecurringSchema.parse({ count: 2 }),
    );
    expect(ended.nextRunAt).toBeNull();
  });

  it("the whole invoice model (lines, tax, EUR, a saved client): PATCH changes the next period only, each period reads the saved client's current details (issue 28, item 14)", async () => {
    const wallet = Keypair.random().publicKey();
    clock = new Date("2027-01-31T08:00:00.000Z");
    const saved = await upsertClient(ctx(wallet), {
      name: "Erin Client",
      email: "erin@example.com",
      company: "Erin Ltd",
      address: "1 Old Street",
    });
    const template = (over: Record<string, unknown>) => ({
      clientId: saved.id,
      title: "Retainer",
      currency: "USDC",
      priceCurrency: "EUR",
      ...over,
    });
    const r = await monthly(wallet, {
      autoSend: false,
      template: template({
        taxRate: "10",
        lineItems: [
          { description: "Retainer", quantity: "1", rate: "1000" },
          { description: "Hosting", quantity: "2", rate: "12.50" },
        ],
      }),
    });
    await job();
    // The client moves; the freelancer raises the rate and the tax changes, from next month.
    await upsertClient(ctx(wallet), {
      name: "Erin Client",
      email: "erin@example.com",
      address: "2 New Road",
    });
    await updateRecurring(
      ctx(wallet),
      r.id,
      updateRecurringSchema.parse({
        template: template({
          taxRate: "20",
          lineItems: [
            { description: "Retainer", quantity: "1", rate: "1100" },
            { description: "Hosting", quantity: "2", rate: "12.50" },
            { description: "Support", quantity: "1.5", rate: "60" },
          ],
        }),
      }),
    );
    clock = new Date("2027-02-28T09:00:00.000Z");
    await job();
    const made = await Promise.all(
      (await madeBy(r.id)).map((x) => getOwnerInvoice(ctx(wallet), x.id)),
    );
    const view = (i: (typeof made)[number]) => ({
      lines: i.lineItems.map((l) => [l.description, l.quantity, l.rate, l.amount]),
      taxRate: i.taxRate,
      taxAmount: i.taxAmount,
      total: i.total,
      priceCurrency: i.priceCurrency,
      currency: i.currency,
      client: [i.clientName, i.clientEmail, i.clientCompany, i.clientAddress],
    });
    expect(made.map(view)).toEqual([
      {
        lines: [
          ["Retainer", "1.00", "1000.0000000", "1000.0000000"],
          ["Hosting", "2.00", "12.5000000", "25.0000000"],
        ],
        taxRate: "10.00",
        taxAmount: "102.5000000",
        total: "1127.5000000",
        priceCurrency: "EUR",
        currency: "USDC",
        client: ["Erin Client", "erin@example.com", "Erin Ltd", "1 Old Street"],
      },
      {
        lines: [
          ["Retainer", "1.00", "1100.0000000", "1100.0000000"],
          ["Hosting", "2.00", "12.5000000", "25.0000000"],
          ["Support", "1.50", "60.0000000", "90.0000000"],
        ],
        taxRate: "20.00",
        taxAmount: "243.0000000",
        total: "1458.0000000",
        priceCurrency: "EUR",
        currency: "USDC",
        client: ["Erin Client", "erin@example.com", "Erin Ltd", "2 New Road"],
      },
    ]);

    // The saved client is deleted: the period is refused, shown on the schedule, and left due.
    await sql`delete from clients where id = ${saved.id}`;
    clock = new Date("2027-03-31T09:00:00.000Z");
    expect(await job()).toMatchObject({ created: 0, failed: 1 });
    expect((await shownAt(wallet, r.id)).lastRefusal).toMatchObject({
      reason: `The invoice was not created: ${SAVED_CLIENT_NOT_FOUND}`,
      period: 2,
    });
    // Another client in the template: the March invoice is made on the next run.
    await updateRecurring(
      ctx(wallet),
      r.id,
      updateRecurringSchema.parse({
        template: invoiceBody({
          title: "Retainer",
          clientName: "Finn",
          clientEmail: "f@example.com",
        }),
      }),
    );
    expect(await job()).toMatchObject({ created: 1 });
    expect((await madeBy(r.id)).map((x) => x.recurring_period)).toEqual([0, 1, 2]);
  });

  it("pause stops creation; resume continues from the next period dated today or later (paused ones skipped)", async () => {
    const wallet = Keypair.random().publicKey();
    clock = new Date("2027-01-31T08:00:00.000Z");
    const r = await monthly(wallet);
    await job();
    const paused = await pauseRecurring(ctx(wallet), r.id);
    expect(paused.pausedAt?.toISOString()).toBe(clock.toISOString());
    clock = new Date("2027-04-15T10:00:00.000Z");
    expect((await job()).created).toBe(0);
    const resumed = await resumeRecurring(ctx(wallet), r.id);
    expect(resumed.pausedAt).toBeNull();
    expect(resumed.nextPeriod).toBe(3);
    expect(resumed.nextRunAt?.toISOString()).toBe("2027-04-30T00:00:00.000Z");
    expect((await job()).created).toBe(0);
    clock = new Date("2027-04-30T00:00:00.000Z");
    expect((await job()).created).toBe(1);
    expect((await madeBy(r.id)).map((x) => x.recurring_period)).toEqual([0, 3]);

    await deleteRecurring(ctx(wallet), r.id);
    clock = new Date("2027-12-01T00:00:00.000Z");
    expect((await job()).created).toBe(0);
    expect((await listRecurring(ctx(wallet))).map((x) => x.id)).not.toContain(r.id);
    // Its invoices stay.
    expect((await madeBy(r.id)).length).toBe(2);
  });
});

describe("owner only, bad input", () => {
  it("another wallet gets 403, an unknown id 404, a key of the other network 404", async () => {
    const wallet = Keypair.random().publicKey();
    clock = new Date("2027-01-31T08:00:00.000Z");
    const r = await monthly(wallet);
    const intruder = ctx(Keypair.random().publicKey());
    await expect(getRecurring(intruder, r.id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(pauseRecurring(intruder, r.id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(deleteRecurring(intruder, r.id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(getRecurring(ctx(wallet), "c".repeat(25))).rejects.toBeInstanceOf(NotFoundError);
    const liveKey = {
      ...ctx(wallet),
      apiKey: {
        id: "k",
        wallet,
        prefix: "sk_live_x",
        scopes: ["invoices:read" as const],
        network: "mainnet" as const,
      },
    };
    await expect(getRecurring(liveKey, r.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await listRecurring(liveKey)).toEqual([]);
    expect((await listRecurring(ctx(wallet))).map((x) => x.id)).toEqual([r.id]);
  });

  it("refuses bad schedules with the field that is wrong", async () => {
    const base = {
      template: invoiceBody(),
      interval: "month",
      startDate: "2027-02-01",
    };
    const issues = (body: Record<string, unknown>) =>
      createRecurringSchema.safeParse(body).error?.issues.map((i) => [i.path.join("."), i.message]);
    expect(issues({ ...base, count: 3, endDate: "2027-12-31" })).toEqual([
      ["count", "Send either endDate or count, not both"],
    ]);
    expect(issues({ ...base, intervalCount: 13 })?.[0][0]).toBe("intervalCount");
    expect(issues({ ...base, dueInDays: 366 })?.[0][0]).toBe("dueInDays");
    expect(issues({ ...base, interval: "day" })?.[0][0]).toBe("interval");
    expect(issues({ ...base, template: invoiceBody({ dueDate: "2027-03-01" }) })?.[0][0]).toBe(
      "template",
    );
    expect(issues({ ...base, template: invoiceBody({ lineItems: undefined }) })).toEqual([
      ["template.lineItems", "At least one line item is required"],
    ]);

    clock = new Date("2027-02-02T08:00:00.000Z");
    const wallet = Keypair.random().publicKey();
    const past = createRecurring(ctx(wallet), createRecurringSchema.parse(base));
    const payload = toErrorPayload(await past.catch((e: unknown) => e));
    expect(payload).toMatchObject({
      status: 400,
      details: { startDate: "Start date cannot be in the past" },
    });
    const backwards = createRecurring(
      ctx(wallet),
      createRecurringSchema.parse({ ...base, startDate: "2027-03-01", endDate: "2027-02-28" }),
    );
    expect(toErrorPayload(await backwards.catch((e: unknown) => e))).toMatchObject({
      status: 400,
      details: { endDate: "End date cannot be before the start date" },
    });
    const notMine = createRecurring(
      ctx(wallet),
      createRecurringSchema.parse({
        ...base,
        startDate: "2027-03-01",
        template: invoiceBody({ freelancerWallet: Keypair.random().publicKey() }),
      }),
    );
    await expect(notMine).rejects.toBeInstanceOf(ForbiddenError);
  });
});

describe("duplicate", () => {
  it("makes a new draft with the same client, lines and pricing, under a new number, without dates", async () => {
    const wallet = Keypair.random().publicKey();
    clock = new Date("2027-01-31T08:00:00.000Z");
    const original = await createInvoice(
      ctx(wallet),
      createInvoiceSchema.parse(
        invoiceBody({
          dueDate: "2027-02-14",
          taxRate: "10",
          discount: "5.5",
          notes: "Thanks",
          currency: "USDC",
          priceCurrency: "EUR",
          lineItems: [{ description: "Design", quantity: "2.5", rate: "150.25" }],
        }),
      ),
    );
    await sendInvoice(ctx(wallet), original.id);
    const copy = await duplicateInvoice(ctx(wallet), original.id);
    expect(copy.id).not.toBe(original.id);
    expect(copy).toMatchObject({
      status: "DRAFT",
      invoiceNumber: "INV-0002",
      dueDate: null,
      sentAt: null,
      clientName: original.clientName,
      clientEmail: original.clientEmail,
      notes: "Thanks",
      title: "Website work",
      currency: "USDC",
      priceCurrency: "EUR",
      subtotal: original.subtotal,
      taxRate: original.taxRate,
      discount: original.discount,
      total: original.total,
      recurringId: null,
    });
    expect(copy.lineItems.map((l) => [l.description, l.quantity, l.rate])).toEqual([
      ["Design", "2.50", "150.2500000"],
    ]);
    expect(copy.payments).toEqual([]);

    await expect(
      duplicateInvoice(ctx(Keypair.random().publicKey()), original.id),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(duplicateInvoice(ctx(wallet), "c".repeat(25))).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});
