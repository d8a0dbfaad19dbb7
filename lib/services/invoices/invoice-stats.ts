import type { Big } from "big.js";
import { and, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import { invoiceAuditLogs, invoiceStats, invoices, paymentStats } from "@/db/schema";
import { fiat2, REPORTING_CURRENCY } from "@/lib/domain/fiat";
import {
  type AuditAction,
  INVOICE_STATUSES,
  type InvoiceStatus,
  PAYABLE_STATUSES,
} from "@/lib/domain/invoice-state";
import {
  averageAmount,
  CURRENCIES,
  type Currency,
  Decimal,
  fromStroops,
  PRICE_CURRENCIES,
  type PriceCurrency,
  sumAmounts,
  toStroops,
} from "@/lib/domain/money";
import type { NetworkName, NetworkPassphrase } from "@/lib/schemas/common";
import { keyNetworkCondition, keyPassphrase } from "@/lib/services/auth/key-network";
import type { AuthedContext, ServiceContext } from "../context";
import { rowsOf } from "../db";
import { getProfile } from "../profile/profile";
import { resolveNetwork } from "./network";

type ByAsset = Record<Currency, string>;

/** An invoice-priced figure set in one price currency (2 decimals). */
export type PricedFigures = {
  /** What the applied payments counted for (their priceValue, less the refunded share). */
  totalRevenue: string;
  revenueThisMonth: string;
  /** Mean total of the PAID invoices priced in this currency. */
  avgInvoiceValue: string;
  /** Sum of their amounts due (in cents) while awaiting payment. */
  pendingAmount: string;
};

export type InvoiceStats = {
  totalInvoices: number;
  paidInvoices: number;
  pendingInvoices: number;
  /**
   * Per asset received: the applied payments' asset amounts, less what was refunded of them
   * (partial payments count), whatever the invoice's pricing.
   */
  totalRevenue: ByAsset;
  /** The same for payments confirmed in the current UTC month. */
  revenueThisMonth: ByAsset;
  /** Mean total of PAID invoices priced in the asset (fiat-priced ones are in `byPriceCurrency`). */
  avgInvoiceValue: ByAsset;
  /**
   * Sum of the amounts due of invoices priced in the asset awaiting payment (PENDING,
   * PROCESSING, FAILED, EXPIRED); fiat-priced ones are in `byPriceCurrency`.
   */
  pendingAmount: ByAsset;
  /** Fiat-priced invoices' figures per price currency (docs/decisions.md, Fiat pricing). */
  byPriceCurrency: Record<PriceCurrency, PricedFigures>;
  statusBreakdown: Record<InvoiceStatus, number>;
  recentActivity: {
    invoiceId: string;
    invoiceNumber: string;
    action: AuditAction;
    amount: string;
    currency: Currency;
    /** When set, `amount` is in this currency (a fiat-priced invoice's total), else in `currency`. */
    priceCurrency: PriceCurrency | null;
    timestamp: Date;
  }[];
  /** Revenue per UTC month (yyyy-mm) of payment of the last 12 months, for the dashboard chart. */
  revenueByMonth: { month: string; revenue: ByAsset }[];
  /**
   * Revenue in the reporting currency: each applied payment's fiatValue less the refunded
   * share (2 decimals, half up); `unpriced` counts applied payments with no value in it.
   */
  revenue: { currency: PriceCurrency; amount: string; unpriced: number };
  /** What payment links brought in, whatever `includeDemoLinks` says (`linkRevenueOf`). */
  linkRevenue: LinkRevenue;
};

/**
 * Money received through payment links (single-use links and reusable links' checkouts):
 * per asset received, and per price currency for fiat-priced links, kept apart as above.
 */
export type LinkRevenue = {
  /** Applied payments counted (a checkout paid in two payments counts two). */
  payments: number;
  totalRevenue: ByAsset;
  revenueThisMonth: ByAsset;
  byPriceCurrency: Record<PriceCurrency, { totalRevenue: string; revenueThisMonth: string }>;
};

const zeroByAsset = (): ByAsset => ({ XLM: "0.0000000", USDC: "0.0000000", EURC: "0.0000000" });

/**
 * A wallet's statistics rows are folded (compact_invoice_stats) once a read meets more than
 * twice as many rows as groups plus this: each write appends a few, so a busy wallet's read
 * stays a few hundred rows. Housekeeping folds those of wallets nobody reads (compactPiledStats).
 */
export const STATS_SPARE_ROWS = 200;

/**
 * Revenue is money kept, net of credit notes: applied payments (a partial payment of an unpaid invoice counts, an
 * unapplied one never does) less what was refunded of them, by the payment's month; pending is
 * what is still due (docs/decisions.md, Lifecycle: statistics). The figures are read from
 * invoice_stats and payment_stats, which the database keeps as invoices and payments change
 * (db/schema/invoice-stats.ts; docs/decisions.md, Statistics at scale): a few hundred rows
 * whatever the size of the books.
 */
export async function getInvoiceStats(
  ctx: AuthedContext,
  query: {
    network?: NetworkName;
    networkPassphrase?: NetworkPassphrase;
    includeDemoLinks?: boolean;
  },
): Promise<InvoiceStats> {
  const now = ctx.now();
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const thisMonth = monthStart.toISOString().slice(0, 10);
  const yearAgo = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1))
    .toISOString()
    .slice(0, 10);
  const network = resolveNetwork(query.network, query.networkPassphrase);
  // The networks the caller sees: an API key's own, and the one asked for.
  const networks = [keyPassphrase(ctx), network].filter((n): n is string => n !== undefined);
  const inScope = (t: typeof invoiceStats | typeof paymentStats) =>
    and(eq(t.freelancerWallet, ctx.wallet), ...networks.map((n) => eq(t.networkPassphrase, n)));
  const where: SQL[] = [
    eq(invoices.freelancerWallet, ctx.wallet),
    isNull(invoices.deletedAt),
    ...keyNetworkCondition(ctx),
  ];
  if (network) where.push(eq(invoices.networkPassphrase, network));
  if (!query.includeDemoLinks) where.push(eq(invoices.kind, "INVOICE"));
  const counted = (kind: "INVOICE" | "LINK") => query.includeDemoLinks || kind === "INVOICE";

  // The profile's reporting currency (docs/decisions.md, Profile); payments valued in another
  // are `unpriced` here.
  const [profile, groups, paid, activity] = await Promise.all([
    getProfile(ctx.db, ctx.wallet),
    ctx.db
      .select({
        kind: invoiceStats.kind,
        currency: invoiceStats.currency,
        priceCurrency: invoiceStats.priceCurrency,
        status: invoiceStats.status,
        rows: sql<number>`count(*)::int`,
        n: sql<number>`sum(${invoiceStats.invoices})::int`,
        // Net of credit notes (docs/decisions.md, Credit notes).
        sum: sql<string>`sum(${invoiceStats.net})::text`,
        // A fiat-priced invoice owes in cents (invoiceAmountDue, lib/domain/fiat.ts).
        due: sql<string>`sum(${invoiceStats.due})::text`,
        // Credit notes beyond what was still due were credited against money received: revenue
        // is net of them (docs/decisions.md, Credit notes). A refund that went with one has
        // lowered amountPaid already, so it is never counted twice.
        creditedOver: sql<string>`sum(${invoiceStats.creditedOver})::text`,
      })
      .from(invoiceStats)
      .where(inScope(invoiceStats))
      .groupBy(
        invoiceStats.kind,
        invoiceStats.currency,
        invoiceStats.priceCurrency,
        invoiceStats.status,
      ),
    ctx.db
      .select({
        kind: paymentStats.kind,
        currency: paymentStats.currency,
        priceCurrency: paymentStats.priceCurrency,
        month: paymentStats.month,
        fiatCurrency: paymentStats.fiatCurrency,
        rows: sql<number>`count(*)::int`,
        n: sql<number>`sum(${paymentStats.payments})::int`,
        kept: sql<string>`sum(${paymentStats.kept})::text`,
        keptInAsset: sql<string>`sum(${paymentStats.keptInAsset})::text`,
        keptValue: sql<string>`sum(${paymentStats.keptValue})::text`,
        fiatKept: sql<string>`sum(${paymentStats.fiatKept})::text`,
      })
      .from(paymentStats)
      .where(inScope(paymentStats))
      .groupBy(
        paymentStats.kind,
        paymentStats.currency,
        paymentStats.priceCurrency,
        paymentStats.month,
        paymentStats.fiatCurrency,
      ),
    recentActivityOf(ctx, and(...where), RECENT_WINDOW),
  ]);
  // Fewer than 10 of the latest entries were on invoices the figures count (links, deleted
  // invoices, another network): look further, over all of them.
  const recentActivity =
    activity.length < 10 ? await recentActivityOf(ctx, and(...where), null) : activity;
  const reporting = profile?.reportingCurrency ?? REPORTING_CURRENCY;
  const rowsRead = [...groups, ...paid].reduce((n, g) => n + g.rows, 0);
  if (rowsRead > 2 * (groups.length + paid.length) + STATS_SPARE_ROWS) await compactStats(ctx);

  const statusBreakdown = Object.fromEntries(INVOICE_STATUSES.map((s) => [s, 0])) as Record<
    InvoiceStatus,
    number
  >;
  const paidTotals: Record<Currency, string[]> = { XLM: [], USDC: [], EURC: [] };
  const pending: Record<Currency, string[]> = { XLM: [], USDC: [], EURC: [] };
  const paidCount: Record<Currency, number> = { XLM: 0, USDC: 0, EURC: 0 };
  const fiatPaid: Record<PriceCurrency, string[]> = { USD: [], EUR: [] };
  const fiatPending: Record<PriceCurrency, string[]> = { USD: [], EUR: [] };
  const fiatPaidCount: Record<PriceCurrency, number> = { USD: 0, EUR: 0 };
  const creditedOver: Record<Currency, string[]> = { XLM: [], USDC: [], EURC: [] };
  const fiatCreditedOver: Record<PriceCurrency, string[]> = { USD: [], EUR: [] };
  let totalInvoices = 0;
  for (const g of groups) {
    if (!counted(g.kind)) continue;
    totalInvoices += g.n;
    statusBreakdown[g.status] += g.n;
    const payable = (PAYABLE_STATUSES as readonly string[]).includes(g.status);
    if (g.priceCurrency) {
      // Fiat amounts never join an asset's figures (docs/decisions.md, Fiat pricing).
      fiatCreditedOver[g.priceCurrency].push(g.creditedOver);
      if (g.status === "PAID") {
        fiatPaid[g.priceCurrency].push(g.sum);
        fiatPaidCount[g.priceCurrency] += g.n;
      }
      if (payable) fiatPending[g.priceCurrency].push(g.due);
      continue;
    }
    creditedOver[g.currency].push(g.creditedOver);
    if (g.status === "PAID") {
      paidTotals[g.currency].push(g.sum);
      paidCount[g.currency] += g.n;
    }
    if (payable) pending[g.currency].push(g.due);
  }

  // Sums per asset count amounts in that asset (keptInAsset): a payment received outside
  // Stellar on a fiat-priced invoice is in its price currency and counts in the fiat sums
  // (keptValue, fiatKept) only (docs/decisions.md, Payments received outside Stellar).
  const revenueOf = zeroStroops();
  const revenueThisMonthOf = zeroStroops();
  const monthly = new Map<string, Record<Currency, bigint>>();
  const priced: Record<PriceCurrency, [Big, Big]> = {
    USD: [new Decimal("0"), new Decimal("0")],
    EUR: [new Decimal("0"), new Decimal("0")],
  };
  let inFiat = new Decimal("0");
  let unpriced = 0;
  for (const p of paid) {
    if (!counted(p.kind)) continue;
    const inAsset = toStroops(p.keptInAsset);
    revenueOf[p.currency] += inAsset;
    if (p.month === thisMonth) revenueThisMonthOf[p.currency] += inAsset;
    if (p.month >= yearAgo) {
      const month = p.month.slice(0, 7);
      const m = monthly.get(month) ?? zeroStroops();
      m[p.currency] += inAsset;
      monthly.set(month, m);
    }
    if (p.priceCurrency) {
      priced[p.priceCurrency][0] = priced[p.priceCurrency][0].plus(p.keptValue);
      if (p.month === thisMonth) {
        priced[p.priceCurrency][1] = priced[p.priceCurrency][1].plus(p.keptValue);
      }
    }
    if (p.fiatCurrency === reporting) inFiat = inFiat.plus(p.fiatKept);
    else unpriced += p.n;
  }

  const totalRevenue = zeroByAsset();
  const revenueThisMonth = zeroByAsset();
  const avgInvoiceValue = zeroByAsset();
  const pendingAmount = zeroByAsset();
  for (const c of CURRENCIES) {
    totalRevenue[c] = fromStroops(revenueOf[c] - toStroops(sumAmounts(creditedOver[c])));
    revenueThisMonth[c] = fromStroops(revenueThisMonthOf[c]);
    avgInvoiceValue[c] = averageAmount(sumAmounts(paidTotals[c]), paidCount[c]);
    pendingAmount[c] = sumAmounts(pending[c]);
  }

  const byPriceCurrency = Object.fromEntries(
    PRICE_CURRENCIES.map((c) => {
      const figures: PricedFigures = {
        totalRevenue: fiat2(priced[c][0].minus(sumAmounts(fiatCreditedOver[c])).toFixed(7)),
        revenueThisMonth: fiat2(priced[c][1].toFixed()),
        avgInvoiceValue: fiat2(averageAmount(sumAmounts(fiatPaid[c]), fiatPaidCount[c])),
        pendingAmount: fiat2(sumAmounts(fiatPending[c])),
      };
      return [c, figures];
    }),
  ) as Record<PriceCurrency, PricedFigures>;

  const revenueByMonth: InvoiceStats["revenueByMonth"] = [];
  for (let i = 11; i >= 0; i--) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    const month = `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
    const inMonth = zeroByAsset();
    const m = monthly.get(month);
    if (m) for (const c of CURRENCIES) inMonth[c] = fromStroops(m[c]);
    revenueByMonth.push({ month, revenue: inMonth });
  }

  return {
    totalInvoices,
    paidInvoices: statusBreakdown.PAID,
    pendingInvoices: PAYABLE_STATUSES.reduce((n, s) => n + statusBreakdown[s], 0),
    totalRevenue,
    revenueThisMonth,
    avgInvoiceValue,
    pendingAmount,
    byPriceCurrency,
    statusBreakdown,
    recentActivity,
    revenueByMonth,
    revenue: { currency: reporting, amount: inFiat.toFixed(2), unpriced },
    // Links apart (docs/decisions.md, Payment links, Managing a link).
    linkRevenue: linkRevenueOf(paid, thisMonth),
  };
}

/** The latest audit entries the recent activity looks at first. */
const RECENT_WINDOW = 200;

/**
 * The 10 latest audit entries of the wallet's invoices that `condition` keeps, read off
 * invoice_audit_logs_owner_idx: among its `window` latest entries (a few index pages whatever
 * the size of the books), or among all of them (null).
 */
function recentActivityOf(ctx: AuthedContext, condition: SQL | undefined, window: number | null) {
  // A payer starting to pay (pay-intent: UPDATED to PROCESSING) is not the owner's activity.
  const latest = ctx.db
    .select()
    .from(invoiceAuditLogs)
    .where(
      and(
        eq(invoiceAuditLogs.freelancerWallet, ctx.wallet),
        sql`not (${invoiceAuditLogs.action} = 'UPDATED' and coalesce(${invoiceAuditLogs.changes}->'status'->>'to', '') = 'PROCESSING')`,
      ),
    )
    .orderBy(desc(invoiceAuditLogs.createdAt), desc(invoiceAuditLogs.id));
  const l = (window === null ? latest : latest.limit(window)).as("l");
  const refundEntry = sql`(${l.action} = 'REFUNDED' and ${l.changes}->>'asset' in ('XLM', 'USDC', 'EURC') and ${l.changes}->>'amount' ~ '^[0-9]+([.][0-9]+)?$')`;
  return ctx.db
    .select({
      invoiceId: l.invoiceId,
      invoiceNumber: invoices.invoiceNumber,
      action: l.action,
      // A refund's entry is the amount sent back, in the asset it went back in; every other
      // entry the invoice's total, in its price currency when it has one.
      amount: sql<string>`case when ${refundEntry} then (${l.changes}->>'amount')::numeric(18,7)::text else ${invoices.total}::text end`,
      currency: sql<Currency>`case when ${refundEntry} then ${l.changes}->>'asset' else ${invoices.currency}::text end`,
      priceCurrency: sql<PriceCurrency | null>`case when ${refundEntry} then null else ${invoices.priceCurrency}::text end`,
      timestamp: l.createdAt,
    })
    .from(l)
    .innerJoin(invoices, eq(invoices.id, l.invoiceId))
    .where(condition)
    .orderBy(desc(l.createdAt), desc(l.id))
    .limit(10);
}

/**
 * Housekeeping: folds the rows of every wallet that has piled up more than twice its groups
 * plus STATS_SPARE_ROWS (one that writes and never reads its statistics). Returns how many.
 */
export async function compactPiledStats(ctx: ServiceContext): Promise<number> {
  const piled = rowsOf<{ wallet: string }>(
    await ctx.db.execute(sql`
      select freelancer_wallet as wallet from invoice_stats group by 1
        having count(*) > 2 * count(distinct (network_passphrase, kind, currency, price_currency, status)) + ${STATS_SPARE_ROWS}
      union
      select freelancer_wallet from payment_stats group by 1
        having count(*) > 2 * count(distinct (network_passphrase, kind, currency, price_currency, month, fiat_currency)) + ${STATS_SPARE_ROWS}`),
  );
  for (const { wallet } of piled) {
    await ctx.db.execute(sql`select compact_invoice_stats(${wallet})`);
  }
  return piled.length;
}

/**
 * Recomputes the statistics rows of `wallet` (every wallet when omitted) from its invoices and
 * payments (rebuild_invoice_stats, migration 0036): the repair, and what the tests compare the
 * kept figures with (scripts/rebuild-stats.ts).
 */
export async function rebuildStats(ctx: ServiceContext, wallet?: string): Promise<number> {
  const wallets = wallet
    ? [wallet]
    : rowsOf<{ wallet: string }>(
        await ctx.db.execute(
          sql`select distinct freelancer_wallet as wallet from invoices union select distinct freelancer_wallet from invoice_stats union select distinct freelancer_wallet from payment_stats`,
        ),
      ).map((r) => r.wallet);
  for (const w of wallets) await ctx.db.execute(sql`select rebuild_invoice_stats(${w})`);
  return wallets.length;
}

const zeroStroops = (): Record<Currency, bigint> => ({ XLM: 0n, USDC: 0n, EURC: 0n });

/** Folds the wallet's statistics rows (compact_invoice_stats, migration 0036); a failure only costs the next read more rows. */
async function compactStats(ctx: AuthedContext): Promise<void> {
  try {
    await ctx.db.execute(sql`select compact_invoice_stats(${ctx.wallet})`);
  } catch (err) {
    ctx.logger.warn("statistics compaction failed", {
      requestId: ctx.requestId,
      error: String(err),
    });
  }
}

/**
 * Link revenue: the applied payments of LINK rows (a single-use link, a reusable link's
 * checkouts; a payment to a reusable link's own memo is never applied) less refunds, per
 * asset, and per price currency what they counted for (docs/decisions.md, Payment links),
 * whatever `includeDemoLinks` says.
 */
function linkRevenueOf(
  paid: {
    kind: "INVOICE" | "LINK";
    currency: Currency;
    priceCurrency: PriceCurrency | "";
    month: string;
    n: number;
    kept: string;
    keptValue: string;
  }[],
  thisMonth: string,
): LinkRevenue {
  const kept = zeroStroops();
  const keptThisMonth = zeroStroops();
  const values: Record<PriceCurrency, [Big, Big]> = {
    USD: [new Decimal("0"), new Decimal("0")],
    EUR: [new Decimal("0"), new Decimal("0")],
  };
  let n = 0;
  for (const p of paid) {
    if (p.kind !== "LINK") continue;
    n += p.n;
    kept[p.currency] += toStroops(p.kept);
    if (p.month === thisMonth) keptThisMonth[p.currency] += toStroops(p.kept);
    if (p.priceCurrency) {
      values[p.priceCurrency][0] = values[p.priceCurrency][0].plus(p.keptValue);
      if (p.month === thisMonth) {
        values[p.priceCurrency][1] = values[p.priceCurrency][1].plus(p.keptValue);
      }
    }
  }
  const result: LinkRevenue = {
    payments: n,
    totalRevenue: zeroByAsset(),
    revenueThisMonth: zeroByAsset(),
    byPriceCurrency: {
      USD: { totalRevenue: "0.00", revenueThisMonth: "0.00" },
      EUR: { totalRevenue: "0.00", revenueThisMonth: "0.00" },
    },
  };
  for (const c of CURRENCIES) {
    result.totalRevenue[c] = fromStroops(kept[c]);
    result.revenueThisMonth[c] = fromStroops(keptThisMonth[c]);
  }
  // Values keep every decimal the division gives: added exactly, rounded once to cents.
  for (const c of PRICE_CURRENCIES) {
    result.byPriceCurrency[c] = {
      totalRevenue: fiat2(values[c][0].toFixed()),
      revenueThisMonth: fiat2(values[c][1].toFixed()),
    };
  }
  return result;
}
