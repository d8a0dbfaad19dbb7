import { Keypair } from "@stellar/stellar-sdk";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { expireDueInvoices } from "@/lib/jobs/expire-due-invoices";
import { createInvoiceSchema } from "@/lib/schemas/invoices";
import type { AuthedContext } from "@/lib/services/context";
import { sendInvoice } from "@/lib/services/invoices/change-status";
import { createInvoice } from "@/lib/services/invoices/create-invoice";
import { invoiceBody } from "./helpers/api";
import { testContext } from "./helpers/context";
import { createTestDatabase } from "./helpers/postgres";

let handleA: DatabaseHandle;
let handleB: DatabaseHandle;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let clock = new Date("2026-05-10T09:00:00.000Z");
const wallet = Keypair.random().publicKey();

function ctx(handle = handleA): AuthedContext {
  return { ...testContext(handle, db.url, () => clock), wallet };
}

beforeAll(async () => {
  db = await createTestDatabase();
  handleA = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
  handleB = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end();
  await handleA?.close();
  await handleB?.close();
  await db?.drop();
});

async function pendingInvoice(dueDate: string) {
  const inv = await createInvoice(ctx(), createInvoiceSchema.parse(invoiceBody({ dueDate })));
  await sendInvoice(ctx(), inv.id);
  return inv.id;
}

const statusOf = async (id: string) =>
  (await sql`select status from invoices where id = ${id}`)[0].status as string;

describe("expireDueInvoices", () => {
  it("due date D expires at D+1 00:00 UTC, not a millisecond before", async () => {
    clock = new Date("2026-05-10T09:00:00.000Z");
    const id = await pendingInvoice("2026-05-20");

    clock = new Date("2026-05-20T23:59:59.999Z");
    expect((await expireDueInvoices(ctx())).expired).toBe(0);
    expect(await statusOf(id)).toBe("PENDING");

    clock = new Date("2026-05-21T00:00:00.000Z");
    expect((await expireDueInvoices(ctx())).expired).toBe(1);
    expect(await statusOf(id)).toBe("EXPIRED");

    const audits =
      await sql`select action, actor_wallet, changes from invoice_audit_logs where invoice_id = ${id} order by created_at`;
    expect(audits.map((a) => a.action)).toEqual(["CREATED", "SENT", "EXPIRED"]);
    expect(audits[2].changes).toEqual({ status: { from: "PENDING", to: "EXPIRED" } });
    const [event] =
      await sql`select data from events where invoice_id = ${id} and type = 'invoice.expired'`;
    expect(event.data).toMatchObject({
      id,
      status: "EXPIRED",
      previousStatus: "PENDING",
      dueDate: "2026-05-20T00:00:00.000Z",
      expiredAt: "2026-05-21T00:00:00.000Z",
    });

    // Idempotent: running again changes nothing.
    expect((await expireDueInvoices(ctx())).expired).toBe(0);
    const [{ n }] = await sql`select count(*)::int as n from events where invoice_id = ${id}`;
    expect(n).toBe(3);
  });

  it("leaves drafts, paid and cancelled invoices and invoices without a due date alone", async () => {
    clock = new Date("2026-06-01T09:00:00.000Z");
    const draft = (
      await createInvoice(ctx(), createInvoiceSchema.parse(invoiceBody({ dueDate: "2026-06-02" })))
    ).id;
    const noDue = (await createInvoice(ctx(), createInvoiceSchema.parse(invoiceBody()))).id;
    await sendInvoice(ctx(), noDue);
    const paid = await pendingInvoice("2026-06-02");
    await sql`update invoices set status = 'PAID' where id = ${paid}`;
    const processing = await pendingInvoice("2026-06-02");
    await sql`update invoices set status = 'PROCESSING' where id = ${processing}`;
    clock = new Date("2026-06-10T00:00:00.000Z");
    await expireDueInvoices(ctx());
    expect(await statusOf(draft)).toBe("DRAFT");
    expect(await statusOf(noDue)).toBe("PENDING");
    expect(await statusOf(paid)).toBe("PAID");
    expect(await statusOf(processing)).toBe("EXPIRED");
  });

  it("a FAILED invoice (a payer's rejected attempt) expires on its due date too", async () => {
    clock = new Date("2026-06-20T09:00:00.000Z");
    const failed = await pendingInvoice("2026-06-21");
    await sql`update invoices set status = 'FAILED' where id = ${failed}`;
    clock = new Date("2026-06-22T00:00:00.000Z");
    await expireDueInvoices(ctx());
    expect(await statusOf(failed)).toBe("EXPIRED");
    const [audit] =
      await sql`select changes from invoice_audit_logs where invoice_id = ${failed} and action = 'EXPIRED'`;
    expect(audit.changes).toEqual({ status: { from: "FAILED", to: "EXPIRED" } });
  });

  it("two processes at once expire each invoice exactly once, in bounded batches", async () => {
    clock = new Date("2026-07-01T09:00:00.000Z");
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await pendingInvoice("2026-07-01"));
    clock = new Date("2026-07-02T00:00:00.000Z");
    const [a, b] = await Promise.all([
      expireDueInvoices(ctx(handleA), { batchSize: 4 }),
      expireDueInvoices(ctx(handleB), { batchSize: 4 }),
    ]);
    expect(a.expired + b.expired).toBe(30);
    const rows = await sql`select invoice_id, count(*)::int as n from invoice_audit_logs
      where action = 'EXPIRED' and invoice_id in ${sql(ids)} group by invoice_id`;
    expect(rows).toHaveLength(30);
    expect(rows.every((r) => r.n === 1)).toBe(true);
    const [{ n }] =
      await sql`select count(*)::int as n from events where type = 'invoice.expired' and invoice_id in ${sql(ids)}`;
    expect(n).toBe(30);
  });
});
