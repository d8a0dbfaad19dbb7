import { payableTotal } from "./credit-note";
import {
  AMOUNT_SCALE,
  amountDue,
  canonicalAmount,
  Decimal,
  FIAT_SCALE,
  type PriceCurrency,
  toStroops,
} from "./money";

// Fiat pricing (docs/decisions.md, Fiat pricing): an invoice priced in USD or EUR is paid in
// an asset at a locked quote. All of it exact: big.js with half-up rounding, never a float.

/**
 * The default currency of the books: payments' fiatValue and the revenue headline
 * (docs/decisions.md, Fiat pricing) for a wallet whose profile does not choose EUR (Profile).
 */
export const REPORTING_CURRENCY = "USD" satisfies PriceCurrency;

/** How long a quote holds when the invoice or link does not say (minutes). */
export const DEFAULT_QUOTE_TTL_MINUTES = 15;

/** A quote as the valuation reads it. */
export type QuoteTerms = {
  /** Fiat per unit of the asset (decimal string). */
  rate: string;
  /** What the quote asks the payer to send (7 decimals). */
  assetAmount: string;
  /** The amount due it covers (2 decimals). */
  fiatAmount: string;
};

/**
 * A fiat amount with 2 decimals ("100.50"), from any decimal string: **the one rounding of a
 * fiat figure for display and export**, half up to the currency's cents (USD and EUR have 2).
 * `amountPaid` is kept to 7 decimals (values are never rounded per payment), so wherever a
 * fiat amount is shown or exported (pages, emails, PDF, CSV, the audit timeline) it goes
 * through here: "4681.4218519" is "4681.42", never above the total it settles
 * (docs/decisions.md, Fiat pricing: figures shown). Crypto amounts keep their 7 places.
 */
export const fiat2 = (value: string): string =>
  new Decimal(value).round(FIAT_SCALE, Decimal.roundHalfUp).toFixed(FIAT_SCALE);

/**
 * The asset amount a quote asks for `fiatAmount` at `rate`: rounded **up** to the stroop, so
 * that paying it exactly is worth at least the fiat amount (a payment matching the quote can
 * never fall short by a cent).
 */
export function quoteAssetAmount(fiatAmount: string, rate: string): string {
  const exact = new Decimal(fiatAmount).div(rate);
  const up = exact.round(AMOUNT_SCALE, Decimal.roundUp);
  return canonicalAmount(up.toFixed(AMOUNT_SCALE));
}

/** `amount` of the asset in fiat at `rate`, for the books: 2 decimals, half up. */
export const valueAt = (amount: string, rate: string): string =>
  new Decimal(amount).times(rate).round(FIAT_SCALE, Decimal.roundHalfUp).toFixed(FIAT_SCALE);

/**
 * `amount` of the asset in fiat at `rate` as it counts towards an invoice: 7 decimals, half
 * up. Never rounded to the cent per payment: a hundred payments of half a cent would
 * otherwise count as a dollar (docs/decisions.md, Fiat pricing).
 */
export const exactValueAt = (amount: string, rate: string): string =>
  new Decimal(amount).times(rate).round(AMOUNT_SCALE, Decimal.roundHalfUp).toFixed(AMOUNT_SCALE);

/**
 * A payment valued at the quote that was live when its ledger closed (7 decimals): the
 * quote's assetAmount is worth exactly its fiatAmount, more is worth the fiat amount plus the
 * extra at the quote's rate, less is worth its share at that rate but never more than the
 * fiat amount.
 */
export function valueAgainstQuote(amount: string, quote: QuoteTerms): string {
  const paid = toStroops(amount);
  const asked = toStroops(quote.assetAmount);
  if (paid >= asked) {
    const extra = new Decimal(amount).minus(quote.assetAmount);
    return new Decimal(quote.fiatAmount)
      .plus(exactValueAt(extra.toFixed(AMOUNT_SCALE), quote.rate))
      .toFixed(AMOUNT_SCALE);
  }
  const share = new Decimal(exactValueAt(amount, quote.rate));
  return (share.gt(quote.fiatAmount) ? new Decimal(quote.fiatAmount) : share).toFixed(AMOUNT_SCALE);
}

/**
 * A fiat invoice is settled in cents: amountPaid (a sum of 7-decimal values) compared after
 * rounding half up to the cent, so values that add up to the amount due in cents pay it.
 */
export const settledInCents = (amountPaid: string): string =>
  new Decimal(amountPaid).round(FIAT_SCALE, Decimal.roundHalfUp).toFixed(AMOUNT_SCALE);

/** What amountPaid counts for against the total: in cents when priced in fiat. */
export const paidTowardsTotal = (amountPaid: string, priceCurrency: string | null): string =>
  priceCurrency ? settledInCents(amountPaid) : amountPaid;

/**
 * What is left to pay: the total less what credit notes took off it (payableTotal,
 * lib/domain/credit-note.ts) less amountPaid as the settlement counts it (in cents when
 * priced in fiat), never below 0. A fiat invoice paid within half a cent owes 0, not
 * 0.0050000 (docs/decisions.md, Fiat pricing). Everywhere an invoice's amountDue is shown.
 */
export const invoiceAmountDue = (invoice: {
  total: string;
  amountPaid: string;
  priceCurrency: string | null;
  /** What credit notes took off (docs/decisions.md, Credit notes): pass it wherever it is read. */
  amountCredited?: string | null;
}): string =>
  amountDue(payableTotal(invoice), paidTowardsTotal(invoice.amountPaid, invoice.priceCurrency));

/**
 * A fiat figure as exported beside the 7-decimal amounts: rounded to the cent (fiat2), written
 * with 7 decimals ("4681.4218519" -> "4681.4200000"); an asset amount unchanged.
 */
export const shownAmount = (value: string, priceCurrency: string | null): string =>
  priceCurrency ? new Decimal(fiat2(value)).toFixed(AMOUNT_SCALE) : canonicalAmount(value);

/** The code an invoice's amounts (total, amountPaid, amountDue) are in: its price currency, else the asset. */
export const amountUnit = (invoice: { currency: string; priceCurrency: string | null }): string =>
  invoice.priceCurrency ?? invoice.currency;
