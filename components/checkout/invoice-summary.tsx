import type { ReactNode } from "react";
import { TotalsList } from "@/components/ui/totals";
import { formatGrouped, formatMoney, formatPriced, isZero, trimZeros } from "@/lib/format";
import { type Language, translator } from "@/lib/i18n";
import { localizeAmount, localizeNumber } from "@/lib/i18n/format";

/** Server-rendered: who is paid, what for, line items and totals. No client JavaScript. */

/** The fields of the public invoice (or link) the summary shows. */
export type SummaryInvoice = {
  kind: "INVOICE" | "LINK";
  invoiceNumber: string;
  freelancerName: string | null;
  freelancerCompany: string | null;
  freelancerWallet: string;
  clientName: string | null;
  description: string | null;
  linkReference: string | null;
  currency: string;
  /** USD or EUR when the invoice is priced in fiat: its amounts are in it. */
  priceCurrency: string | null;
  lineItems: { id: string; description: string; quantity: string; rate: string; amount: string }[];
  subtotal: string;
  taxRate: string;
  taxAmount: string;
  discount: string;
  total: string;
};

/** The parties' tax ids as the invoice prints them ("VAT: DE136695976"), when they have one. */
export type SummaryTaxIds = { seller: string | null; buyer: string | null };

const label = "text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-300";
const wrapped = "mt-1 block break-all font-mono text-xs text-slate-700 dark:text-slate-300";

export function InvoiceSummary({
  invoice: p,
  assetIssuer,
  networkLabel,
  taxIds,
  lang = "en",
}: {
  invoice: SummaryInvoice;
  assetIssuer: string | null;
  networkLabel: string;
  taxIds?: SummaryTaxIds;
  /** The invoice's language (docs/decisions.md, Languages). */
  lang?: Language;
}) {
  const link = p.kind === "LINK";
  const tr = translator(lang);
  const money = (amount: string) => localizeAmount(formatPriced(amount, p, formatMoney), lang);
  return (
    <section
      aria-labelledby="details-heading"
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900"
    >
      <h2 id="details-heading" className="text-base font-semibold">
        {link ? tr("checkout.paymentDetails") : tr("checkout.invoiceDetails")}
      </h2>

      <dl className="mt-4 grid gap-4 text-sm sm:grid-cols-2">
        <Item label={tr("checkout.payTo")} wide>
          {p.freelancerName && <span className="block font-medium">{p.freelancerName}</span>}
          {p.freelancerCompany && <span className="block">{p.freelancerCompany}</span>}
          {taxIds?.seller && <span className="block">{taxIds.seller}</span>}
          <span className={wrapped}>
            <span className="sr-only">Wallet </span>
            {p.freelancerWallet}
          </span>
        </Item>
        {p.clientName && !link && (
          <Item label={tr("checkout.billedTo")} className="font-medium">
            {p.clientName}
            {taxIds?.buyer && <span className="block font-normal">{taxIds.buyer}</span>}
          </Item>
        )}
        <Item
          label={link ? tr("checkout.reference") : tr("checkout.invoiceNumber")}
          className="font-mono"
        >
          {(link ? p.linkReference : null) ?? p.invoiceNumber}
        </Item>
        <Item label={tr("checkout.assetNetwork")} wide>
          {lang === "en" ? (
            <>
              {p.priceCurrency && `Priced in ${p.priceCurrency}, paid in `}
              {p.currency} on the {networkLabel}
            </>
          ) : p.priceCurrency ? (
            tr("checkout.pricedIn", {
              currency: p.priceCurrency,
              asset: p.currency,
              network: networkLabel,
            })
          ) : (
            tr("checkout.paidIn", { asset: p.currency, network: networkLabel })
          )}
          {assetIssuer && (
            // The issuer's address only for whoever asks (issue 28: no jargon by default).
            <details className="mt-1 text-xs" data-testid="asset-details">
              <summary className="cursor-pointer text-slate-600 underline-offset-2 hover:underline dark:text-slate-300">
                {tr("checkout.assetDetails")}
              </summary>
              <span className="mt-1 block text-slate-700 dark:text-slate-300">
                {p.currency} is issued on the Stellar network by the account
              </span>
              <span className={wrapped}>{assetIssuer}</span>
            </details>
          )}
        </Item>
      </dl>

      {p.description && (
        <div className="mt-4 text-sm">
          <h3 className={label}>{tr("checkout.description")}</h3>
          <p className="mt-1 whitespace-pre-line text-slate-800 dark:text-slate-200">
            {p.description}
          </p>
        </div>
      )}

      {!link && p.lineItems.length > 0 && <LineItems items={p.lineItems} lang={lang} />}

      <section aria-label="Totals" className="mt-4">
        {lang === "en" ? (
          <TotalsList totals={p} money={money} className="ml-auto max-w-xs" />
        ) : (
          <TotalsList
            totals={p}
            money={money}
            className="ml-auto max-w-xs"
            labels={{
              subtotal: tr("checkout.subtotal"),
              tax: isZero(p.taxRate)
                ? tr("checkout.tax")
                : tr("checkout.taxRate", { rate: localizeNumber(trimZeros(p.taxRate), lang) }),
              discount: tr("checkout.discount"),
              total: tr("checkout.total"),
            }}
          />
        )}
      </section>
    </section>
  );
}

function Item({
  label: text,
  wide = false,
  className = "",
  children,
}: {
  label: string;
  wide?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={wide ? "min-w-0" : undefined}>
      <dt className={label}>{text}</dt>
      <dd className={`mt-1 [overflow-wrap:anywhere] ${className}`}>{children}</dd>
    </div>
  );
}

const hideOnPhone = "hidden py-2 pr-2 text-right sm:table-cell";

function LineItems({ items, lang }: { items: SummaryInvoice["lineItems"]; lang: Language }) {
  const tr = translator(lang);
  const n = (value: string, min?: number) => localizeNumber(formatGrouped(value, min), lang);
  return (
    <table className="mt-6 w-full text-left text-sm">
      <caption className="sr-only">Line items</caption>
      <thead>
        <tr className="border-b border-slate-200 text-slate-600 dark:border-slate-700 dark:text-slate-300">
          <th scope="col" className="py-2 pr-2 font-medium">
            {tr("checkout.item")}
          </th>
          <th scope="col" className={`${hideOnPhone} font-medium`}>
            {tr("checkout.quantity")}
          </th>
          <th scope="col" className={`${hideOnPhone} font-medium`}>
            {tr("checkout.rate")}
          </th>
          <th scope="col" className="py-2 text-right font-medium">
            {tr("checkout.amount")}
          </th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.id} className="border-b border-slate-100 dark:border-slate-800">
            <td className="py-2 pr-2 align-top">
              {item.description}
              <span className="block text-xs text-slate-600 sm:hidden dark:text-slate-300">
                {n(item.quantity, 0)} × {n(item.rate)}
              </span>
            </td>
            <td className={`${hideOnPhone} align-top`}>{n(item.quantity, 0)}</td>
            <td className={`${hideOnPhone} align-top`}>{n(item.rate)}</td>
            <td className="py-2 text-right align-top">{n(item.amount)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
