import { and, count, desc, eq, gte, isNull, type SQL, sql } from "drizzle-orm";
import { invoiceAuditLogs, invoices, payments } from "@/db/schema";
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
  PRICE_CURRENCIES,
  type PriceCurrency,
  sumAmounts,
} from "@/lib/domain/money";
import type { NetworkName, NetworkPassphrase } from "@/lib/schemas/common";
import { keyNetworkCondition } from "@/lib/services/auth/key-network";
import type { AuthedContext } from "../context";
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
 * Revenue is money kept, net of credit notes: applied payments (a partial payment of an unpaid invoice counts, an
 * unapplied one never does) less what was refunded of them, by the payment's month; pending is
 * what is still due (docs/decisions.md, Lifecycle: statistics).
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
  const yearAgo = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1));
  const network = resolveNetwork(query.network, query.networkPassphrase);
  const where: SQL[] = [
    eq(invoices.freelancerWallet, ctx.wallet),
    isNull(invoices.deletedAt),
    ...keyNetworkCondition(ctx),
  ];
  if (network) where.push(eq(invoices.networkPassphrase, network));
  const linksOnly = and(...where, eq(invoices.kind, "LINK"));
  if (!query.includeDemoLinks) where.push(eq(invoices.kind, "INVOICE"));
  const condition = and(...where);

  const kept = sql`${payments.amount} - ${payments.amountRefunded}`;
  // The profile's reporting currency (docs/decisions.md, Profile); payments valued in another
  // are `unpriced` here.
  const reporting = (await getProfile(ctx.db, ctx.wallet))?.reportingCurrency ?? REPORTING_CURRENCY;
  const priced = sql`${payments.fiatCurrency} is not distinct from ${reporting} and ${payments.fiatValue} is not null`;
  const refundEntry = sql`(${invoiceAuditLogs.action} = 'REFUNDED' and ${invoiceAuditLogs.changes}->>'asset' in ('XLM', 'USDC', 'EURC') and ${invoiceAuditLogs.changes}->>'amount' ~ '^[0-9]+([.][0-9]+)?$')`;
  const keptValue = sql`${payments.priceValue} * (${kept}) / ${payments.amount}`;
  // Sums per asset count amounts in that asset: a payment received outside Stellar on a
  // fiat-priced invoice is in its price currency and counts in the fiat sums (priceValue,
  // fiatValue) only (docs/decisions.md, Payments received outside Stellar).
  const inAsset = eq(payments.asset, invoices.currency);
  const [groups, months, activity, revenue, [inFiat], pricedRevenue, credits] = await Promise.all([
    ctx.db
      .select({
        currency: invoices.currency,
        priceCurrency: invoices.priceCurrency,
        status: invoices.status,
        n: count(),
        // Net of credit notes (docs/decisions.md, Credit notes).
        sum: sql<string>`coalesce(sum(${invoices.total} - ${invoices.amountCredited}), 0)::text`,
        // A fiat-priced invoice owes in cents (invoiceAmountDue, lib/domain/fiat.ts).
        due: sql<string>`coalesce(sum(greatest(${invoices.total} - ${invoices.amountCredited} - case when ${invoices.priceCurrency} is null then ${invoices.amountPaid} else round(${invoices.amountPaid}, 2) end, 0)), 0)::text`,
      })
      .from(invoices)
      .where(condition)
      .groupBy(invoices.currency, invoices.priceCurrency, invoices.status),
    ctx.db
      .select({
        month: sql<string>`to_char(date_trunc('month', ${payments.confirmedAt} at time zone 'UTC'), 'YYYY-MM')`,
        currency: invoices.currency,
        sum: sql<string>`sum(${kept})::text`,
      })
      .from(payments)
      .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
      .where(
        and(condition, eq(payments.applied, true), inAsset, gte(payments.confirmedAt, yearAgo)),
      )
      .groupBy(sql`1`, invoices.currency),
    ctx.db
      .select({
        invoiceId: invoiceAuditLogs.invoiceId,
        invoiceNumber: invoices.invoiceNumber,
        action: invoiceAuditLogs.action,
        // A refund's entry is the amount sent back, in the asset it went back in; every other
        // entry the invoice's total, in its price currency when it has one.
        amount: sql<string>`case when ${refundEntry} then (${invoiceAuditLogs.changes}->>'amount')::numeric(18,7)::text else ${invoices.total}::text end`,
        currency: sql<Currency>`case when ${refundEntry} then ${invoiceAuditLogs.changes}->>'asset' else ${invoices.currency}::text end`,
        priceCurrency: sql<PriceCurrency | null>`case when ${refundEntry} then null else ${invoices.priceCurrency}::text end`,
        timestamp: invoiceAuditLogs.createdAt,
      })
      .from(invoiceAuditLogs)
      .innerJoin(invoices, eq(invoices.id, invoiceAuditLogs.invoiceId))
      // A payer starting to pay (pay-intent: UPDATED to PROCESSING) is not the owner's activity.
      .where(
        and(
          condition,
          sql`not (${invoiceAuditLogs.action} = 'UPDATED' and coalesce(${invoiceAuditLogs.changes}->'status'->>'to', '') = 'PROCESSING')`,
        ),
      )
      .orderBy(desc(invoiceAuditLogs.createdAt), desc(invoiceAuditLogs.id))
      .limit(10),
    ctx.db
      .select({
        currency: invoices.currency,
        sum: sql<string>`coalesce(sum(${kept}), 0)::text`,
        sumThisMonth: sql<string>`coalesce(sum(${kept}) filter (where ${payments.confirmedAt} >= ${monthStart.toISOString()}), 0)::text`,
      })
      .from(payments)
      .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
      .where(and(condition, eq(payments.applied, true), inAsset))
      .groupBy(invoices.currency),
    ctx.db
      .select({
        amount: sql<string>`coalesce(sum(round(${payments.fiatValue} * (${kept}) / ${payments.amount}, 2)) filter (where ${priced}), 0)::numeric(20,2)::text`,
        unpriced: sql<number>`(count(*) filter (where not (${priced})))::int`,
      })
      .from(payments)
      .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
      .where(and(condition, eq(payments.applied, true))),
    ctx.db
      .select({
        priceCurrency: sql<PriceCurrency>`${invoices.priceCurrency}::text`,
        sum: sql<string>`coalesce(sum(${keptValue}), 0)::text`,
        sumThisMonth: sql<string>`coalesce(sum(${keptValue}) filter (where ${payments.confirmedAt} >= ${monthStart.toISOString()}), 0)::text`,
      })
      .from(payments)
      .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
      .where(
        and(
          condition,
          eq(payments.applied, true),
          sql`${invoices.priceCurrency} is not null and ${payments.priceValue} is not null and ${payments.amount} > 0`,
        ),
      )
      .groupBy(invoices.priceCurrency),
    // Credit notes beyond what was still due were credited against money received: revenue is
    // net of them (docs/decisions.md, Credit notes). A refund that went with one has lowered
    // amountPaid already, so it is never counted twice.
    ctx.db
      .select({
        currency: invoices.currency,
        priceCurrency: sql<PriceCurrency | null>`${invoices.priceCurrency}::text`,
        sum: sql<string>`coalesce(sum(greatest(${invoices.amountCredited} - greatest(${invoices.total} - ${invoices.amountPaid}, 0), 0)), 0)::text`,
      })
      .from(invoices)
      .where(and(condition, sql`${invoices.amountCredited} > 0`))
      .groupBy(invoices.currency, invoices.priceCurrency),
  ]);
  // Links apart (docs/decisions.md, Payment links, Managing a link).
  const linkRevenue = await linkRevenueOf(ctx, linksOnly, monthStart);

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
  let totalInvoices = 0;
  for (const g of groups) {
    totalInvoices += g.n;
    statusBreakdown[g.status] += g.n;
    if (g.priceCurrency) {
      // Fiat amounts never join an asset's figures (docs/decisions.md, Fiat pricing).
      if (g.status === "PAID") {
        fiatPaid[g.priceCurrency].push(g.sum);
        fiatPaidCount[g.priceCurrency] += g.n;
      }
      if ((PAYABLE_STATUSES as readonly string[]).includes(g.status)) {
        fiatPending[g.priceCurrency].push(g.due);
      }
      continue;
    }
    if (g.status === "PAID") {
      paidTotals[g.currency].push(g.sum);
      paidCount[g.currency] += g.n;
    }
    if ((PAYABLE_STATUSES as readonly string[]).includes(g.status)) pending[g.currency].push(g.due);
  }
  const totalRevenue = zeroByAsset();
  const revenueThisMonth = zeroByAsset();
  const avgInvoiceValue = zeroByAsset();
  const pendingAmount = zeroByAsset();
  for (const r of revenue) {
    totalRevenue[r.currency] = sumAmounts([r.sum]);
    revenueThisMonth[r.currency] = sumAmounts([r.sumThisMonth]);
  }
  const creditedAgainstPaid = (priceCurrency: PriceCurrency | null, currency?: Currency) =>
    credits
      .filter((c) => c.priceCurrency === priceCurrency && (!currency || c.currency === currency))
      .map((c) => c.sum);
  for (const c of CURRENCIES) {
    const over = creditedAgainstPaid(null, c);
    if (over.length > 0) {
      totalRevenue[c] = new Decimal(totalRevenue[c]).minus(sumAmounts(over)).toFixed(7);
    }
  }
  for (const c of CURRENCIES) {
    avgInvoiceValue[c] = averageAmount(sumAmounts(paidTotals[c]), paidCount[c]);
    pendingAmount[c] = sumAmounts(pending[c]);
  }

  const byPriceCurrency = Object.fromEntries(
    PRICE_CURRENCIES.map((c) => {
      const r = pricedRevenue.find((p) => p.priceCurrency === c);
      const figures: PricedFigures = {
        totalRevenue: fiat2(
          new Decimal(r?.sum ?? "0").minus(sumAmounts(creditedAgainstPaid(c))).toFixed(7),
        ),
        revenueThisMonth: fiat2(r?.sumThisMonth ?? "0"),
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
    for (const m of months) if (m.month === month) inMonth[m.currency] = sumAmounts([m.sum]);
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
    recentActivity: activity,
    revenueByMonth,
    revenue: { currency: reporting, ...inFiat },
    linkRevenue,
  };
}

/**
 * Link revenue: the applied payments of LINK rows (a single-use link, a reusable link's
 * checkouts; a payment to a reusable link's own memo is never applied) less refunds, per
 * asset, and per price currency what they counted for (docs/decisions.md, Payment links).
 */
async function linkRevenueOf(
  ctx: AuthedContext,
  linksOnly: SQL | undefined,
  monthStart: Date,
): Promise<LinkRevenue> {
  const kept = sql`${payments.amount} - ${payments.amountRefunded}`;
  const keptValue = sql`case when ${invoices.priceCurrency} is not null and ${payments.priceValue} is not null and ${payments.amount} > 0 then ${payments.priceValue} * (${kept}) / ${payments.amount} end`;
  const thisMonth = sql`${payments.confirmedAt} >= ${monthStart.toISOString()}`;
  const rows = await ctx.db
    .select({
      currency: invoices.currency,
      priceCurrency: invoices.priceCurrency,
      n: sql<number>`count(*)::int`,
      sum: sql<string>`coalesce(sum(${kept}), 0)::text`,
      sumThisMonth: sql<string>`coalesce(sum(${kept}) filter (where ${thisMonth}), 0)::text`,
      value: sql<string>`coalesce(sum(${keptValue}), 0)::text`,
      valueThisMonth: sql<string>`coalesce(sum(${keptValue}) filter (where ${thisMonth}), 0)::text`,
    })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .where(and(linksOnly, eq(payments.applied, true)))
    .groupBy(invoices.currency, invoices.priceCurrency);
  const result: LinkRevenue = {
    payments: 0,
    totalRevenue: zeroByAsset(),
    revenueThisMonth: zeroByAsset(),
    byPriceCurrency: {
      USD: { totalRevenue: "0.00", revenueThisMonth: "0.00" },
      EUR: { totalRevenue: "0.00", revenueThisMonth: "0.00" },
    },
  };
  const assetSums: Record<Currency, [string[], string[]]> = {
    XLM: [[], []],
    USDC: [[], []],
    EURC: [[], []],
  };
  const fiatSums: Record<PriceCurrency, [string[], string[]]> = { USD: [[], []], EUR: [[], []] };
  for (const r of rows) {
    result.payments += r.n;
    assetSums[r.currency][0].push(r.sum);
    assetSums[r.currency][1].push(r.sumThisMonth);
    if (r.priceCurrency) {
      fiatSums[r.priceCurrency][0].push(r.value);
      fiatSums[r.priceCurrency][1].push(r.valueThisMonth);
    }
  }
  for (const c of CURRENCIES) {
    result.totalRevenue[c] = sumAmounts(assetSums[c][0]);
    result.revenueThisMonth[c] = sumAmounts(assetSums[c][1]);
  }
  for (const c of PRICE_CURRENCIES) {
    // Values keep every decimal the division gives: added exactly, rounded once to cents.
    const total = (values: string[]) =>
      fiat2(values.reduce((acc, v) => acc.plus(v), new Decimal("0")).toFixed());
    result.byPriceCurrency[c] = {
      totalRevenue: total(fiatSums[c][0]),
      revenueThisMonth: total(fiatSums[c][1]),
    };
  }
  return result;
}
