import Big from "big.js";
import { type ErrorDetails, ValidationError } from "./errors";

// Money rules (docs/decisions.md "Money"). Amounts are exact decimals: Big in memory,
// stroops (bigint) for ledger comparisons, decimal strings on the wire and
// numeric(18,7) in Postgres. No JavaScript float ever holds an amount; the one
// exception is formatForFormA, which produces the JSON number Form A requires.

// A private Big constructor: our settings never leak into, or depend on, the
// global Big that other code may configure. `strict` makes `new Decimal(0.1)`
// throw, so a float cannot slip in by accident.
// Shared by the other money modules (lib/domain/fiat.ts, refund.ts): one set of settings.
// DP is the precision of a division before its result is rounded to its scale.
export const Decimal = Big();
Decimal.DP = 30;
Decimal.RM = Decimal.roundHalfUp;
Decimal.strict = true;

export const CURRENCIES = ["XLM", "USDC", "EURC"] as const;
export type Currency = (typeof CURRENCIES)[number];
/** Fiat currencies an invoice may be priced in (docs/decisions.md, Fiat pricing). */
export const PRICE_CURRENCIES = ["USD", "EUR"] as const;
export type PriceCurrency = (typeof PRICE_CURRENCIES)[number];

/** Form A sends JSON numbers, Form B decimal strings. */
export type DecimalInput = string | number;

export type DecimalSpec = {
  /** Total significant digits, as in numeric(precision, scale). */
  precision: number;
  /** Digits after the decimal point; more are rejected, never rounded. */
  scale: number;
  /** "positive": must be > 0; "zero": must be >= 0. */
  min: "positive" | "zero";
  /** Inclusive upper bound as a decimal string, if any. */
  max?: string;
};

/** An invoice or link amount: numeric(18,7), > 0. */
export const AMOUNT_SPEC: DecimalSpec = { precision: 18, scale: 7, min: "positive" };
/** A line-item rate: numeric(18,7), >= 0 (Form A: rate >= 0). */
export const RATE_SPEC: DecimalSpec = { precision: 18, scale: 7, min: "zero" };
/** A discount is an amount, not a percent: numeric(18,7), >= 0. */
export const DISCOUNT_SPEC: DecimalSpec = { precision: 18, scale: 7, min: "zero" };
/** A line-item quantity: numeric(10,2), > 0. */
export const QUANTITY_SPEC: DecimalSpec = { precision: 10, scale: 2, min: "positive" };
/** A tax rate in percent: numeric(5,2), 0 to 100. */
export const TAX_RATE_SPEC: DecimalSpec = { precision: 5, scale: 2, min: "zero", max: "100" };

export const AMOUNT_SCALE = 7;
export const STROOPS_PER_UNIT = 10_000_000n;
/** Largest value numeric(18,7) can hold. */
export const MAX_AMOUNT = "99999999999.9999999";

// Plain decimal notation only for strings: Postgres and Horizon both speak it,
// and an exponent in a hand-written amount is far more likely a bug than intent.
const DECIMAL_STRING = /^-?\d+(\.\d+)?$/;
// Generous bound that stops absurd inputs before they reach Big.
const MAX_INPUT_LENGTH = 64;

export type DecimalCheck = { ok: true; value: string } | { ok: false; message: string };

function toDecimal(input: unknown): Big | null {
  if (typeof input === "string") {
    if (input.length > MAX_INPUT_LENGTH || !DECIMAL_STRING.test(input)) return null;
    return new Decimal(input);
  }
  if (typeof input === "number") {
    // String(n) is the shortest string that round-trips to n, so 0.1 stays
    // "0.1" while 0.1 + 0.2 becomes "0.30000000000000004" and is rejected for
    // its decimals. It may use exponent form ("1e-7", "1e+21"); Big parses both.
    if (!Number.isFinite(input)) return null;
    return new Decimal(String(input));
  }
  return null;
}

// Counts are taken from the value, not the text: "1.50000000" has one decimal.
// Trailing zeros round nothing away, so they are accepted.
function decimalPlaces(x: Big): number {
  return Math.max(0, x.c.length - x.e - 1);
}

function integerDigits(x: Big): number {
  if (x.c[0] === 0) return 0;
  return Math.max(0, x.e + 1);
}

