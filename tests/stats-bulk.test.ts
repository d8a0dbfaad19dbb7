import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Keypair } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { NETWORK_PASSPHRASES } from "@/lib/config";
import { logger } from "@/lib/logger";
import type { AuthedContext } from "@/lib/services/context";
import { getInvoiceStats } from "@/lib/services/invoices/invoice-stats";
import { createTestDatabase } from "./helpers/postgres";

/**
 * The statistics' triggers (migrations 0037 and 0041, docs/decisions.md, Statistics at scale)
 * under statements that update thousands of invoices at once: after each one, what
 * invoice_stats / payment_stats hold, and what GET /api/invoices/stats answers from them, equal
 * what rebuild_invoice_stats recomputes from the rows. On PostgreSQL and on the embedded PGlite.
 * (The cost of such a statement, O(N), is measured in docs/decisions.md, not here.)
 */
const N = 2_400;
const a = Keypair.random().publicKey();
const b = Keypair.random().publicKey();
const clock = new Date("2026-06-15T12:00:00.000Z");

type Engine = {
  name: string;
  open: () => Promise<{ handle: DatabaseHandle; done: () => Promise<void> }>;
};

const engines: Engine[] = [
  {
    name: "PostgreSQL",
    open: async () => {
      const db = await createTestDatabase();
      const handle = await openDatabase({ databaseUrl: db.url, dataDir: "/nonexistent" });
      return {
        handle,
        done: async () => {
          await handle.close();
          await db.drop();
        },
      };
    },
  },
  {
    name: "PGlite",
    open: async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "stats-bulk-pglite-"));
      const handle = await openDatabase({ dataDir });
      return {
        handle,
        done: async () => {
          await handle.close();
          fs.rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  },
];

/**
 * N invoices, three in four A's: XLM and USDC, a fifth priced in USD, some links, some on
 * mainnet, drafts, pending, paid, partly paid and credited ones, a few already deleted; each
 * paid one with an applied payment (some refunded in part, some with a fiat value) spread over
 * months, and now and then an unapplied one.
 */
async function load(handle: DatabaseHandle) {
  await handle.raw(
    `insert into invoices (id, invoice_number, freelancer_wallet, client_name, client_email, title,
      subtotal, total, amount_paid, amount_credited, status, currency, price_currency, kind,
      network_passphrase, sent_at, deleted_at, created_at, updated_at)
    select 'bulk' || lpad(g::text, 20, '0'), 'INV-' || g, case when g % 4 = 0 then $2 else $1 end,
      'Client ' || g, 'c' || g || '@example.com', 'Work ' || g,
      t.total, t.total,
      case when g % 3 = 0 then t.total when g % 6 = 1 then round(t.total / 3, 7) else 0 end,
      case when g % 7 = 0 and g % 3 <> 2 then round(t.total / 4, 7) else 0 end,
      case when g % 3 = 0 then 'PAID' when g % 3 = 1 then 'PENDING' else 'DRAFT' end,
      case when g % 2 = 0 then 'XLM' else 'USDC' end,
      case when g % 5 = 0 then 'USD' end,
      case when g % 11 = 0 then 'LINK' else 'INVOICE' end,
      case when g % 10 = 3 then $4 else $3 end,
      case when g % 3 <> 2 then $5::timestamptz end,
      case when g % 29 = 0 then $5::timestamptz end,
      $5::timestamptz - g * interval '1 minute', $5::timestamptz
    from generate_series(1, ${N}) g,
      lateral (select (g % 97 + 1) + (g % 13) * 0.0000001 as total) t`,
    [a, b, NETWORK_PASSPHRASES.testnet, NETWORK_PASSPHRASES.mainnet, clock.toISOString()],
  );
  await handle.raw(
    `insert into payments (id, invoice_id, transaction_hash, ledger_number, from_wallet, to_wallet,
      amount, asset, applied, unapplied_reason, amount_refunded, confirmed_at, fiat_currency,
      fiat_value, price_value)
    select 'pay' || lpad(i.id, 24, '0'), i.id, md5(i.id) || md5(i.invoice_number), 1, 'PAYER',
      i.freelancer_wallet, i.amount_paid, i.currency, true, null,
      case when n % 9 = 0 then round(i.amount_paid / 10, 7) else 0 end,
      $1::timestamptz - (n % 200) * interval '1 day',
      case when n % 2 = 1 then 'USD' end,
      case when n % 2 = 1 then round(i.amount_paid / 4, 2) end,
      case when i.price_currency is not null then round(i.amount_paid / 5, 2) end
    from invoices i, lateral (select substr(i.id, 5)::int as n) x
    where i.amount_paid > 0
    union all
    select 'extra' || lpad(i.id, 24, '0'), i.id, md5(i.invoice_number) || md5(i.id), 2, 'PAYER',
      i.freelancer_wallet, 3, i.currency, false, 'already_paid', 0,
      $1::timestamptz - interval '40 days', null, null, null
    from invoices i where substr(i.id, 5)::int % 17 = 0`,
    [clock.toISOString()],
  );
}

