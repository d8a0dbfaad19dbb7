/**
 * Amounts on Stellar are int64 counts of stroops (1 XLM = 10^7 stroops). Everything in the
 * local ledger uses BigInt stroops; strings like "10.5000000" only appear at the edges.
 */

export const STROOPS_PER_UNIT = 10_000_000n;
export const INT64_MAX = 9_223_372_036_854_775_807n;

const AMOUNT_RE = /^(-?)(\d+)(?:\.(\d{1,7}))?$/;

/** Parses a decimal amount ("12", "12.5", "0.0000001") into stroops. Throws on bad input. */
export function toStroops(amount: string): bigint {
  const m = AMOUNT_RE.exec(amount.trim());
  if (!m) throw new Error(`invalid amount: ${amount}`);
  const [, sign, whole, frac = ""] = m;
  const value = BigInt(whole) * STROOPS_PER_UNIT + BigInt(frac.padEnd(7, "0"));
  return sign === "-" ? -value : value;
}

/** Formats stroops as Horizon does: always exactly 7 decimals ("10000.0000000"). */
export function formatStroops(stroops: bigint): string {
  const negative = stroops < 0n;
  const abs = negative ? -stroops : stroops;
  const whole = abs / STROOPS_PER_UNIT;
  const frac = (abs % STROOPS_PER_UNIT).toString().padStart(7, "0");
  return `${negative ? "-" : ""}${whole}.${frac}`;
}

/** a * b / c rounded down (all non-negative). */
export function mulDivFloor(a: bigint, b: bigint, c: bigint): bigint {
  return (a * b) / c;
}

/** a * b / c rounded up (all non-negative). */
export function mulDivCeil(a: bigint, b: bigint, c: bigint): bigint {
  return (a * b + c - 1n) / c;
}

export function bigMin(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

export function bigMax(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
