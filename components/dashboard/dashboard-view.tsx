"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { AUDIT_ACTION_LABELS } from "@/components/invoices/audit-timeline";
import { Amount } from "@/components/ui/amount";
import { Button, textLinkClass } from "@/components/ui/button";
import { Alert, Card, StatusBadge } from "@/components/ui/card";
import { Loading, Muted, PageHeader, Pair } from "@/components/ui/page";
import { useCan } from "@/lib/client/session";
import { useResource } from "@/lib/client/use-resource";
import { INVOICE_STATUSES } from "@/lib/domain/invoice-state";
import {
  CURRENCIES,
  type Currency,
  PRICE_CURRENCIES,
  type PriceCurrency,
} from "@/lib/domain/money";
import { formatDateTime, formatTrimmed, NETWORK_LABELS, shownStatusCounts } from "@/lib/format";
import type { InvoiceStatsBody } from "@/lib/schemas/invoices";
import { ExportPanel } from "./export-panel";
import { LinkRevenue } from "./link-revenue";
import { NetworkSwitch, usePreferredNetwork } from "./network-preference";
import { RevenueChart } from "./revenue-chart";

/** GET /api/invoices/stats, Form B: the serializer's own output type. */
export type InvoiceStats = InvoiceStatsBody;

/** The activity feed's words: an update of a draft reads "Edited" here. */
const ACTION_LABELS: Record<string, string> = { ...AUDIT_ACTION_LABELS, UPDATED: "Edited" };

export function DashboardView() {
  const router = useRouter();
  const writes = useCan()("write");
  const [network, setNetwork, ready] = usePreferredNetwork();
  // A dashboard left open in a tab shows what was paid meanwhile when the tab comes back.
  const { data, error, loading } = useResource<InvoiceStats>(
    ready ? `/api/invoices/stats?network=${network}` : null,
    { refreshOnFocus: true },
  );
  const networkLabel = NETWORK_LABELS[network];
  const newInvoice = () => router.push("/invoices/new");

  return (
    <div className="space-y-6">
      <PageHeader
        title="Dashboard"
        description={`Your invoices and revenue on ${networkLabel}.`}
        actions={
          <>
            <NetworkSwitch value={network} onChange={setNetwork} />
            {writes && <Button onClick={newInvoice}>New invoice</Button>}
          </>
        }
      />
      {error && <Alert>{error}</Alert>}
      {!data && loading && <Loading what="statistics" />}
      {data && data.totalInvoices === 0 && (
        <Card>
          <div className="space-y-3 py-4 text-center">
            <h2 className="text-lg font-semibold">No invoices on {networkLabel} yet</h2>
            <Muted className="mx-auto max-w-md">
              Start by creating an invoice: add your client and line items, send it, then share the
              payment link. Revenue appears here as soon as it is paid.
            </Muted>
            <div className="flex flex-wrap justify-center gap-3">
              <Button onClick={newInvoice}>Create your first invoice</Button>
              <Link href="/links" className={`${textLinkClass} self-center text-sm`}>
                or create a quick payment link
              </Link>
            </div>
          </div>
        </Card>
      )}
      {data && (
        <>
          <section aria-label="Invoice counts" className="grid grid-cols-3 gap-2 sm:gap-4">
            <Metric label="Invoices" value={String(data.totalInvoices)} />
            <Metric label="Paid" value={String(data.paidInvoices)} />
            <Metric label="Awaiting payment" value={String(data.pendingInvoices)} />
          </section>
          <FiatRevenue revenue={data.revenue} />
          {PRICE_CURRENCIES.some((c) => hasFigures(data.byPriceCurrency[c])) && (
            <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
              {PRICE_CURRENCIES.filter((c) => hasFigures(data.byPriceCurrency[c])).map((c) => (
                <PricedCard key={c} priceCurrency={c} figures={data.byPriceCurrency[c]} />
              ))}
            </div>
          )}
          <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
            {CURRENCIES.map((asset) => (
              <AssetCard key={asset} asset={asset} stats={data} />
            ))}
          </div>
          <LinkRevenue revenue={data.linkRevenue} />
          <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
            <Card title="Recent activity" className="lg:col-span-2">
              {data.recentActivity.length === 0 ? (
                <Muted>
                  Nothing yet. Creating, sending and getting paid for invoices shows up here.
                </Muted>
              ) : (
                <ul className="divide-y divide-slate-200 dark:divide-slate-700">
                  {data.recentActivity.map((a) => (
                    <li
                      key={`${a.invoiceId}-${a.action}-${a.timestamp}`}
                      className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2 text-sm"
                    >
                      <span>
                        <span className="font-medium">{ACTION_LABELS[a.action] ?? a.action}</span>{" "}
                        <Link href={`/invoices/${a.invoiceId}`} className={textLinkClass}>
                          {a.invoiceNumber}
                        </Link>{" "}
                        <span className="text-slate-600 dark:text-slate-300">
                          <Amount value={a.amount} pricing={a} />
                        </span>
                      </span>
                      <time
                        dateTime={a.timestamp}
                        className="text-xs text-slate-500 dark:text-slate-400"
                      >
                        {formatDateTime(a.timestamp)}
                      </time>
                    </li>
                  ))}
                </ul>
              )}
            </Card>
            <Card title="By status">
              <ul className="space-y-2">
                {shownStatusCounts(INVOICE_STATUSES, data.statusBreakdown).map(([s, n]) => (
                  <li key={s} className="flex items-center justify-between text-sm">
                    <StatusBadge status={s} />
                    <span className="font-mono">{n}</span>
                  </li>
                ))}
              </ul>
            </Card>
          </div>
          <ExportPanel network={network} />
        </>
      )}
    </div>
  );
}

