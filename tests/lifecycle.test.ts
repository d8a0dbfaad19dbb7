import { Keypair } from "@stellar/stellar-sdk";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { createInvoiceSchema, updateInvoiceSchema } from "@/lib/schemas/invoices";
import { createLinkSchema } from "@/lib/schemas/links";
import type { AuthedContext } from "@/lib/services/context";
import { withTransaction } from "@/lib/services/db";
import { cancelInvoice, deleteInvoice, sendInvoice } from "@/lib/services/invoices/change-status";
import { createInvoice } from "@/lib/services/invoices/create-invoice";
import { ANONYMOUS_ACTOR, applyTransition } from "@/lib/services/invoices/lifecycle";
import { lockLiveInvoice } from "@/lib/services/invoices/store";
import { updateInvoice } from "@/lib/services/invoices/update-invoice";
import { createLink } from "@/lib/services/links/links";
import { invoiceBody } from "./helpers/api";
import { testContext } from "./helpers/context";
import { createTestDatabase } from "./helpers/postgres";

// applyTransition against a real database: what each owner action writes (row, audit entry,
// outbox events), and that all of it belongs to the caller's transaction.

let handle: DatabaseHandle;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
// Each action runs a second later than the one before, so rows sort by their time.
let clock = new Date("2026-05-10T09:00:00.000Z");
const tick = () => {
  clock = new Date(clock.getTime() + 1000);
  return clock;
};
const wallet = Keypair.random().publicKey();

const ctx = (): AuthedContext => ({ ...testContext(handle, db.url, tick), wallet });

