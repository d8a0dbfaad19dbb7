import { and, count, desc, eq, gte, isNull, type SQL, sql } from "drizzle-orm";
import { invoiceAuditLogs, invoices } from "@/db/schema";
import {
  type AuditAction,
  INVOICE_STATUSES,
  type InvoiceStatus,
  PAYABLE_STATUSES,
} from "@/lib/domain/invoice-state";
import { averageAmount, CURRENCIES, type Currency, sumAmounts } from "@/lib/domain/money";
import type { NetworkName, NetworkPassphrase } from "@/lib/schemas/common";
import type { AuthedContext } from "../context";
import { resolveNetwork } from "./network";

type ByAsset = Record<Currency, string>;

export type InvoiceStats = {
  totalInvoices: number;
  paidInvoices: number;
  pendingInvoices: number;
  /** Sum of the totals of PAID invoices. */
  totalRevenue: ByAsset;
  /** PAID invoices whose paidAt falls in the current UTC month. */
  revenueThisMonth: ByAsset;
  /** Mean total of PAID invoices. */
  avgInvoiceValue: ByAsset;
  /** Sum of the totals of invoices awaiting payment (PENDING, PROCESSING, FAILED, EXPIRED). */
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
  /** Revenue per UTC month (yyyy-mm) of the last 12 months, for the dashboard chart. */
  revenueByMonth: { month: string; revenue: ByAsset }[];
};

const zeroByAsset = (): ByAsset => ({ XLM: "0.0000000", USDC: "0.0000000", EURC: "0.0000000" });

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
  const where: SQL[] = [eq(invoices.freelancerWallet, ctx.wallet), isNull(invoices.deletedAt)];
  if (!query.includeDemoLinks) where.push(eq(invoices.kind, "INVOICE"));
  if (network) where.push(eq(invoices.networkPassphrase, network));
  const condition = and(...where);

  const [groups, months, activity] = await Promise.all([
    ctx.db
      .select({
        currency: invoices.currency,
        status: invoices.status,
        n: count(),
        sum: sql<string>`coalesce(sum(${invoices.total}), 0)::text`,
        sumThisMonth: sql<string>`coalesce(sum(${invoices.total}) filter (where ${invoices.paidAt} >= ${monthStart.toISOString()}), 0)::text`,
      })
      .from(invoices)
      .where(condition)
      .groupBy(invoices.currency, invoices.status),
    ctx.db
      .select({
        month: sql<string>`to_char(date_trunc('month', ${invoices.paidAt} at time zone 'UTC'), 'YYYY-MM')`,
        currency: invoices.currency,
        sum: sql<string>`sum(${invoices.total})::text`,
      })
      .from(invoices)
      .where(and(condition, eq(invoices.status, "PAID"), gte(invoices.paidAt, yearAgo)))
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
      .where(condition)
      .orderBy(desc(invoiceAuditLogs.createdAt), desc(invoiceAuditLogs.id))
      .limit(10),
  ]);

  const statusBreakdown = Object.fromEntries(INVOICE_STATUSES.map((s) => [s, 0])) as Record<
    InvoiceStatus,
    number
  >;
  const paid: Record<Currency, string[]> = { XLM: [], USDC: [], EURC: [] };
  const paidThisMonth: Record<Currency, string[]> = { XLM: [], USDC: [], EURC: [] };
  const pending: Record<Currency, string[]> = { XLM: [], USDC: [], EURC: [] };
  const paidCount: Record<Currency, number> = { XLM: 0, USDC: 0, EURC: 0 };
  let totalInvoices = 0;
  for (const g of groups) {
    totalInvoices += g.n;
    statusBreakdown[g.status] += g.n;
    if (g.status === "PAID") {
      paid[g.currency].push(g.sum);
      paidThisMonth[g.currency].push(g.sumThisMonth);
      paidCount[g.currency] += g.n;
    }
    if ((PAYABLE_STATUSES as readonly string[]).includes(g.status)) pending[g.currency].push(g.sum);
  }
  const totalRevenue = zeroByAsset();
  const revenueThisMonth = zeroByAsset();
  const avgInvoiceValue = zeroByAsset();
  const pendingAmount = zeroByAsset();
  for (const c of CURRENCIES) {
    totalRevenue[c] = sumAmounts(paid[c]);
    revenueThisMonth[c] = sumAmounts(paidThisMonth[c]);
    avgInvoiceValue[c] = averageAmount(totalRevenue[c], paidCount[c]);
    pendingAmount[c] = sumAmounts(pending[c]);
  }

  const revenueByMonth: InvoiceStats["revenueByMonth"] = [];
  for (let i = 11; i >= 0; i--) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    const month = `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
    const revenue = zeroByAsset();
    for (const m of months) if (m.month === month) revenue[m.currency] = sumAmounts([m.sum]);
    revenueByMonth.push({ month, revenue });
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
  };
}
