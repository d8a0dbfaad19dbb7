import { formatExact, formatPricedWithAsset, formatTrimmed, type Pricing } from "@/lib/format";
import type { PaymentLinkBody } from "@/lib/schemas/links";

/** How a link's amounts are priced: its price currency when set, else its asset. */
export const pricingOf = (l: PaymentLinkBody): Pricing => ({
  currency: l.asset,
  priceCurrency: l.priceCurrency,
});

/** Trimmed like every list (docs/decisions.md, Phone layout); the exact amount is the title. */
export const priced = (amount: string, l: PaymentLinkBody) =>
  formatPricedWithAsset(amount, pricingOf(l), formatTrimmed);

export const exactOf = (amount: string | null, l: PaymentLinkBody) =>
  amount && !l.priceCurrency ? formatExact(amount, l.asset) : undefined;

/**
 * "100.00 EUR, paid in XLM" for a fiat-priced link, "100.00 XLM" otherwise; an open amount
 * is the payer's choice, "at least" its minimum.
 */
export const linkAmount = (l: PaymentLinkBody) => {
  if (l.amount !== null) return priced(l.amount, l);
  return l.minAmount ? `Payer chooses, at least ${priced(l.minAmount, l)}` : "Payer chooses";
};

/** "2 of 5", "3 (unlimited)" or "0 of 1". */
export const linkPayments = (l: PaymentLinkBody) =>
  `${l.paymentsCount} ${l.maxPayments === null ? "(unlimited)" : `of ${l.maxPayments}`}`;

/** The status a screen shows: a deactivated active link is "Deactivated". */
export const shownLinkStatus = (l: PaymentLinkBody) =>
  l.deactivatedAt && l.status === "ACTIVE" ? "DEACTIVATED" : l.status;