function fits(x: Big, spec: Pick<DecimalSpec, "precision" | "scale">): boolean {
  return decimalPlaces(x) <= spec.scale && integerDigits(x) <= spec.precision - spec.scale;
}

function checkToDecimal(
  input: unknown,
  spec: DecimalSpec,
  field: string,
): { ok: true; value: Big } | { ok: false; message: string } {
  const x = toDecimal(input);
  if (x === null) return { ok: false, message: `${field} must be a decimal number` };
  if (spec.min === "positive" ? x.lte("0") : x.lt("0")) {
    const rule = spec.min === "positive" ? "must be greater than 0" : "must not be negative";
    return { ok: false, message: `${field} ${rule}` };
  }
  if (decimalPlaces(x) > spec.scale) {
    return { ok: false, message: `${field} must have at most ${spec.scale} decimal places` };
  }
  const maxIntegerDigits = spec.precision - spec.scale;
  if (integerDigits(x) > maxIntegerDigits) {
    return {
      ok: false,
      message: `${field} must have at most ${maxIntegerDigits} digits before the decimal point`,
    };
  }
  if (spec.max !== undefined && x.gt(spec.max)) {
    return { ok: false, message: `${field} must be at most ${spec.max}` };
  }
  // abs() turns "-0" into 0 so the canonical form never carries a sign on zero.
  return { ok: true, value: x.abs().eq("0") ? new Decimal("0") : x };
}

/**
 * Non-throwing check, for zod refinements: the canonical string (fixed `scale`
 * decimals, e.g. "0.5000000") or a message naming `field`.
 */
export function checkDecimal(input: unknown, spec: DecimalSpec, field = "value"): DecimalCheck {
  const result = checkToDecimal(input, spec, field);
  if (!result.ok) return result;
  return { ok: true, value: result.value.toFixed(spec.scale) };
}

/** Parses a string or JSON number; throws ValidationError with `details[field]`. */
export function parseDecimal(input: unknown, spec: DecimalSpec, field: string): string {
  const result = checkDecimal(input, spec, field);
  if (!result.ok) throw new ValidationError(result.message, { [field]: result.message });
  return result.value;
}

export const parseAmount = (input: unknown, field = "amount") =>
  parseDecimal(input, AMOUNT_SPEC, field);
export const parseRate = (input: unknown, field = "rate") => parseDecimal(input, RATE_SPEC, field);
export const parseQuantity = (input: unknown, field = "quantity") =>
  parseDecimal(input, QUANTITY_SPEC, field);
export const parseTaxRate = (input: unknown, field = "taxRate") =>
  parseDecimal(input, TAX_RATE_SPEC, field);
export const parseDiscount = (input: unknown, field = "discount") =>
  parseDecimal(input, DISCOUNT_SPEC, field);

// ---------------------------------------------------------------------------
// Totals

export type LineItemInput = { quantity: DecimalInput; rate: DecimalInput };

export type TotalsInput = {
  lineItems: readonly LineItemInput[];
  /** Absent or null means no tax. */
  taxRate?: DecimalInput | null;
  /** Absent or null means no discount. */
  discount?: DecimalInput | null;
};

export type TotalsOptions = {
  /** Name of the items array in error details: "lineItems" (Form B) or "items" (Form A). */
  itemsField?: string;
  /**
   * Decimals of rates, discount, line amounts, tax and total: 7 (asset amounts, the default)
   * or 2 for an invoice priced in fiat (docs/decisions.md, Fiat pricing). Results are still
   * written with 7 decimals, as numeric(18,7) holds them.
   */
  scale?: 2 | 7;
};

/** Decimals of fiat amounts: 2, rounded half up. */
export const FIAT_SCALE = 2;

export type LineItemTotals = {
  /** 2 decimals, e.g. "3.00". */
  quantity: string;
  /** 7 decimals. */
  rate: string;
  /** round7(quantity x rate), 7 decimals. */
  amount: string;
};

/** Canonical decimal strings as Postgres numeric returns them. */
export type Totals = {
  lineItems: LineItemTotals[];
  subtotal: string;
  /** 2 decimals; "0.00" when no tax rate was given. */
  taxRate: string;
  taxAmount: string;
  /** 7 decimals; "0.0000000" when no discount was given. */
  discount: string;
  total: string;
};

