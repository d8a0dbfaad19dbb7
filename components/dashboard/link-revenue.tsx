import Link from "next/link";
import { Amount } from "@/components/ui/amount";
import { textLinkClass } from "@/components/ui/button";
import { Muted, Pair } from "@/components/ui/page";
import { CURRENCIES, PRICE_CURRENCIES } from "@/lib/domain/money";
import type { InvoiceStatsBody } from "@/lib/schemas/invoices";

const received = (v: string) => /[1-9]/.test(v);

/**
 * What payment links brought in (GET /api/invoices/stats `linkRevenue`): the assets received
 * and, apart, what fiat-priced links' payments counted for; never added to the invoice
 * figures (docs/decisions.md, Payment links). Shown once a link received something.
 */
export function LinkRevenue({ revenue }: { revenue: InvoiceStatsBody["linkRevenue"] }) {
  const assets = CURRENCIES.filter((c) => received(revenue.totalRevenue[c]));
  const fiat = PRICE_CURRENCIES.filter((c) => received(revenue.byPriceCurrency[c].totalRevenue));
  if (revenue.payments === 0) return null;
  return (
    <section
      aria-labelledby="revenue-links"
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900"
    >
      <h2 id="revenue-links" className="text-base font-semibold">
        Payment link revenue
      </h2>
      <Muted className="mt-1">
        {revenue.payments} payment{revenue.payments === 1 ? "" : "s"} through your{" "}
        <Link href="/links" className={textLinkClass}>
          payment links
        </Link>
        , less refunds; not in the invoice figures above.
      </Muted>
      <dl className="mt-3 grid grid-cols-1 gap-3 text-sm sm:grid-cols-3">
        {assets.map((c) => (
          <Pair key={c} label={`${c} received`} className="font-mono [overflow-wrap:anywhere]">
            <span data-testid={`link-revenue-${c}`}>
              <Amount value={revenue.totalRevenue[c]} pricing={{ currency: c }} />
            </span>
            <span className="block text-xs text-slate-500 dark:text-slate-400">
              <Amount value={revenue.revenueThisMonth[c]} pricing={{ currency: c }} /> this month
            </span>
          </Pair>
        ))}
        {fiat.map((c) => (
          <Pair
            key={c}
            label={`Links priced in ${c}`}
            className="font-mono [overflow-wrap:anywhere]"
          >
            <span data-testid={`link-revenue-${c}`}>
              <Amount
                value={revenue.byPriceCurrency[c].totalRevenue}
                pricing={{ currency: c, priceCurrency: c }}
              />
            </span>
            <span className="block text-xs text-slate-500 dark:text-slate-400">
              <Amount
                value={revenue.byPriceCurrency[c].revenueThisMonth}
                pricing={{ currency: c, priceCurrency: c }}
              />{" "}
              this month
            </span>
          </Pair>
        ))}
      </dl>
    </section>
  );
}
