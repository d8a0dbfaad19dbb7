import { ValidationError } from "./errors";
import { invoiceAmountDue } from "./fiat";
import { FIAT_SCALE, toStroops, trimAmount } from "./money";

// Payments received outside Stellar (docs/decisions.md, Payments received outside Stellar):
// a bank transfer, cash or another way the owner records by hand. They count towards
// amountPaid like an applied ledger payment (the one rule of record-payment.ts), never move
// anything on a ledger, and are never refunded through Stellar.

/** How a payment recorded by hand was received. */
export const MANUAL_PAYMENT_METHODS = ["bank_transfer", "cash", "other"] as const;
export type ManualPaymentMethod = (typeof MANUAL_PAYMENT_METHODS)[number];
/** Every way a payment is recorded: `stellar` (a ledger operation) or one of those above. */
export const PAYMENT_METHODS = ["stellar", ...MANUAL_PAYMENT_METHODS] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** The longest reference kept (a bank reference, a receipt number, a note). */
export const REFERENCE_MAX = 140;

export const RECEIVED_ON_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
export const INVALID_RECEIVED_ON = "must be a date (YYYY-MM-DD)";
export const RECEIVED_ON_IN_FUTURE = "must not be in the future";
export const MANUAL_AMOUNT_CENTS = "must have at most 2 decimals for an invoice priced in fiat";
export const MANUAL_OVERPAYMENT = "Amount exceeds the amount due";
export const MANUAL_PAYMENT_LINK =
  "Payments received outside Stellar are recorded on invoices, not payment links";
export const NOT_REFUNDABLE_OFF_LEDGER =
  "A payment received outside Stellar cannot be refunded through Stellar";
export const ONLY_MANUAL_VOIDED = "Only a payment recorded by hand can be voided";
export const ALREADY_VOIDED = "Payment already voided";
export const VOID_PAID_INVOICE =
  "A payment on a PAID invoice cannot be voided: the invoice stays paid";

/** The latest offset in use (UTC+14): a date is in the future until it has begun there. */
const LATEST_OFFSET_MS = 14 * 60 * 60 * 1000;

/**
 * A received-on date `YYYY-MM-DD` -> 00:00 UTC of that date; null when it is not a real
 * calendar date.
 */
export function parseReceivedOn(value: string): Date | null {
  if (!RECEIVED_ON_PATTERN.test(value)) return null;
  const d = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value) return null;
  return d;
}

/**
 * True when no place on Earth has reached `receivedOn` yet at `now`: the owner's own date is
 * accepted wherever they are (a freelancer at UTC+10 records "today" before UTC has reached it).
 */
export const isFutureDate = (receivedOn: Date, now: Date): boolean =>
  receivedOn.getTime() - LATEST_OFFSET_MS > now.getTime();

/** 400 `receivedOn` unless the date has begun somewhere. */
export function assertReceivedOnNotFuture(receivedOn: Date, now: Date): void {
  if (isFutureDate(receivedOn, now)) {
    throw new ValidationError("Invalid request", { receivedOn: RECEIVED_ON_IN_FUTURE });
  }
}

/**
 * The amount as it counts, checked against the invoice: a fiat-priced invoice's payment is in
 * whole cents, and no payment recorded by hand takes amountPaid past the total (the decision
 * in docs/decisions.md: partial manual payments yes, overpayment never; what an over-payment
 * really was is the owner's to record correctly). `amount` is canonical (7 decimals).
 */
export function assertManualAmountFits(
  amount: string,
  invoice: {
    total: string;
    amountPaid: string;
    priceCurrency: string | null;
    amountCredited?: string | null;
  },
): void {
  if (invoice.priceCurrency && toStroops(amount) % 10n ** BigInt(7 - FIAT_SCALE) !== 0n) {
    throw new ValidationError("Invalid request", { amount: MANUAL_AMOUNT_CENTS });
  }
  // The amount due as shown (in cents when priced in fiat: lib/domain/fiat.ts).
  const due = invoiceAmountDue(invoice);
  if (toStroops(amount) > toStroops(due)) {
    throw new ValidationError(MANUAL_OVERPAYMENT, {
      amount: `must be at most ${trimAmount(due)}, the amount due`,
    });
  }
}
