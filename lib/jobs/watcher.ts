import { and, asc, eq, inArray, isNull, min } from "drizzle-orm";
import type { Transaction } from "@/db/client";
import { invoices, watcherCursors } from "@/db/schema";
import { NETWORK_PASSPHRASES } from "@/lib/config";
import { isValidInvoiceNumber } from "@/lib/domain/invoice-number";
import { PAYABLE_STATUSES } from "@/lib/domain/invoice-state";
import { CLOCK_SKEW_MS, muxedKeys } from "@/lib/domain/payment-match";
import { type LedgerSource, ledgerSourceFor, type PagedTransaction } from "@/lib/ledger-sources";
import type { Logger } from "@/lib/logger";
import type { NetworkName } from "@/lib/schemas/common";
import type { ServiceContext } from "@/lib/services/context";
import { withTransaction } from "@/lib/services/db";
import { invoicesPaidBy, recordEach } from "@/lib/services/payments/record-payment";
import { warmRates } from "@/lib/services/payments/valuation";
import { hasOpenRefunds, recordRefundsSeen } from "@/lib/services/refunds/record-refund";

export const PAGE_SIZE = 200;

export type TickResult = {
  network: NetworkName;
  skipped?: "idle" | "busy";
  /** Requests to the network's ledger source (named after Horizon, its first source). */
  horizonRequests: number;
  records: number;
  matched: number;
  /** True when the last page was full: more payments are waiting. */
  more: boolean;
  cursor: string | null;
};

type TickContext = Pick<ServiceContext, "db" | "config" | "now"> & { logger: Logger };

/**
 * One pass of the ledger watcher for a network: read the network's payments since the stored
 * cursor from its ledger source (lib/ledger-sources: all accounts, each transaction with its
 * memo), hand each transaction to the recorder once per invoice it pays (memo and recipient
 * wallet), and advance the cursor in the same database transaction as the recordings, page by
 * page. Requests depend only on how many payments happened, never on how many invoices are
 * open. The cursor row is
 * claimed with FOR UPDATE SKIP LOCKED, so cron runs and any number of workers never process
 * a page twice, and a crash before commit replays the page (recording is idempotent anyway).
 */