beforeAll(async () => {
  db = await createTestDatabase();
  handle = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
  sql = postgres(db.url, { max: 2, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end();
  await handle?.close();
  await db?.drop();
});

const draft = () => createInvoice(ctx(), createInvoiceSchema.parse(invoiceBody()));

const auditOf = (id: string) =>
  sql`select action, actor_wallet, changes, created_at from invoice_audit_logs
      where invoice_id = ${id} order by created_at`;
const eventsOf = (id: string) =>
  sql`select type, wallet, data, created_at from events where invoice_id = ${id} order by created_at`;

describe("applyTransition through the owner actions", () => {
  it("create, send and cancel write their row, audit entry and event", async () => {
    const inv = await draft();
    const sent = await sendInvoice(ctx(), inv.id);
    const sentAt = clock;
    expect(sent).toMatchObject({ status: "PENDING", sentAt, updatedAt: sentAt });
    const cancelled = await cancelInvoice(ctx(), inv.id, "client left");
    const cancelledAt = clock;
    expect(cancelled).toMatchObject({ status: "CANCELLED", cancelledAt, updatedAt: cancelledAt });

    const audit = await auditOf(inv.id);
    expect(audit.map((a) => [a.action, a.actor_wallet, a.changes])).toEqual([
      ["CREATED", wallet, { status: { from: null, to: "DRAFT" } }],
      ["SENT", wallet, { status: { from: "DRAFT", to: "PENDING" } }],
      [
        "CANCELLED",
        wallet,
        { status: { from: "PENDING", to: "CANCELLED" }, reason: "client left" },
      ],
      // A sent invoice's cancel issues a credit note for all of it (docs/decisions.md, Credit notes).
      [
        "CREDITED",
        wallet,
        {
          creditNote: {
            id: expect.any(String),
            number: "CN-0001",
            total: inv.total,
            unit: "XLM",
          },
        },
      ],
    ]);
    const events = await eventsOf(inv.id);
    expect(events.map((e) => e.type)).toEqual([
      "invoice.created",
      "invoice.sent",
      "invoice.cancelled",
      "credit_note.created",
    ]);
    for (const e of events) expect(e.wallet).toBe(wallet);
    expect(events[1].data).toEqual({
      id: inv.id,
      invoiceNumber: inv.invoiceNumber,
      status: "PENDING",
      previousStatus: "DRAFT",
      sentAt: sentAt.toISOString(),
    });
    expect(events[2].data).toEqual({
      id: inv.id,
      invoiceNumber: inv.invoiceNumber,
      status: "CANCELLED",
      previousStatus: "PENDING",
      cancelledAt: cancelledAt.toISOString(),
      cancelledBy: wallet,
      reason: "client left",
    });
  });

  it("an edit is audited with its diff, a no-op edit writes nothing, a delete stamps deletedAt", async () => {
    const inv = await draft();
    await updateInvoice(ctx(), inv.id, updateInvoiceSchema.parse({ title: inv.title }));
    await updateInvoice(ctx(), inv.id, updateInvoiceSchema.parse({ title: "Renamed" }));
    await deleteInvoice(ctx(), inv.id);
    const deletedAt = clock;
    const audit = await auditOf(inv.id);
    expect(audit.map((a) => [a.action, a.changes])).toEqual([
      ["CREATED", { status: { from: null, to: "DRAFT" } }],
      ["UPDATED", { title: { from: inv.title, to: "Renamed" } }],
      ["DELETED", { deletedAt: { from: null, to: deletedAt.toISOString() } }],
    ]);
    expect((await eventsOf(inv.id)).map((e) => e.type)).toEqual(["invoice.created"]);
    const [row] = await sql`select status, deleted_at from invoices where id = ${inv.id}`;
    expect(row.status).toBe("DRAFT");
    expect(row.deleted_at).toEqual(deletedAt);
  });

  it("a payment link is created PENDING and announced as link.created", async () => {
    const link = await createLink(ctx(), createLinkSchema.parse({ amount: "5", asset: "XLM" }));
    expect(link.status).toBe("PENDING");
    const audit = await auditOf(link.id);
    expect(audit.map((a) => [a.action, a.changes])).toEqual([
      ["CREATED", { status: { from: null, to: "PENDING" }, kind: "LINK" }],
    ]);
    const events = await eventsOf(link.id);
    expect(events.map((e) => e.type)).toEqual(["link.created"]);
    expect(events[0].data).toMatchObject({
      id: link.id,
      amount: "5.0000000",
      asset: "XLM",
      metadata: { title: "Payment link", reference: null },
      createdAt: link.createdAt.toISOString(),
    });
  });
});

describe("applyTransition in the caller's transaction", () => {
  it("rolls back with it: no status, audit entry or event survives", async () => {
    const inv = await draft();
    await sendInvoice(ctx(), inv.id);
    await expect(
      withTransaction(handle.db, async (tx) => {
        const row = await lockLiveInvoice(tx, inv.id);
        const moved = await applyTransition(tx, row, "payIntent", {
          actor: ANONYMOUS_ACTOR,
          at: tick(),
        });
        expect(moved.status).toBe("PROCESSING");
        throw new Error("caller fails after the move");
      }),
    ).rejects.toThrow("caller fails after the move");
    const [row] = await sql`select status from invoices where id = ${inv.id}`;
    expect(row.status).toBe("PENDING");
    expect((await auditOf(inv.id)).map((a) => a.action)).toEqual(["CREATED", "SENT"]);
  });

  it("a payer's attempts are audited at most once per invoice and action in 10 minutes", async () => {
    const inv = await draft();
    await sendInvoice(ctx(), inv.id);
    const attempt = (trigger: "payIntent" | "submitFailed", at: Date) =>
      withTransaction(handle.db, async (tx) =>
        applyTransition(tx, await lockLiveInvoice(tx, inv.id), trigger, {
          actor: ANONYMOUS_ACTOR,
          at,
        }),
      );
    // Twenty start/fail rounds within ten minutes: the status follows every one of them.
    const start = tick();
    for (let i = 0; i < 20; i++) {
      const at = new Date(start.getTime() + i * 20_000);
      expect((await attempt("payIntent", at)).status).toBe("PROCESSING");
      expect((await attempt("submitFailed", new Date(at.getTime() + 10_000))).status).toBe(
        "FAILED",
      );
    }
    const actions = async () => (await auditOf(inv.id)).map((a) => a.action);
    expect(await actions()).toEqual(["CREATED", "SENT", "UPDATED", "FAILED"]);
    // Past the window the next attempt is recorded again.
    await attempt("payIntent", new Date(start.getTime() + 11 * 60_000));
    expect(await actions()).toEqual(["CREATED", "SENT", "UPDATED", "FAILED", "UPDATED"]);
    clock = new Date(start.getTime() + 12 * 60_000);
  });

  it("a repeated pay-intent writes nothing; the first is audited as the anonymous payer", async () => {
    const inv = await draft();
    await sendInvoice(ctx(), inv.id);
    for (let i = 0; i < 2; i++) {
      await withTransaction(handle.db, async (tx) =>
        applyTransition(tx, await lockLiveInvoice(tx, inv.id), "payIntent", {
          actor: ANONYMOUS_ACTOR,
          at: tick(),
        }),
      );
    }
    const audit = await auditOf(inv.id);
    expect(audit.map((a) => [a.action, a.actor_wallet, a.changes])).toEqual([
      ["CREATED", wallet, { status: { from: null, to: "DRAFT" } }],
      ["SENT", wallet, { status: { from: "DRAFT", to: "PENDING" } }],
      ["UPDATED", "ANONYMOUS", { status: { from: "PENDING", to: "PROCESSING" } }],
    ]);
  });
});
