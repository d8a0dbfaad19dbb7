import { ValidationError } from "./errors";

// Invoice numbers double as the Stellar text memo that ties a payment to its
// invoice (decisions.md "Invoice numbers"). A text memo holds 28 bytes, and
// "INV-" plus 24 ASCII characters is exactly that.

export const INVOICE_NUMBER_PREFIX = "INV-";
export const INVOICE_NUMBER_PATTERN = /^INV-[A-Za-z0-9-]{1,24}$/;
const MAX_SUFFIX_LENGTH = 24;
const MIN_DIGITS = 4;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A Postgres sequence value -> "INV-0001" ... "INV-9999", "INV-10000".
 * The sequence is global, so numbers are unique across freelancers.
 */
export function formatInvoiceNumber(sequence: bigint | number): string {
  if (typeof sequence === "number" && !Number.isSafeInteger(sequence)) {
    throw new RangeError(`Invoice sequence must be a safe integer, got ${sequence}`);
  }
  const value = BigInt(sequence);
  if (value < 1n) throw new RangeError(`Invoice sequence must be positive, got ${value}`);
  const digits = value.toString().padStart(MIN_DIGITS, "0");
  // A programming or sequence error, not user input: it could never be a memo.
  if (digits.length > MAX_SUFFIX_LENGTH) {
    throw new RangeError(`Invoice sequence ${value} does not fit a text memo`);
  }
  return `${INVOICE_NUMBER_PREFIX}${digits}`;
}

export function isValidInvoiceNumber(value: unknown): value is string {
  return typeof value === "string" && INVOICE_NUMBER_PATTERN.test(value);
}

export const INVALID_INVOICE_NUMBER_MESSAGE =
  "invoiceNumber must be INV- followed by 1 to 24 letters, digits or hyphens";

/** For a supplied invoiceNumber; uniqueness (409) is the database's job. */
export function validateInvoiceNumber(value: unknown): string {
  if (!isValidInvoiceNumber(value)) {
    throw new ValidationError(INVALID_INVOICE_NUMBER_MESSAGE, {
      invoiceNumber: INVALID_INVOICE_NUMBER_MESSAGE,
    });
  }
  return value;
}

/**
 * A due date is a UTC calendar date; it ends at 00:00 UTC of the next day.
 * Any time-of-day part of `dueDate` is ignored.
 */
export function dueDateExpiresAt(dueDate: Date): Date {
  const time = dueDate.getTime();
  if (Number.isNaN(time)) throw new RangeError("dueDate is not a valid date");
  const startOfDay = Date.UTC(
    dueDate.getUTCFullYear(),
    dueDate.getUTCMonth(),
    dueDate.getUTCDate(),
  );
  return new Date(startOfDay + DAY_MS);
}

/** True from the first millisecond after the due date's UTC day; never without a due date. */
export function isExpired(dueDate: Date | null | undefined, now: Date): boolean {
  if (dueDate == null) return false;
  return now.getTime() >= dueDateExpiresAt(dueDate).getTime();
}
