import { and, eq, inArray, isNull, min } from "drizzle-orm";
import type { Transaction } from "@/db/client";
import { invoices, watcherCursors } from "@/db/schema";
import { NETWORK_PASSPHRASES } from "@/lib/config";
import { isValidInvoiceNumber } from "@/lib/domain/invoice-number";
import { PAYABLE_STATUSES } from "@/lib/domain/invoice-state";
import { CLOCK_SKEW_MS, type PaymentOperation } from "@/lib/domain/payment-match";
import type { Logger } from "@/lib/logger";
import type { NetworkName } from "@/lib/schemas/common";
import type { ServiceContext } from "@/lib/services/context";
import { withTransaction } from "@/lib/services/db";
import { invoicesPaidBy, recordEach } from "@/lib/services/payments/record-payment";
import { warmRates } from "@/lib/services/payments/valuation";
import { hasOpenRefunds, recordRefundsSeen } from "@/lib/services/refunds/record-refund";
import { type HorizonClient, horizonFor } from "@/lib/stellar/horizon";
import {
  fetchLatestLedgerCursor,
  fetchPaymentTransaction,
  type HorizonPage,
  type HorizonPaymentRecord,
  operationFromRecord,
  relative,
  transactionFromRecord,
} from "@/lib/stellar/read";

export const PAGE_SIZE = 200;
/** A cursor created while invoices are already open looks back at most this many ledgers. */
const LOOKBACK_PAGES = 4;

export type TickResult = {
  network: NetworkName;
  skipped?: "idle" | "busy";
  horizonRequests: number;
  records: number;
  matched: number;
  /** True when the last page was full: more payments are waiting. */
  more: boolean;
  cursor: string | null;
};

type TickContext = Pick<ServiceContext, "db" | "config" | "now"> & { logger: Logger };

/**
 * One pass of the ledger watcher for a network: read Horizon's payments since the stored
 * cursor (all accounts, `join=transactions` for the memo), hand each transaction to the
 * recorder once per invoice it pays (memo and recipient wallet), and advance the cursor in
 * the same database transaction as the recordings, page by page. Horizon requests depend
 * only on how many payments happened, never on how many invoices are open. The cursor row is
 * claimed with FOR UPDATE SKIP LOCKED, so cron runs and any number of workers never process
 * a page twice, and a crash before commit replays the page (recording is idempotent anyway).
 */
export async function watcherTick(
  ctx: TickContext,
  network: NetworkName,
  opts: {
    maxPages?: number;
    /** Test seam: runs after a page is read, before anything is recorded or committed. */
    afterRead?: (records: HorizonPaymentRecord[]) => Promise<void>;
  } = {},
): Promise<TickResult> {
  const maxPages = opts.maxPages ?? 10;
  const passphrase = NETWORK_PASSPHRASES[network];
  const horizon = horizonFor(ctx.config, network);
  const result: TickResult = {
    network,
    horizonRequests: 0,
    records: 0,
    matched: 0,
    more: false,
    cursor: null,
  };

  const [oldest] = await ctx.db
    .select({ createdAt: min(invoices.createdAt) })
    .from(invoices)
    .where(payableOn(passphrase));
  // Idle only when no payment can match anything: no invoice of this network exists in any
  // state (a PAID, cancelled or deleted invoice's payment is still recorded, unapplied, and
  // refundable) and no refund awaits the ledger (lib/services/refunds/record-refund.ts).
  // Whether anything is payable right now does not decide it (docs/decisions.md, Watcher).
  const idle =
    !oldest?.createdAt &&
    !(await anyInvoiceOn(ctx, passphrase)) &&
    !(await hasOpenRefunds(ctx, passphrase));
  // Payments are valued at the cached rates while the page's transaction is open.
  if (!idle) await warmRates(ctx);
  await ensureCursorRow(ctx, network);

  for (let page = 0; page < maxPages; page++) {
    const step = await withTransaction(ctx.db, async (tx) => {
      const [row] = await tx
        .select()
        .from(watcherCursors)
        .where(eq(watcherCursors.network, network))
        .for("update", { skipLocked: true });
      if (!row) return { busy: true as const };
      if (idle || row.cursor === "") {
        // Nothing payable: keep the cursor at the tip so a later invoice starts from now.
        let cursor: string;
        if (idle || !oldest?.createdAt) {
          cursor = await fetchLatestLedgerCursor(horizon);
          result.horizonRequests++;
        } else {
          // First start with invoices already open: begin at the ledger that closed just
          // before the oldest of them (clock skew allowed), found by walking ledgers back.
          const found = await ledgerCursorBefore(
            horizon,
            new Date(oldest.createdAt.getTime() - CLOCK_SKEW_MS),
          );
          result.horizonRequests += found.requests;
          cursor = found.cursor;
        }
        await tx
          .update(watcherCursors)
          .set({ cursor, updatedAt: ctx.now() })
          .where(eq(watcherCursors.network, network));
        return { cursor, idle, full: !idle };
      }
      const body = await horizon.get<HorizonPage<HorizonPaymentRecord>>("/payments", {
        cursor: row.cursor,
        order: "asc",
        limit: PAGE_SIZE,
        join: "transactions",
      });
      result.horizonRequests++;
      const records = body._embedded.records;
      await opts.afterRead?.(records);
      result.records += records.length;
      result.matched += await recordMatches(tx, ctx, passphrase, records, horizon);
      await recordRefundsSeen(tx, passphrase, records);
      const cursor = records.at(-1)?.paging_token ?? row.cursor;
      await tx
        .update(watcherCursors)
        .set({ cursor, updatedAt: ctx.now() })
        .where(eq(watcherCursors.network, network));
      return { cursor, idle: false, full: records.length === PAGE_SIZE };
    });
    if ("busy" in step) {
      result.skipped = "busy";
      return result;
    }
    result.cursor = step.cursor;
    if (step.idle) {
      result.skipped = "idle";
      return result;
    }
    result.more = step.full;
    if (!step.full) break;
  }
  return result;
}

