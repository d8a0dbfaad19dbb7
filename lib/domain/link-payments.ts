// Reusable and open-amount payment links (docs/decisions.md, Payment links): pure rules.
import { ValidationError } from "./errors";
import {
  AMOUNT_SPEC,
  compareAmounts,
  FIAT_SCALE,
  parseDecimal,
  toStroops,
  trimAmount,
} from "./money";

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

/** A checkout that received money (paid, or paid in part) holds its link's place for good. */
export const hasReceived = (row: { status: string; amountPaid: string }) =>
  row.status === "PAID" || toStroops(row.amountPaid) > 0n;

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

/**
 * A checkout's memo: its link's number and the checkout's place in the link's own series
 * (`INV-0042-1`, `INV-0042-2`, ...), so that checkouts never use the freelancer's invoice
 * numbers (docs/decisions.md, Payment links). Within the 28 bytes of a text memo.
 */
export function checkoutNumber(linkNumber: string, sequence: number): string {
  if (!Number.isSafeInteger(sequence) || sequence < 1) {
    throw new RangeError(`Checkout sequence must be a positive integer, got ${sequence}`);
  }
  const number = `${linkNumber}-${sequence}`;
  if (number.length > 28) throw new RangeError(`Checkout number ${number} does not fit a memo`);
  return number;
}

/**
 * Until when a payer's commitment (pay-intent with a sender) holds the checkout's place: the
 * checkout's own expiry, or later while the transaction just built can still land (its time
 * bound, or a quote's), and never earlier than a hold it already has.
 */
export function holdUntil(
  checkoutExpiresAt: Date | null,
  transactionValidUntil: Date,
  heldUntil: Date | null,
): Date {
  const times = [checkoutExpiresAt, transactionValidUntil, heldUntil].flatMap((t) =>
    t ? [t.getTime()] : [],
  );
  return new Date(Math.max(...times));
}

/** What the other checkouts of a limited link take when a payment to one checkout lands. */
export type Places = {
  /** The link's payments in all (`paymentLimit`). */
  limit: number;
  /** Other checkouts that received money: each holds its place for good. */
  othersReceived: number;
  /** Other checkouts whose payer committed and whose hold has not lapsed. */
  othersHeld: number;
  /** This checkout's hold covered the payment (its ledger time was within the hold). */
  held: boolean;
};

/**
 * Whether a payment to a checkout that has received nothing yet may count (docs/decisions.md,
 * Payment links, Places): never past the link's limit; its own hold when it had one at the
 * payment's time; otherwise a place nobody else holds. False: recorded unapplied `link_full`.
 */
export function paymentTakesPlace(p: Places): boolean {
  if (p.othersReceived >= p.limit) return false;
  if (p.held) return true;
  return p.othersReceived + p.othersHeld < p.limit;
}
