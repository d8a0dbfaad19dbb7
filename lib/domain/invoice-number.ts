import { ValidationError } from "./errors";

// Invoice numbers double as the Stellar text memo that ties a payment to its
// invoice (docs/decisions.md "Invoice numbers"). A text memo holds 28 bytes, and
// "INV-" plus 24 ASCII characters is exactly that.

export const INVOICE_NUMBER_PREFIX = "INV-";
export const INVOICE_NUMBER_PATTERN = /^INV-[A-Za-z0-9-]{1,24}$/;
const MAX_SUFFIX_LENGTH = 24;
const MIN_DIGITS = 4;

/**
 * A wallet's counter value -> "INV-0001" ... "INV-9999", "INV-10000". Each wallet counts on
 * its own (docs/decisions.md, Invoice numbers): two freelancers both have an INV-0001.
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

/** The counter value a generated number was made from (INV-0042 -> 42n); null for others. */
export function generatedSequenceOf(invoiceNumber: string): bigint | null {
  const match = /^INV-(\d{4,24})$/.exec(invoiceNumber);
  if (!match) return null;
  const value = BigInt(match[1]);
  return value >= 1n && formatInvoiceNumber(value) === invoiceNumber ? value : null;
}

/**
 * The first counter value from `from` on whose generated number is not in `taken` (the
 * wallet's numbers that look generated, e.g. ones it supplied itself).
 */
export function firstFreeSequence(from: bigint, taken: Iterable<string>): bigint {
  const used = new Set<bigint>();
  for (const n of taken) {
    const value = generatedSequenceOf(n);
    if (value !== null && value >= from) used.add(value);
  }
  let value = from;
  while (used.has(value)) value++;
  return value;
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
