// Reusable and open-amount payment links (docs/decisions.md, Payment links): pure rules.
import { ValidationError } from "./errors";
import { AMOUNT_SPEC, compareAmounts, FIAT_SCALE, parseDecimal, trimAmount } from "./money";

/** The most payments a reusable link may be limited to (more: leave it unlimited). */
export const MAX_LINK_PAYMENTS = 10_000;
/** How long a payer's checkout holds its place (and its memo) before it expires unpaid. */
export const CHECKOUT_TTL_MS = 30 * 60_000;

export type LinkShape = {
  linkReusable: boolean;
  linkOpenAmount: boolean;
  linkMaxPayments: number | null;
  linkMinAmount: string | null;
  priceCurrency: string | null;
  activateNewAccounts?: boolean;
};

/** A reusable or open-amount link is never paid itself: each payer starts a checkout. */
export const takesCheckouts = (link: Pick<LinkShape, "linkReusable" | "linkOpenAmount">) =>
  link.linkReusable || link.linkOpenAmount;

/** Payments a link accepts in all: 1 unless reusable; null for unlimited. */
export const paymentLimit = (link: Pick<LinkShape, "linkReusable" | "linkMaxPayments">) =>
  link.linkReusable ? link.linkMaxPayments : 1;

/** An amount in the link's unit: 2 decimals when priced in fiat, else the asset's 7. */
export function parseLinkAmount(
  input: unknown,
  priceCurrency: string | null,
  field: string,
): string {
  const scale = priceCurrency ? FIAT_SCALE : AMOUNT_SPEC.scale;
  // Checked at the unit's precision, written with 7 decimals as numeric(18,7) holds it.
  const value = parseDecimal(input, { ...AMOUNT_SPEC, scale }, field);
  return parseDecimal(value, AMOUNT_SPEC, field);
}

export const CHECKOUT_AMOUNT_REQUIRED = "amount is required: this link lets the payer choose it";
export const CHECKOUT_AMOUNT_FIXED = "amount is set by the link";

/** The amount of a checkout: the payer's (open amount, at least the minimum) or the link's. */
export function checkoutAmount(link: LinkShape & { total: string }, input: unknown): string {
  if (!link.linkOpenAmount) {
    if (input !== undefined) {
      throw new ValidationError("Invalid request", { amount: CHECKOUT_AMOUNT_FIXED });
    }
    return link.total;
  }
  if (input === undefined) {
    throw new ValidationError("Invalid request", { amount: CHECKOUT_AMOUNT_REQUIRED });
  }
  const amount = parseLinkAmount(input, link.priceCurrency, "amount");
  if (link.linkMinAmount && compareAmounts(amount, link.linkMinAmount) < 0) {
    throw new ValidationError("Invalid request", {
      amount: `must be at least ${trimAmount(link.linkMinAmount)}`,
    });
  }
  if (link.activateNewAccounts && compareAmounts(amount, "1") < 0) {
    throw new ValidationError("Invalid request", {
      amount: "must be at least 1 XLM to activate an account",
    });
  }
  return amount;
}