const AMOUNT_LIMITS = { precision: 18, scale: 7 } as const;
export const overflowMessage = (field: string) => `${field} must not exceed ${MAX_AMOUNT}`;

/**
 * amount = round7(quantity x rate), subtotal = sum(amount),
 * taxAmount = round7(subtotal x taxRate / 100), total = subtotal + taxAmount - discount,
 * all rounded half up. Every input problem is reported at once in `details`.
 */
export function computeTotals(input: TotalsInput, options: TotalsOptions = {}): Totals {
  const itemsField = options.itemsField ?? "lineItems";
  const scale = options.scale ?? AMOUNT_SCALE;
  const rateSpec = { ...RATE_SPEC, scale };
  const discountSpec = { ...DISCOUNT_SPEC, scale };
  const details: ErrorDetails = {};
  const take = (value: unknown, spec: DecimalSpec, field: string): Big => {
    const result = checkToDecimal(value, spec, field);
    if (result.ok) return result.value;
    details[field] = result.message;
    return new Decimal("0");
  };

  if (input.lineItems.length === 0) {
    details[itemsField] = `${itemsField} must contain at least one item`;
  }
  const items = input.lineItems.map((item, i) => ({
    quantity: take(item.quantity, QUANTITY_SPEC, `${itemsField}.${i}.quantity`),
    rate: take(item.rate, rateSpec, `${itemsField}.${i}.rate`),
  }));
  const taxRate =
    input.taxRate == null ? new Decimal("0") : take(input.taxRate, TAX_RATE_SPEC, "taxRate");
  const discount =
    input.discount == null ? new Decimal("0") : take(input.discount, discountSpec, "discount");
  throwIfAny(details);

  const lineItems = items.map((item, i) => {
    const amount = item.quantity.times(item.rate).round(scale, Decimal.roundHalfUp);
    // 8 integer digits x 11 integer digits can outgrow numeric(18,7).
    if (!fits(amount, AMOUNT_LIMITS)) {
      details[`${itemsField}.${i}.amount`] = overflowMessage("amount");
    }
    return { ...item, amount };
  });
  const subtotal = lineItems.reduce((sum, item) => sum.plus(item.amount), new Decimal("0"));
  if (!fits(subtotal, AMOUNT_LIMITS)) details.subtotal = overflowMessage("subtotal");
  throwIfAny(details);

  // x 0.01 rather than / 100: an exact decimal shift, no division precision involved.
  const taxAmount = subtotal.times(taxRate).times("0.01").round(scale, Decimal.roundHalfUp);
  const total = subtotal.plus(taxAmount).minus(discount);

  if (total.lte("0")) {
    // Line items are > 0 or a zero rate; a non-positive total with no discount
    // can only come from zero rates, so point at the items then.
    const detail = discount.gt("0")
      ? { discount: "discount must be less than subtotal plus tax" }
      : { [itemsField]: "line items must add up to more than 0" };
    throw new ValidationError("Total must be greater than 0", detail);
  }
  if (!fits(total, AMOUNT_LIMITS)) {
    throw new ValidationError(overflowMessage("total"), { total: overflowMessage("total") });
  }

  // Big#toFixed formats the exact decimal (no float is involved, unlike Number#toFixed).
  return {
    lineItems: lineItems.map((item) => ({
      quantity: item.quantity.toFixed(QUANTITY_SPEC.scale),
      rate: item.rate.toFixed(AMOUNT_SCALE),
      amount: item.amount.toFixed(AMOUNT_SCALE),
    })),
    subtotal: subtotal.toFixed(AMOUNT_SCALE),
    taxRate: taxRate.toFixed(TAX_RATE_SPEC.scale),
    taxAmount: taxAmount.toFixed(AMOUNT_SCALE),
    discount: discount.toFixed(AMOUNT_SCALE),
    total: total.toFixed(AMOUNT_SCALE),
  };
}

function throwIfAny(details: ErrorDetails): void {
  const messages = Object.values(details);
  if (messages.length > 0) throw new ValidationError(messages[0], details);
}

/**
 * Form A's `amount` on create is a cross-check (docs/decisions.md "Response forms"):
 * when given it must equal the computed subtotal.
 */