/** Whether this network has any invoice at all (any state, soft-deleted included). */
async function anyInvoiceOn(ctx: TickContext, passphrase: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: invoices.id })
    .from(invoices)
    .where(eq(invoices.networkPassphrase, passphrase))
    .limit(1);
  return row !== undefined;
}

function payableOn(passphrase: string) {
  return and(
    eq(invoices.networkPassphrase, passphrase),
    inArray(invoices.status, [...PAYABLE_STATUSES]),
    isNull(invoices.deletedAt),
  );
}

async function ensureCursorRow(ctx: TickContext, network: NetworkName) {
  await ctx.db
    .insert(watcherCursors)
    .values({ network, cursor: "", updatedAt: ctx.now() })
    .onConflictDoNothing();
}

/**
 * Paging token of the newest ledger closed at or before `target`, walking /ledgers newest
 * first for at most LOOKBACK_PAGES pages of 200 (about an hour of 5-second ledgers); when the
 * target is older still, the oldest ledger seen.
 */
async function ledgerCursorBefore(
  horizon: HorizonClient,
  target: Date,
): Promise<{ cursor: string; requests: number }> {
  let path: string | null = "/ledgers";
  let query: Record<string, string | number> | undefined = { order: "desc", limit: 200 };
  let oldest = "0";
  let requests = 0;
  while (path && requests < LOOKBACK_PAGES) {
    const page: HorizonPage<{ paging_token: string; closed_at: string }> = await horizon.get(
      path,
      query,
    );
    requests++;
    for (const ledger of page._embedded.records) {
      if (new Date(ledger.closed_at).getTime() <= target.getTime()) {
        return { cursor: ledger.paging_token, requests };
      }
      oldest = ledger.paging_token;
    }
    if (page._embedded.records.length < 200 || !page._links?.next) {
      // Reached the first ledger of the network: start from the very beginning.
      return { cursor: "0", requests };
    }
    path = relative(horizon, page._links.next.href);
    query = undefined;
  }
  return { cursor: oldest, requests };
}

/**
 * Groups a page by transaction and records every transaction with a text memo against each
 * invoice of this network it pays: numbered as the memo, of a wallet one of its operations
 * reaches (`invoicesPaidBy`; in any state, soft-deleted included: payments that cannot apply
 * are recorded too). A transaction's operations to one wallet belong to that wallet's
 * invoice, so one transaction may pay several. Self-payments are left out by the recorder;
 * a part recorded by another path is left as it is.
 */
async function recordMatches(
  tx: Transaction,
  ctx: TickContext,
  passphrase: string,
  records: HorizonPaymentRecord[],
  horizon: HorizonClient,
): Promise<number> {
  const byTx = new Map<string, { record: HorizonPaymentRecord; ops: PaymentOperation[] }>();
  for (const r of records) {
    const op = operationFromRecord(r);
    const t = r.transaction;
    if (!op || t?.memo_type !== "text" || !isValidInvoiceNumber(t.memo)) continue;
    const entry = byTx.get(r.transaction_hash) ?? { record: r, ops: [] };
    entry.ops.push(op);
    byTx.set(r.transaction_hash, entry);
  }
  const onPage = [...byTx.values()].flatMap(({ record, ops }) =>
    record.transaction ? [transactionFromRecord(record.transaction, ops)] : [],
  );
  const paid = await invoicesPaidBy(tx, passphrase, onPage);
  let matched = 0;
  for (const seen of onPage) {
    const invoiceIds = paid.get(seen.hash);
    if (!invoiceIds) continue;
    // A transaction is recorded whole: the last one of a full page may go on past it (a
    // wallet reached only past the page is matched on the next page, where all of its
    // operations are).
    const payment =
      records.length === PAGE_SIZE && records.at(-1)?.transaction_hash === seen.hash
        ? await fetchPaymentTransaction(horizon, seen.hash)
        : seen;
    if (!payment) continue;
    const recordings = await recordEach({ ...ctx, db: tx }, invoiceIds, payment);
    matched += recordings.filter((r) => r.created).length;
  }
  return matched;
}