function Metric({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm sm:p-4 dark:border-slate-700 dark:bg-slate-900">
      <p className="text-xs text-slate-600 sm:text-sm dark:text-slate-300">{label}</p>
      <p className="mt-1 text-xl font-semibold sm:text-2xl">{value}</p>
    </div>
  );
}

/** The headline: revenue in the reporting currency (GET /api/invoices/stats `revenue`). */
function FiatRevenue({ revenue }: { revenue: InvoiceStats["revenue"] }) {
  return (
    <section
      aria-labelledby="revenue-fiat"
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900"
    >
      <h2 id="revenue-fiat" className="text-base font-semibold">
        Revenue in {revenue.currency}
      </h2>
      <p
        className="mt-2 text-3xl font-semibold [overflow-wrap:anywhere]"
        data-testid="revenue-fiat"
      >
        {formatTrimmed(revenue.amount, revenue.currency)}
      </p>
      <Muted className="mt-1">
        Each payment valued on the day it was received, less refunds. By asset below.
        {revenue.unpriced > 0 &&
          ` ${revenue.unpriced} payment${revenue.unpriced === 1 ? "" : "s"} received before values were kept ${revenue.unpriced === 1 ? "is" : "are"} not included.`}
      </Muted>
    </section>
  );
}

const mono = "font-mono [overflow-wrap:anywhere]";

type Figures = InvoiceStats["byPriceCurrency"][PriceCurrency];
const hasFigures = (f: Figures) => Object.values(f).some((v) => /[1-9]/.test(v));

/**
 * Invoices priced in USD or EUR (GET /api/invoices/stats `byPriceCurrency`): their figures in
 * that currency, never added to an asset's card (docs/decisions.md, Fiat pricing).
 */
function PricedCard({
  priceCurrency,
  figures,
}: {
  priceCurrency: PriceCurrency;
  figures: Figures;
}) {
  const headingId = `priced-${priceCurrency}`;
  const pricing = { currency: priceCurrency, priceCurrency };
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900"
    >
      <h2 id={headingId} className="text-base font-semibold">
        Invoices priced in {priceCurrency}
      </h2>
      <p
        className="mt-2 text-2xl font-semibold [overflow-wrap:anywhere]"
        data-testid={`priced-${priceCurrency}`}
      >
        <Amount value={figures.totalRevenue} pricing={pricing} />
      </p>
      <Muted className="mt-1">
        What their payments counted for, less refunds. The assets received are counted below.
      </Muted>
      <dl className="mt-3 grid grid-cols-3 gap-2 text-sm">
        <Pair label="This month" className={mono}>
          <Amount value={figures.revenueThisMonth} pricing={pricing} />
        </Pair>
        <Pair label="Pending" className={mono}>
          <Amount value={figures.pendingAmount} pricing={pricing} />
        </Pair>
        <Pair label="Average paid" className={mono}>
          <Amount value={figures.avgInvoiceValue} pricing={pricing} />
        </Pair>
      </dl>
    </section>
  );
}

function AssetCard({ asset, stats }: { asset: Currency; stats: InvoiceStats }) {
  const headingId = `revenue-${asset}`;
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900"
    >
      <h2 id={headingId} className="text-base font-semibold">
        {asset} revenue
      </h2>
      <p
        className="mt-2 text-2xl font-semibold [overflow-wrap:anywhere]"
        data-testid={`revenue-${asset}`}
      >
        <Amount value={stats.totalRevenue[asset]} pricing={{ currency: asset }} />
      </p>
      <Muted className="mt-1">
        {asset} received, whatever the invoice was priced in. Pending and average: invoices priced
        in {asset}.
      </Muted>
      <dl className="mt-3 grid grid-cols-3 gap-2 text-sm">
        <Pair label="This month" className={mono}>
          <Amount value={stats.revenueThisMonth[asset]} pricing={{ currency: asset }} bare />
        </Pair>
        <Pair label="Pending" className={mono}>
          <Amount value={stats.pendingAmount[asset]} pricing={{ currency: asset }} bare />
        </Pair>
        <Pair label="Average paid" className={mono}>
          <Amount value={stats.avgInvoiceValue[asset]} pricing={{ currency: asset }} bare />
        </Pair>
      </dl>
      <RevenueChart
        asset={asset}
        months={stats.revenueByMonth.map((m) => ({ month: m.month, amount: m.revenue[asset] }))}
      />
    </section>
  );
}