export async function watcherTick(
  ctx: TickContext,
  network: NetworkName,
  opts: {
    maxPages?: number;
    /**
     * Test seam: runs after a page is read, before anything is recorded or committed, with
     * the hash of each transaction on it.
     */
    afterRead?: (read: { transaction_hash: string }[]) => Promise<void>;
  } = {},
): Promise<TickResult> {
  const maxPages = opts.maxPages ?? 10;
  const passphrase = NETWORK_PASSPHRASES[network];
  const source = ledgerSourceFor(ctx.config, network);
  // Each source keeps its own cursor row: both may run at once on one network (a migration
  // window), and the unique (transaction hash, operation index) records each payment once.
  const key = and(eq(watcherCursors.network, network), eq(watcherCursors.source, source.kind));
  const result: TickResult = {
    network,
    horizonRequests: 0,
    records: 0,
    matched: 0,
    more: false,
    cursor: null,
  };

  // Idle only when no payment can match anything: no invoice of this network exists in any
  // state (a PAID, cancelled or deleted invoice's payment is still recorded, unapplied, and
  // refundable) and no refund awaits the ledger (lib/services/refunds/record-refund.ts).
  // Whether anything is payable right now does not decide it (docs/decisions.md, Watcher).
  // Both are one-row probes: a pass costs the same whatever the number of open invoices
  // (docs/decisions.md, Watcher at scale).
  const idle = !(await anyInvoiceOn(ctx, passphrase)) && !(await hasOpenRefunds(ctx, passphrase));
  // Payments are valued at the cached rates while the page's transaction is open.
  if (!idle) await warmRates(ctx);
  await ensureCursorRow(ctx, network, source.kind);

  for (let page = 0; page < maxPages; page++) {
    const step = await withTransaction(ctx.db, async (tx) => {
      const [row] = await tx
        .select()
        .from(watcherCursors)
        .where(key)
        .for("update", { skipLocked: true });
      if (!row) return { busy: true as const };
      if (idle || row.cursor === "") {
        // Nothing payable: keep the cursor at the tip so a later invoice starts from now.
        let cursor: string;
        // The oldest payable invoice is read only here, on the cursor's first start: it reads
        // every open invoice of the network (docs/decisions.md, Watcher at scale).
        const oldest = idle ? undefined : await oldestPayable(tx, passphrase);
        if (!oldest) {
          cursor = await source.latestCursor();
          result.horizonRequests++;
        } else {
          // First start with invoices already open: begin at the ledger that closed just
          // before the oldest of them (clock skew allowed), looked back for a bounded while.
          const found = await source.cursorBefore(new Date(oldest.getTime() - CLOCK_SKEW_MS));
          result.horizonRequests += found.requests;
          cursor = found.cursor;
        }
        await tx.update(watcherCursors).set({ cursor, updatedAt: ctx.now() }).where(key);
        return { cursor, idle, full: !idle };
      }
      // Ledgers the source no longer holds (Stellar RPC's retention) are read through Horizon,
      // a page a pass beside the source's own, until done.
      const backfilled = row.gapBackfill
        ? await backfillGap(tx, ctx, passphrase, network, row, source, result)
        : { more: false };
      // A source that can filter by wallet (Stellar RPC, a few wallets) reads only ours. A
      // wallet whose first invoice was committed while the page was read is read again with it.
      let wallets = await walletsOf(tx, passphrase, source);
      let page = await source.paymentsPage(row.cursor, PAGE_SIZE, wallets && { wallets });
      result.horizonRequests++;
      if (wallets) {
        const again = await walletsOf(tx, passphrase, source);
        if (!again || again.some((w) => !wallets?.includes(w))) {
          wallets = again;
          page = await source.paymentsPage(row.cursor, PAGE_SIZE, wallets && { wallets });
          result.horizonRequests++;
        }
      }
      if (page.gap) {
        const from = row.gapFromLedger ?? page.gap.fromLedger;
        const backfill =
          ctx.config.rpcGapBackfill === "horizon" ? horizonCursorAt(from) : "skipped";
        ctx.logger.error("watcher: ledgers older than the ledger source's retention were missed", {
          network,
          source: source.kind,
          fromLedger: from,
          toLedger: page.gap.toLedger,
          backfill: backfill === "skipped" ? "skipped (RPC_GAP_BACKFILL=off)" : "through Horizon",
        });
        await tx
          .update(watcherCursors)
          .set({
            cursor: page.cursor,
            updatedAt: ctx.now(),
            gapFromLedger: from,
            gapToLedger: page.gap.toLedger,
            gapSince: row.gapSince ?? ctx.now(),
            gapBackfill: backfill,
          })
          .where(key);
        // The pass ends here: the gap is on record (and /api/health) before it is read.
        return { cursor: page.cursor, idle: false, full: false };
      }
      await opts.afterRead?.(
        page.transactions.map((t) => ({ transaction_hash: t.transaction.hash })),
      );
      result.records += page.read;
      result.matched += await recordMatches(tx, ctx, passphrase, page.transactions, source);
      await recordRefundsSeen(
        tx,
        passphrase,
        page.transactions.map((t) => t.transaction),
      );
      await tx.update(watcherCursors).set({ cursor: page.cursor, updatedAt: ctx.now() }).where(key);
      return { cursor: page.cursor, idle: false, full: page.full || backfilled.more };
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

/**
 * The wallets whose payments can matter on this network (of any invoice there, in any state,
 * soft-deleted included: payments to them are recorded, refunds come from them), when the
 * source can filter by that many; undefined otherwise (read everything).
 */
async function walletsOf(
  tx: Transaction,
  passphrase: string,
  source: LedgerSource,
): Promise<string[] | undefined> {
  const limit = source.walletFilterLimit ?? 0;
  if (limit === 0) return undefined;
  const rows = await tx
    .selectDistinct({ wallet: invoices.freelancerWallet })
    .from(invoices)
    .where(eq(invoices.networkPassphrase, passphrase))
    .limit(limit + 1);
  return rows.length === 0 || rows.length > limit ? undefined : rows.map((r) => r.wallet).sort();
}

/**
 * Whether this network has any invoice at all (any state, soft-deleted included). Ordered by
 * the muxed id so that it is one probe of `invoices_network_muxed_id_key` whatever the table
 * holds, never a sequential scan that stops at the first row of the network wherever it lies
 * (docs/decisions.md, Watcher at scale).
 */
async function anyInvoiceOn(ctx: TickContext, passphrase: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: invoices.id })
    .from(invoices)
    .where(eq(invoices.networkPassphrase, passphrase))
    .orderBy(asc(invoices.muxedId))
    .limit(1);
  return row !== undefined;
}

/** When this network's oldest payable invoice was created (undefined: none is payable). */
async function oldestPayable(tx: Transaction, passphrase: string): Promise<Date | undefined> {
  const [row] = await tx
    .select({ createdAt: min(invoices.createdAt) })
    .from(invoices)
    .where(
      and(
        eq(invoices.networkPassphrase, passphrase),
        inArray(invoices.status, [...PAYABLE_STATUSES]),
        isNull(invoices.deletedAt),
      ),
    );
  return row?.createdAt ?? undefined;
}

async function ensureCursorRow(ctx: TickContext, network: NetworkName, source: string) {
  await ctx.db
    .insert(watcherCursors)
    .values({ network, source, cursor: "", updatedAt: ctx.now() })
    .onConflictDoNothing();
}

/** Horizon's paging token just before ledger `ledger`'s first operation. */
function horizonCursorAt(ledger: number): string {
  return (BigInt(ledger) << 32n).toString();
}

/**
 * One Horizon page of a gap (`gap_backfill` holds Horizon's cursor; docs/decisions.md,
 * Stellar RPC): its transactions up to the gap's last ledger are recorded as the source's own;
 * the gap is closed (and leaves /api/health) once Horizon's reading passes it. A Horizon
 * failure leaves the gap as it is, retried on the next pass.
 */
async function backfillGap(
  tx: Transaction,
  ctx: TickContext,
  passphrase: string,
  network: NetworkName,
  row: typeof watcherCursors.$inferSelect,
  source: LedgerSource,
  result: TickResult,
): Promise<{ more: boolean }> {
  if (row.gapBackfill === "skipped" || row.gapToLedger === null) return { more: false };
  const horizon = ledgerSourceFor(
    { ...ctx.config, ledgerSource: { testnet: "horizon", mainnet: "horizon" } },
    network,
  );
  let page: Awaited<ReturnType<LedgerSource["paymentsPage"]>>;
  try {
    page = await horizon.paymentsPage(row.gapBackfill ?? "0", PAGE_SIZE);
  } catch (err) {
    ctx.logger.warn("watcher: reading a gap through Horizon failed; retried next pass", {
      network,
      error: String(err),
    });
    return { more: false };
  }
  result.horizonRequests++;
  const end = row.gapToLedger;
  const inGap = page.transactions.filter((t) => t.transaction.ledger <= end);
  result.records += page.read;
  result.matched += await recordMatches(tx, ctx, passphrase, inGap, horizon);
  await recordRefundsSeen(
    tx,
    passphrase,
    inGap.map((t) => t.transaction),
  );
  const done = !page.full || inGap.length < page.transactions.length;
  const key = and(eq(watcherCursors.network, network), eq(watcherCursors.source, source.kind));
  if (done) {
    ctx.logger.warn("watcher: a gap was read through Horizon", {
      network,
      source: source.kind,
      fromLedger: row.gapFromLedger,
      toLedger: end,
    });
    await tx
      .update(watcherCursors)
      .set({ gapFromLedger: null, gapToLedger: null, gapSince: null, gapBackfill: null })
      .where(key);
    return { more: false };
  }
  await tx.update(watcherCursors).set({ gapBackfill: page.cursor }).where(key);
  return { more: true };
}

/**
 * Records every transaction of a page with a text memo naming an invoice, or an operation to
 * a muxed address, against each invoice of this network it pays: of a wallet one of its
 * operations reaches, at that invoice's muxed address or numbered as the memo
 * (`invoicesPaidBy`, docs/decisions.md, Muxed addresses; in any state, soft-deleted included:
 * payments that cannot apply are recorded too). A transaction's operations to one wallet belong to that wallet's
 * invoice, so one transaction may pay several. Self-payments are left out by the recorder;
 * a part recorded by another path is left as it is.
 */
async function recordMatches(
  tx: Transaction,
  ctx: TickContext,
  passphrase: string,
  paged: PagedTransaction[],
  source: LedgerSource,
): Promise<number> {
  const onPage = paged.filter(
    ({ transaction: t }) =>
      (t.memoType === "text" && isValidInvoiceNumber(t.memo ?? "")) || muxedKeys(t).length > 0,
  );
  const paid = await invoicesPaidBy(
    tx,
    passphrase,
    onPage.map((p) => p.transaction),
  );
  let matched = 0;
  for (const { transaction: seen, maybeCut } of onPage) {
    const invoiceIds = paid.get(seen.hash);
    if (!invoiceIds) continue;
    // A transaction is recorded whole: one the page may have cut (the last of a full page)
    // is read whole by its hash (a wallet reached only past the page is matched on the next
    // page, where all of its operations are).
    const payment = maybeCut ? await source.transaction(seen.hash) : seen;
    if (!payment) continue;
    const recordings = await recordEach({ ...ctx, db: tx }, invoiceIds, payment);
    matched += recordings.filter((r) => r.created).length;
  }
  return matched;
}
