import { and, eq, inArray, isNull, min } from "drizzle-orm";
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
          cursor = await source.latestCursor();
          result.horizonRequests++;
        } else {
          // First start with invoices already open: begin at the ledger that closed just
          // before the oldest of them (clock skew allowed), looked back for a bounded while.
          const found = await source.cursorBefore(
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
      const page = await source.paymentsPage(row.cursor, PAGE_SIZE);
      result.horizonRequests++;
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
      await tx
        .update(watcherCursors)
        .set({ cursor: page.cursor, updatedAt: ctx.now() })
        .where(eq(watcherCursors.network, network));
      return { cursor: page.cursor, idle: false, full: page.full };
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
