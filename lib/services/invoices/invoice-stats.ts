import { and, count, desc, eq, gte, isNull, type SQL, sql } from "drizzle-orm";
import { invoiceAuditLogs, invoices, payments } from "@/db/schema";
import { REPORTING_CURRENCY } from "@/lib/domain/fiat";
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
  type PriceCurrency,
  sumAmounts,
} from "@/lib/domain/money";
import type { NetworkName, NetworkPassphrase } from "@/lib/schemas/common";
import { keyNetworkCondition } from "@/lib/services/auth/key-network";
import type { AuthedContext } from "../context";
import { getProfile } from "../profile/profile";
import { resolveNetwork } from "./network";

type ByAsset = Record<Currency, string>;

export type InvoiceStats = {
  totalInvoices: number;
  paidInvoices: number;
  pendingInvoices: number;
  /** Sum of the applied payments, less what was refunded of them (partial payments count). */
  totalRevenue: ByAsset;
  /** The same for payments confirmed in the current UTC month. */
  revenueThisMonth: ByAsset;
  /** Mean total of PAID invoices. */
  avgInvoiceValue: ByAsset;
  /** Sum of the amounts due of invoices awaiting payment (PENDING, PROCESSING, FAILED, EXPIRED). */
  pendingAmount: ByAsset;
  statusBreakdown: Record<InvoiceStatus, number>;
  recentActivity: {
    invoiceId: string;
    invoiceNumber: string;
    action: AuditAction;
    amount: string;
    currency: Currency;
    timestamp: Date;
  }[];
  /** Revenue per UTC month (yyyy-mm) of payment of the last 12 months, for the dashboard chart. */
  revenueByMonth: { month: string; revenue: ByAsset }[];
  /**
   * Revenue in the reporting currency: each applied payment's fiatValue less the refunded
   * share (2 decimals, half up); `unpriced` counts applied payments with no value in it.
   */
  revenue: { currency: PriceCurrency; amount: string; unpriced: number };
};

const zeroByAsset = (): ByAsset => ({ XLM: "0.0000000", USDC: "0.0000000", EURC: "0.0000000" });

/**
 * Revenue is money kept: applied payments (a partial payment of an unpaid invoice counts, an
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
  if (!query.includeDemoLinks) where.push(eq(invoices.kind, "INVOICE"));
  if (network) where.push(eq(invoices.networkPassphrase, network));
  const condition = and(...where);

  const kept = sql`${payments.amount} - ${payments.amountRefunded}`;
  // The profile's reporting currency (docs/decisions.md, Profile); payments valued in another
  // are `unpriced` here.
  const reporting = (await getProfile(ctx.db, ctx.wallet))?.reportingCurrency ?? REPORTING_CURRENCY;
  const priced = sql`${payments.fiatCurrency} is not distinct from ${reporting} and ${payments.fiatValue} is not null`;
  const [groups, months, activity, revenue, [inFiat]] = await Promise.all([
    ctx.db
      .select({
        currency: invoices.currency,
        status: invoices.status,
        n: count(),
        sum: sql<string>`coalesce(sum(${invoices.total}), 0)::text`,
        due: sql<string>`coalesce(sum(greatest(${invoices.total} - ${invoices.amountPaid}, 0)), 0)::text`,
      })
      .from(invoices)
      .where(condition)
      .groupBy(invoices.currency, invoices.status),
    ctx.db
      .select({
        month: sql<string>`to_char(date_trunc('month', ${payments.confirmedAt} at time zone 'UTC'), 'YYYY-MM')`,
        currency: invoices.currency,
        sum: sql<string>`sum(${kept})::text`,
      })
      .from(payments)
      .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
      .where(and(condition, eq(payments.applied, true), gte(payments.confirmedAt, yearAgo)))
      .groupBy(sql`1`, invoices.currency),
    ctx.db
      .select({
        invoiceId: invoiceAuditLogs.invoiceId,
        invoiceNumber: invoices.invoiceNumber,
        action: invoiceAuditLogs.action,
        amount: invoices.total,
        currency: invoices.currency,
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
      .where(and(condition, eq(payments.applied, true)))
      .groupBy(invoices.currency),
    ctx.db
      .select({
        amount: sql<string>`coalesce(sum(round(${payments.fiatValue} * (${kept}) / ${payments.amount}, 2)) filter (where ${priced}), 0)::numeric(20,2)::text`,
        unpriced: sql<number>`(count(*) filter (where not (${priced})))::int`,
      })
      .from(payments)
      .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
      .where(and(condition, eq(payments.applied, true))),
  ]);

  const statusBreakdown = Object.fromEntries(INVOICE_STATUSES.map((s) => [s, 0])) as Record<
    InvoiceStatus,
    number
  >;
  const paidTotals: Record<Currency, string[]> = { XLM: [], USDC: [], EURC: [] };
  const pending: Record<Currency, string[]> = { XLM: [], USDC: [], EURC: [] };
  const paidCount: Record<Currency, number> = { XLM: 0, USDC: 0, EURC: 0 };
  let totalInvoices = 0;
  for (const g of groups) {
    totalInvoices += g.n;
    statusBreakdown[g.status] += g.n;
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
  for (const c of CURRENCIES) {
    avgInvoiceValue[c] = averageAmount(sumAmounts(paidTotals[c]), paidCount[c]);
    pendingAmount[c] = sumAmounts(pending[c]);
  }

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
    statusBreakdown,
    recentActivity: activity,
    revenueByMonth,
    revenue: { currency: reporting, ...inFiat },
  };
}