/** Both tables summed per group (zero groups left out), the amounts without trailing zeros. */
async function tables(handle: DatabaseHandle) {
  const invoicesByGroup = await handle.raw(
    `select freelancer_wallet, network_passphrase, kind, currency, price_currency, status,
      sum(invoices)::text as invoices, trim_scale(sum(net))::text as net,
      trim_scale(sum(due))::text as due, trim_scale(sum(credited_over))::text as credited_over
    from invoice_stats group by 1, 2, 3, 4, 5, 6
    having (sum(invoices), sum(net), sum(due), sum(credited_over)) <> (0, 0, 0, 0)
    order by 1, 2, 3, 4, 5, 6`,
    [],
  );
  const paymentsByGroup = await handle.raw(
    `select freelancer_wallet, network_passphrase, kind, currency, price_currency, month::text,
      fiat_currency, sum(payments)::text as payments, trim_scale(sum(kept))::text as kept,
      trim_scale(sum(kept_in_asset))::text as kept_in_asset,
      trim_scale(sum(kept_value))::text as kept_value, trim_scale(sum(fiat_kept))::text as fiat_kept
    from payment_stats group by 1, 2, 3, 4, 5, 6, 7
    having (sum(payments), sum(kept), sum(kept_in_asset), sum(kept_value), sum(fiat_kept))
      <> (0, 0, 0, 0, 0)
    order by 1, 2, 3, 4, 5, 6, 7`,
    [],
  );
  return { invoicesByGroup, paymentsByGroup };
}

const rows = async (handle: DatabaseHandle) =>
  Number(
    (
      await handle.raw<{ n: string }>(
        "select ((select count(*) from invoice_stats) + (select count(*) from payment_stats))::text as n",
        [],
      )
    )[0].n,
  );

describe.each(engines)(
  "statistics after one statement updating thousands of invoices ($name)",
  (engine) => {
    let handle: DatabaseHandle;
    let done: () => Promise<void>;
    const ctx = (wallet: string) =>
      ({
        db: handle.db,
        wallet,
        now: () => clock,
        logger,
        requestId: "stats-bulk",
      }) as unknown as AuthedContext;
    const stats = async () => ({
      a: await getInvoiceStats(ctx(a), {}),
      b: await getInvoiceStats(ctx(b), {}),
      mainnet: await getInvoiceStats(ctx(a), { network: "mainnet" }),
    });

    /** What the triggers kept equals the recomputation, in the tables and in the answers. */
    async function equalsRebuild(what: string) {
      const kept = { tables: await tables(handle), stats: await stats() };
      await handle.raw(
        "select rebuild_invoice_stats(w) from (values ($1::text), ($2::text)) v(w)",
        [a, b],
      );
      const rebuilt = { tables: await tables(handle), stats: await stats() };
      expect(kept.tables, what).toEqual(rebuilt.tables);
      expect(kept.stats, what).toEqual(rebuilt.stats);
      return rebuilt.stats;
    }

    beforeAll(async () => {
      ({ handle, done } = await engine.open());
      await load(handle);
    }, 180_000);

    afterAll(async () => {
      await done?.();
    });

    it("keeps the figures equal to a rebuild from the rows", async () => {
      const start = await equalsRebuild("after the load");
      // The books are not trivial: money in both assets, paid, pending and draft invoices.
      expect(start.a.totalInvoices).toBeGreaterThan(1_000);
      expect(Number(start.a.totalRevenue.XLM)).toBeGreaterThan(0);
      expect(Number(start.a.totalRevenue.USDC)).toBeGreaterThan(0);
      expect(start.a.statusBreakdown.PENDING).toBeGreaterThan(0);
      expect(Number(start.mainnet.totalRevenue.USDC)).toBeGreaterThan(0);

      // Every invoice's title in one statement: no figure moves, no row is appended.
      const before = await rows(handle);
      await handle.raw("update invoices set title = title || ' (2026)', updated_at = $1", [
        clock.toISOString(),
      ]);
      expect(await rows(handle)).toBe(before);
      expect(await equalsRebuild("after retitling every invoice")).toEqual(start);

      // Every pending invoice cancelled at once: a status, not a group.
      await handle.raw(
        "update invoices set status = 'CANCELLED', cancelled_at = $1 where status = 'PENDING'",
        [clock.toISOString()],
      );
      const cancelled = await equalsRebuild("after cancelling every pending invoice");
      expect(cancelled.a.statusBreakdown.PENDING ?? 0).toBe(0);
      expect(cancelled.a.statusBreakdown.CANCELLED).toBeGreaterThan(0);

      // 2,000 invoices deleted in one statement: they and their payments leave the figures.
      await handle.raw(
        `update invoices set deleted_at = $1 where id in
        (select id from invoices where deleted_at is null order by id limit 2000)`,
        [clock.toISOString()],
      );
      const deleted = await equalsRebuild("after deleting 2,000 invoices");
      expect(deleted.a.totalInvoices).toBeLessThan(cancelled.a.totalInvoices - 1_000);
      expect(Number(deleted.a.totalRevenue.XLM)).toBeLessThan(Number(cancelled.a.totalRevenue.XLM));

      // One statement that moves some invoices (restored, or handed from A to B) and only
      // retitles the others: only the moved ones' payments change groups.
      await handle.raw(
        `update invoices set
        deleted_at = case when substr(id, 5)::int % 2 = 0 then null else deleted_at end,
        freelancer_wallet = case when substr(id, 5)::int % 3 = 1 then $1 else freelancer_wallet end,
        title = title || '.'`,
        [b],
      );
      const moved = await equalsRebuild("after restoring some and moving some to another wallet");
      expect(moved.b.totalInvoices).toBeGreaterThan(deleted.b.totalInvoices);
      expect(Number(moved.b.totalRevenue.XLM)).toBeGreaterThan(Number(deleted.b.totalRevenue.XLM));
    }, 240_000);
  },
);
