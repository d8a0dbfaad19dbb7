import {
  checkDecimal,
  type DecimalCheck,
  type DecimalSpec,
  fromStroops,
  parseDecimal,
  toStroops,
} from "./money";

// When an invoice is settled (docs/decisions.md, Partial payments): the applied payments add up
// to `amountPaid` (amountDue and amountOverpaid are derived in money.ts), and the invoice is
// PAID once that reaches the total less the tolerance. Compared exactly: stroops times basis
// points, no rounding.

/** The payment tolerance in percent: numeric(5,2), 0 to 5 (default 0). */
export const TOLERANCE_SPEC: DecimalSpec = { precision: 5, scale: 2, min: "zero", max: "5" };

/** Non-throwing check of a tolerance, for zod refinements: the canonical "1.50" or a message. */
export const checkTolerance = (input: unknown, field = "paymentTolerance"): DecimalCheck =>
  checkDecimal(input, TOLERANCE_SPEC, field);

/** A tolerance as stored ("1.50"); throws ValidationError with details[field]. */
export const parseTolerance = (input: unknown, field = "paymentTolerance"): string =>
  parseDecimal(input, TOLERANCE_SPEC, field);

/** "1.50" -> 150n basis points. Exact: the tolerance has at most 2 decimals. */
export function toleranceBasisPoints(tolerance: string | null | undefined): bigint {
  const canonical = parseTolerance(tolerance ?? "0");
  const [units, cents = ""] = canonical.split(".");
  return BigInt(units) * 100n + BigInt(cents.padEnd(2, "0") || "0");
}

/**
 * PAID once amountPaid >= total x (1 - tolerance / 100), i.e. in integers
 * amountPaid x 10000 >= total x (10000 - tolerance in basis points).
 */
export function isPaidInFull(
  amountPaid: string,
  total: string,
  tolerance: string | null | undefined = "0",
): boolean {
  const bp = toleranceBasisPoints(tolerance);
  return toStroops(amountPaid) * 10_000n >= toStroops(total) * (10_000n - bp);
}

/** The smallest amountPaid that settles `total` with `tolerance` (7 decimals, rounded up). */
export function amountSettling(total: string, tolerance: string | null | undefined = "0"): string {
  const need = toStroops(total) * (10_000n - toleranceBasisPoints(tolerance));
  return fromStroops((need + 9_999n) / 10_000n);
}
