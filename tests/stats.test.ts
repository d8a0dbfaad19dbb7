import { Keypair } from "@stellar/stellar-sdk";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { newId } from "@/lib/ids";
import { createInvoiceSchema } from "@/lib/schemas/invoices";
import type { AuthedContext } from "@/lib/services/context";
import { sendInvoice } from "@/lib/services/invoices/change-status";
import { createInvoice } from "@/lib/services/invoices/create-invoice";
import { getInvoiceStats } from "@/lib/services/invoices/invoice-stats";
import { invoiceBody } from "./helpers/api";
import { testContext } from "./helpers/context";
import { createTestDatabase } from "./helpers/postgres";

/**
 * Statistics from the money received (docs/decisions.md, Lifecycle: statistics): revenue is
 * the applied payments less their refunds, by payment month; pending is the amounts due.
 * The payments are arranged as rows (the recorder has its own tests).
 */
let handle: DatabaseHandle;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
const clock = new Date("2026-05-10T09:00:00.000Z");
const wallet = Keypair.random().publicKey();
const payer = Keypair.random().publicKey();

const ctx = (): AuthedContext => ({ ...testContext(handle, db.url, () => clock), wallet });

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

async function sent(currency: string, rate: string) {
  const body = invoiceBody({ currency, lineItems: [{ description: "x", quantity: "1", rate }] });
  const inv = await createInvoice(ctx(), createInvoiceSchema.parse(body));
  await sendInvoice(ctx(), inv.id);
  return inv.id;
}

async function payment(
  invoiceId: string,
  amount: string,
  at: string,
  more: { applied?: boolean; reason?: string; asset?: string; refunded?: string } = {},
) {
  const [{ currency }] = await sql`select currency from invoices where id = ${invoiceId}`;
  await sql`insert into payments (id, invoice_id, transaction_hash, ledger_number, from_wallet,
    to_wallet, amount, asset, applied, unapplied_reason, amount_refunded, confirmed_at)
    values (${newId()}, ${invoiceId}, ${newId().padEnd(64, "0")}, 1, ${payer}, ${wallet},
      ${amount}, ${more.asset ?? currency}, ${more.applied ?? true}, ${more.reason ?? null},
      ${more.refunded ?? "0"}, ${at})`;
}

const set = (id: string, status: string, amountPaid: string) =>
  sql`update invoices set status = ${status}, amount_paid = ${amountPaid} where id = ${id}`;

describe("statistics", () => {
  it("revenue is the applied payments less refunds, by month; pending is what is still due", async () => {
    // 25 USDC, 10 paid in May: partly paid, 15 due. A look-alike USDC never counts.
    const partly = await sent("USDC", "25");
    await payment(partly, "10", "2026-05-02T10:00:00Z");
    await payment(partly, "9", "2026-05-03T10:00:00Z", {
      applied: false,
      reason: "wrong_asset",
    });
    await set(partly, "PROCESSING", "10");
    // 100 XLM paid as 60 in April and 40 in May, 3 of them refunded; 5 more after PAID.
    const paid = await sent("XLM", "100");
    await payment(paid, "60", "2026-04-20T10:00:00Z");
    await payment(paid, "40", "2026-05-05T10:00:00Z", { refunded: "3" });
    await payment(paid, "5", "2026-05-06T10:00:00Z", { applied: false, reason: "already_paid" });
    await set(paid, "PAID", "97");
    // A cancelled EURC invoice that received money anyway: unapplied, never revenue.
    const cancelled = await sent("EURC", "50");
    await payment(cancelled, "7", "2026-05-07T10:00:00Z", {
      applied: false,
      reason: "invoice_cancelled",
    });
    await set(cancelled, "CANCELLED", "0");
    // A 30 XLM invoice with nothing paid: all of it is pending.
    await sent("XLM", "30");
    // A payer starting to pay is not the owner's activity.
    await sql`insert into invoice_audit_logs (id, invoice_id, action, actor_wallet, changes, created_at)
      values (${newId()}, ${partly}, 'UPDATED', 'ANONYMOUS',
        ${sql.json({ status: { from: "PENDING", to: "PROCESSING" } })}, ${"2026-05-09T10:00:00Z"})`;

    const s = await getInvoiceStats(ctx(), {});
    expect(s.totalRevenue).toEqual({
      XLM: "97.0000000",
      USDC: "10.0000000",
      EURC: "0.0000000",
    });
    expect(s.revenueThisMonth).toEqual({
      XLM: "37.0000000",
      USDC: "10.0000000",
      EURC: "0.0000000",
    });
    expect(s.pendingAmount).toEqual({
      XLM: "30.0000000",
      USDC: "15.0000000",
      EURC: "0.0000000",
    });
    expect(s.avgInvoiceValue.XLM).toBe("100.0000000");
    const month = (m: string) => s.revenueByMonth.find((r) => r.month === m)?.revenue;
    expect(month("2026-04")).toEqual({ XLM: "60.0000000", USDC: "0.0000000", EURC: "0.0000000" });
    expect(month("2026-05")).toEqual({ XLM: "37.0000000", USDC: "10.0000000", EURC: "0.0000000" });
    expect(s.recentActivity.length).toBeGreaterThan(0);
    expect(s.recentActivity.some((a) => a.action === "UPDATED")).toBe(false);
  });
});
