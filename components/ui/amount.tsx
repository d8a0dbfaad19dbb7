import {
  formatExact,
  formatPriced,
  formatPricedWithAsset,
  formatTrimmed,
  type Pricing,
} from "@/lib/format";

/**
 * An amount in a list or a summary: trimmed ("2,887.36 USDC", formatTrimmed), the exact
 * 7-decimal amount on hover (title). A fiat-priced invoice's amount is in whole cents already
 * ("1,200.00 EUR"); `withAsset` adds ", paid in XLM".
 */
export function Amount({
  value,
  pricing,
  withAsset = false,
  bare = false,
  className,
}: {
  value: string | null | undefined;
  pricing: Pricing;
  withAsset?: boolean;
  /** The number alone (the code is in a heading nearby; the title keeps it). */
  bare?: boolean;
  className?: string;
}) {
  const text = bare
    ? formatTrimmed(value)
    : withAsset
      ? formatPricedWithAsset(value, pricing, formatTrimmed)
      : formatPriced(value, pricing, formatTrimmed);
  const exact = pricing.priceCurrency || !value ? undefined : formatExact(value, pricing.currency);
  return (
    <span className={className} title={exact}>
      {text}
    </span>
  );
}
