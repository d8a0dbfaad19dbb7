import { isZero, trimZeros } from "@/lib/format";

export type TotalsValues = {
  subtotal: string;
  taxRate: string;
  taxAmount: string;
  discount: string;
  total: string;
};

/**
 * Subtotal, tax, discount and total of an invoice, as `<dt>label</dt><dd>value</dd>` rows.
 * Tax and discount rows show when they are not zero (always with `showAll`); `money` formats
 * an amount with its currency; without `totals` (amounts not computable yet) every value is "—".
 */
export function TotalsList({
  totals,
  money,
  showAll = false,
  className = "",
  valueClassName = "",
  labels,
}: {
  totals: TotalsValues | null;
  money: (amount: string) => string;
  showAll?: boolean;
  className?: string;
  valueClassName?: string;
  /** The rows' words in another language (the checkout, docs/decisions.md, Languages). */
  labels?: { subtotal: string; tax: string; discount: string; total: string };
}) {
  const t = totals;
  const show = (value: (t: TotalsValues) => string) => (t ? value(t) : "—");
  const rows: { label: string; value: string; strong?: boolean }[] = [
    { label: labels?.subtotal ?? "Subtotal", value: show((t) => money(t.subtotal)) },
  ];
  if (showAll || (t && (!isZero(t.taxRate) || !isZero(t.taxAmount)))) {
    const label =
      labels?.tax ?? (t && !isZero(t.taxRate) ? `Tax (${trimZeros(t.taxRate)}%)` : "Tax");
    rows.push({ label, value: show((t) => money(t.taxAmount)) });
  }
  if (showAll || (t && !isZero(t.discount))) {
    const value = show((t) => `${isZero(t.discount) ? "" : "−"}${money(t.discount)}`);
    rows.push({ label: labels?.discount ?? "Discount", value });
  }
  rows.push({ label: labels?.total ?? "Total", value: show((t) => money(t.total)), strong: true });
  return (
    <dl className={`space-y-1 text-sm ${className}`}>
      {rows.map((r) => (
        <div
          key={r.label}
          className={`flex justify-between gap-4 ${r.strong ? "border-t border-slate-200 pt-2 text-base font-semibold dark:border-slate-700" : ""}`}
        >
          <dt>{r.label}</dt>
          <dd className={`text-right ${valueClassName}`}>{r.value}</dd>
        </div>
      ))}
    </dl>
  );
}
