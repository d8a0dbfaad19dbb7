import Big from "big.js";
import { AMOUNT_SCALE, canonicalAmount, FIAT_SCALE, toStroops } from "./money";

// Fiat pricing (docs/decisions.md, Fiat pricing): an invoice priced in USD or EUR is paid in
// an asset at a locked quote. All of it exact: big.js with half-up rounding, never a float.

const Decimal = Big();
Decimal.DP = 30;
Decimal.RM = Decimal.roundHalfUp;
Decimal.strict = true;

/** A quote as the valuation reads it. */
export type QuoteTerms = {
  /** Fiat per unit of the asset (decimal string). */
  rate: string;
  /** What the quote asks the payer to send (7 decimals). */
  assetAmount: string;
  /** The amount due it covers (2 decimals). */
  fiatAmount: string;
};

/** A fiat amount with 2 decimals ("100.50"), from any decimal string. */
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

/** `amount` of the asset in fiat at `rate`: 2 decimals, half up. */
export const valueAt = (amount: string, rate: string): string =>
  new Decimal(amount).times(rate).round(FIAT_SCALE, Decimal.roundHalfUp).toFixed(FIAT_SCALE);

/**
 * A payment valued at the quote that was live when its ledger closed: the quote's assetAmount
 * is worth exactly its fiatAmount, more is worth the fiat amount plus the extra at the quote's
 * rate, less is worth its share at that rate but never more than the fiat amount.
 */
export function valueAgainstQuote(amount: string, quote: QuoteTerms): string {
  const paid = toStroops(amount);
  const asked = toStroops(quote.assetAmount);
  if (paid >= asked) {
    const extra = new Decimal(amount).minus(quote.assetAmount);
    return new Decimal(quote.fiatAmount)
      .plus(extra.times(quote.rate).round(FIAT_SCALE, Decimal.roundHalfUp))
      .toFixed(FIAT_SCALE);
  }
  const share = new Decimal(valueAt(amount, quote.rate));
  return (share.gt(quote.fiatAmount) ? new Decimal(quote.fiatAmount) : share).toFixed(FIAT_SCALE);
}