export function assertAmountMatchesSubtotal(amount: unknown, subtotal: string): void {
  const parsed = parseAmount(amount);
  if (toStroops(parsed) !== toStroops(subtotal)) {
    const message = amountMismatchMessage(subtotal);
    throw new ValidationError(message, { amount: message });
  }
}

/** The 400 of a Form A `amount` that is not the subtotal (the create spec lists it). */
export const amountMismatchMessage = (subtotal: string) =>
  `amount must equal the sum of the line items (${trimAmount(subtotal)})`;

// ---------------------------------------------------------------------------
// Stroops and wire formats

// Up to 7 significant decimals; extra trailing zeros are harmless and accepted.
const AMOUNT_STRING = /^(-?)(\d+)(?:\.(\d+))?$/;

/** "1.5" -> 15000000n. Throws ValidationError for anything finer than a stroop. */
export function toStroops(amount: string): bigint {
  const match = typeof amount === "string" ? AMOUNT_STRING.exec(amount) : null;
  const fraction = (match?.[3] ?? "").replace(/0+$/, "");
  if (match === null || fraction.length > AMOUNT_SCALE) {
    const message = `amount must be a decimal string with at most ${AMOUNT_SCALE} decimal places`;
    throw new ValidationError(message, { amount: message });
  }
  const stroops = BigInt(match[2]) * STROOPS_PER_UNIT + BigInt(fraction.padEnd(AMOUNT_SCALE, "0"));
  return match[1] === "-" ? -stroops : stroops;
}

/** 15000000n -> "1.5000000" (always 7 decimals). */
export function fromStroops(stroops: bigint): string {
  const negative = stroops < 0n;
  const abs = negative ? -stroops : stroops;
  const units = abs / STROOPS_PER_UNIT;
  const fraction = (abs % STROOPS_PER_UNIT).toString().padStart(AMOUNT_SCALE, "0");
  return `${negative ? "-" : ""}${units}.${fraction}`;
}

/** Any amount string with at most 7 decimals -> the numeric(18,7) form, e.g. "1050.0000000". */
export function canonicalAmount(amount: string): string {
  return fromStroops(toStroops(amount));
}

/** "99.5000000" -> "99.5", "100.0000000" -> "100": for human-readable messages. */
export function trimAmount(amount: string): string {
  const canonical = canonicalAmount(amount);
  return canonical.replace(/0+$/, "").replace(/\.$/, "");
}

/** -1, 0 or 1, compared exactly in stroops. */
export function compareAmounts(a: string, b: string): -1 | 0 | 1 {
  const x = toStroops(a);
  const y = toStroops(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Whether `paid` covers `expected`, compared in stroops (docs/decisions.md "Money"). */
export function isAtLeast(paid: string, expected: string): boolean {
  return toStroops(paid) >= toStroops(expected);
}

/**
 * The only place an amount becomes a JS number: Form A's JSON shape demands
 * numbers. Values beyond 15-16 significant digits lose precision there; Form B
 * (decimal strings) is the exact form.
 */
export function formatForFormA(amount: string): number {
  return Number(trimAmount(amount));
}

/** Exact sum of decimal strings, 7 decimals. */
export function sumAmounts(amounts: readonly string[]): string {
  return fromStroops(amounts.reduce((acc, a) => acc + toStroops(a), 0n));
}

/** sum / count rounded half up to 7 decimals; "0.0000000" when count is 0. */
export function averageAmount(sum: string, count: number): string {
  if (count <= 0) return fromStroops(0n);
  const stroops = toStroops(sum);
  const n = BigInt(count);
  // Half up on a non-negative sum: (2s + n) / 2n.
  return fromStroops((2n * stroops + n) / (2n * n));
}

/**
 * What is left to pay: max(total - paid, 0), exact, 7 decimals (docs/decisions.md, Partial
 * payments). Never stored: derived from the invoice's total and amountPaid.
 */
export function amountDue(total: string, paid: string): string {
  const left = toStroops(total) - toStroops(paid);
  return fromStroops(left > 0n ? left : 0n);
}

/** What was applied beyond the total: max(paid - total, 0), exact, 7 decimals. */
export function amountOverpaid(total: string, paid: string): string {
  const over = toStroops(paid) - toStroops(total);
  return fromStroops(over > 0n ? over : 0n);
}
