import { type ErrorDetails, ValidationError } from "./errors";
import { AMOUNT_SCALE, checkDecimal, Decimal, FIAT_SCALE, QUANTITY_SPEC } from "./money";
import {
  breakdownOf,
  computeInvoiceTotals,
  hasLineTaxes,
  type TaxBreakdownRow,
  type TaxCategory,
} from "./tax";

// Credit notes (docs/decisions.md, Credit notes): what a credit note on a sent invoice credits,
// computed with the invoice's own tax rules (lib/domain/tax.ts), never more than the invoice
// still has uncredited. Pure: the service (lib/services/credit-notes) reads the invoice and its
// earlier credit notes under the invoice's row lock and stores what this returns.

export const CREDIT_NOTE_PREFIX = "CN-";

/** A freelancer's counter value -> "CN-0001" ... "CN-9999", "CN-10000". */
export function formatCreditNoteNumber(sequence: bigint | number): string {
  const value = BigInt(sequence);
  if (value < 1n) throw new RangeError(`Credit note sequence must be positive, got ${value}`);
  return `${CREDIT_NOTE_PREFIX}${value.toString().padStart(4, "0")}`;
}

/** FULL: all that was uncredited; LINES: chosen lines and quantities; AMOUNT: a sum on the whole. */
export const CREDIT_NOTE_KINDS = ["FULL", "LINES", "AMOUNT"] as const;
export type CreditNoteKind = (typeof CREDIT_NOTE_KINDS)[number];

export type CreditLine = {
  /** The invoice line it credits; null for a line on the whole invoice (AMOUNT, a balance). */
  lineItemId: string | null;
  description: string;
  /** 2 decimals. */
  quantity: string;
  /** 7 decimals. */
  rate: string;
  /** 7 decimals. */
  amount: string;
  /** The rate and category it is credited at (the invoice line's, or its breakdown row's). */
  taxRate: string | null;
  taxCategory: TaxCategory | null;
};

export type CreditTotals = {
  kind: CreditNoteKind;
  lines: CreditLine[];
  subtotal: string;
  /** The credited share of the invoice's discount (7 decimals, "0.0000000" when none). */
  discount: string;
  taxBreakdown: TaxBreakdownRow[];
  taxAmount: string;
  total: string;
};

/** What the computation reads of the invoice. */
export type CreditableInvoice = {
  invoiceNumber: string;
  lineItems: readonly {
    id: string;
    description: string;
    quantity: string;
    rate: string;
    amount: string;
    taxRate: string | null;
    taxCategory: TaxCategory | null;
    exemptionReason: string | null;
    exemptionReasonCode: string | null;
  }[];
  taxRate: string;
  subtotal: string;
  discount: string;
  taxAmount: string;
  total: string;
  taxBreakdown: TaxBreakdownRow[] | null;
  priceCurrency: string | null;
};

/** An earlier credit note of the same invoice. */
export type PriorCredit = Pick<
  CreditTotals,
  "kind" | "subtotal" | "discount" | "taxBreakdown" | "taxAmount" | "total"
> & { lines: readonly Pick<CreditLine, "lineItemId" | "quantity" | "amount">[] };

export type CreditRequest = {
  lines?: readonly { lineIndex?: number; lineItemId?: string; quantity?: string | number }[];
  amount?: string | number;
};

export const NOTHING_TO_CREDIT = "The invoice has nothing left to credit";
export const LINES_OR_AMOUNT = "Give either lines or amount, not both";
export const INVALID_CREDIT = "Invalid credit note request";
export const OVER_TOTAL = "The credit must not exceed what is left to credit on the invoice";
export const OVER_ROW =
  "The credit at a tax rate must not exceed what is left to credit at that rate";

const zero = () => new Decimal("0");
const fixed7 = (v: Big) => v.toFixed(AMOUNT_SCALE);
const rowKey = (r: { category: string; rate: string }) =>
  `${r.category}|${new Decimal(r.rate).toFixed(2)}`;

/** What the invoice still has uncredited: its total, each breakdown row, each line's quantity. */
export function uncredited(invoice: CreditableInvoice, prior: readonly PriorCredit[]) {
  const sum = (pick: (p: PriorCredit) => string) => prior.reduce((s, p) => s.plus(pick(p)), zero());
  const rows = breakdownOf(invoice).map((r) => {
    const key = rowKey(r);
    let taxable = new Decimal(r.taxableAmount);
    let tax = new Decimal(r.taxAmount);
    for (const p of prior) {
      for (const c of p.taxBreakdown) {
        if (rowKey(c) !== key) continue;
        taxable = taxable.minus(c.taxableAmount);
        tax = tax.minus(c.taxAmount);
      }
    }
    return { ...r, taxableAmount: fixed7(taxable), taxAmount: fixed7(tax) };
  });
  const lines = invoice.lineItems.map((line) => {
    let quantity = new Decimal(line.quantity);
    let amount = new Decimal(line.amount);
    for (const p of prior) {
      for (const c of p.lines) {
        if (c.lineItemId !== line.id) continue;
        quantity = quantity.minus(c.quantity);
        amount = amount.minus(c.amount);
      }
    }
    return { line, quantity, amount };
  });
  return {
    total: new Decimal(invoice.total).minus(sum((p) => p.total)),
    subtotal: new Decimal(invoice.subtotal).minus(sum((p) => p.subtotal)),
    discount: new Decimal(invoice.discount).minus(sum((p) => p.discount)),
    taxAmount: new Decimal(invoice.taxAmount).minus(sum((p) => p.taxAmount)),
    rows,
    lines,
    /** Whether an earlier credit was not tied to lines (then a remainder is credited per row). */
    hadAmountCredit: prior.some((p) => p.kind === "AMOUNT"),
  };
}

/**
 * The credit note a request asks for (docs/decisions.md, Credit notes):
 *
 * - nothing but the reason: FULL, everything still uncredited;
 * - `lines`: each chosen line (by `lineIndex` or `lineItemId`) at `quantity`, default what is
 *   left of it; the lines' amounts, the discount's share (in proportion to the credited net,
 *   rounded half up) and the tax are computed by `computeInvoiceTotals` exactly as the invoice's
 *   were, so a credit note is what the invoice would have been with those lines;
 * - `amount`: a credit on the whole invoice, `amount` being the credit note's total (tax
 *   included), shared among the uncredited breakdown rows in proportion to what each has left
 *   (taxable plus tax; each share half up, the last takes the rest); in each row the net is the
 *   share / (1 + rate / 100) rounded half up and the tax is the rest, so the total is exactly the
 *   amount and every credited amount carries its category and rate (EN 16931).
 *
 * A request that credits every line's remaining quantity (FULL included) is credited as the
 * remainder: each breakdown row, the discount and the total less what earlier credit notes
 * took, so that the credit notes of an invoice add up to it exactly, to the stroop.
 * Over-credit is a ValidationError naming the field (`lines.N.quantity`, `amount`, `lines`).
 */
export function computeCredit(
  invoice: CreditableInvoice,
  prior: readonly PriorCredit[],
  request: CreditRequest,
): CreditTotals {
  const left = uncredited(invoice, prior);
  const scale = invoice.priceCurrency ? FIAT_SCALE : AMOUNT_SCALE;
  if (request.lines && request.amount !== undefined) {
    throw new ValidationError(LINES_OR_AMOUNT, { amount: LINES_OR_AMOUNT });
  }
  if (left.total.lte("0")) {
    const field = request.amount !== undefined ? "amount" : "lines";
    throw new ValidationError(NOTHING_TO_CREDIT, { [field]: NOTHING_TO_CREDIT });
  }
  if (request.amount !== undefined) return amountCredit(invoice, left, request.amount, scale);
  if (!request.lines) return remainder(invoice, left, "FULL");
  return linesCredit(invoice, left, request.lines, scale);
}

type Left = ReturnType<typeof uncredited>;

function linesCredit(
  invoice: CreditableInvoice,
  left: Left,
  asked: NonNullable<CreditRequest["lines"]>,
  scale: 2 | 7,
): CreditTotals {
  const details: ErrorDetails = {};
  if (asked.length === 0) details.lines = "lines must name at least one line";
  const chosen = new Map<number, Big>();
  asked.forEach((a, i) => {
    const field = `lines.${i}`;
    const index =
      a.lineItemId !== undefined
        ? invoice.lineItems.findIndex((l) => l.id === a.lineItemId)
        : (a.lineIndex ?? -1);
    if (index < 0 || index >= invoice.lineItems.length || !Number.isInteger(index)) {
      details[a.lineItemId !== undefined ? `${field}.lineItemId` : `${field}.lineIndex`] =
        "must name a line of the invoice";
      return;
    }
    if (chosen.has(index)) {
      details[field] = "names a line already chosen";
      return;
    }
    const remaining = left.lines[index].quantity;
    let quantity = remaining;
    if (a.quantity !== undefined) {
      const q = checkDecimal(a.quantity, QUANTITY_SPEC, `${field}.quantity`);
      if (!q.ok) {
        details[`${field}.quantity`] = q.message;
        return;
      }
      quantity = new Decimal(q.value);
    }
    if (remaining.lte("0")) {
      details[`${field}.quantity`] = "this line is already credited in full";
    } else if (quantity.gt(remaining)) {
      details[`${field}.quantity`] =
        `quantity must not exceed what is left to credit on this line (${remaining.toFixed(2)})`;
    }
    chosen.set(index, quantity);
  });
  throwIf(details);

  // Every line's remaining quantity asked for: the remainder, exact to the stroop.
  const all = left.lines.every((l, i) => l.quantity.lte("0") || chosen.get(i)?.eq(l.quantity));
  if (all) return remainder(invoice, left, "LINES");

  const lineTaxes = hasLineTaxes(invoice.lineItems);
  const picked = [...chosen.entries()].sort(([a], [b]) => a - b);
  const lines = picked.map(([i, quantity]) => {
    const line = invoice.lineItems[i];
    const rate = new Decimal(line.taxRate ?? invoice.taxRate);
    return {
      line,
      quantity,
      // With tax per line, each credited line names its rate and category, so the per-line rule
      // applies to the credit note as it did to the invoice.
      taxRate: lineTaxes ? rate.toFixed(2) : null,
      taxCategory: lineTaxes
        ? (line.taxCategory ?? (rate.gt("0") ? "S" : "Z"))
        : (null as TaxCategory | null),
    };
  });
  const net = lines.reduce(
    (s, l) => s.plus(new Decimal(l.quantity).times(l.line.rate).round(scale, Decimal.roundHalfUp)),
    zero(),
  );
  const discount = new Decimal(invoice.discount).gt("0")
    ? new Decimal(invoice.discount)
        .times(net)
        .div(invoice.subtotal)
        .round(scale, Decimal.roundHalfUp)
    : zero();
  const totals = computeInvoiceTotals(
    {
      lineItems: lines.map((l) => ({
        quantity: l.quantity.toFixed(2),
        rate: l.line.rate,
        taxRate: l.taxRate,
        taxCategory: l.taxCategory,
        exemptionReason: l.line.exemptionReason,
        exemptionReasonCode: l.line.exemptionReasonCode,
      })),
      taxRate: invoice.taxRate,
      discount: discount.gt("0") ? discount.toFixed(scale) : null,
    },
    { itemsField: "lines", scale },
  );
  checkWithin(left, totals.taxBreakdown, totals.total, "lines");
  return {
    kind: "LINES",
    lines: lines.map((l, i) => ({
      lineItemId: l.line.id,
      description: l.line.description,
      quantity: totals.lineItems[i].quantity,
      rate: new Decimal(l.line.rate).toFixed(AMOUNT_SCALE),
      amount: totals.lineItems[i].amount,
      taxRate: l.line.taxRate ?? (lineTaxes ? l.taxRate : null),
      taxCategory: l.line.taxCategory ?? (lineTaxes ? l.taxCategory : null),
    })),
    subtotal: totals.subtotal,
    discount: totals.discount,
    taxBreakdown: totals.taxBreakdown,
    taxAmount: totals.taxAmount,
    total: totals.total,
  };
}

function amountCredit(
  invoice: CreditableInvoice,
  left: Left,
  input: string | number,
  scale: 2 | 7,
): CreditTotals {
  const check = checkDecimal(input, { precision: 18, scale, min: "positive" }, "amount");
  if (!check.ok) throw new ValidationError(check.message, { amount: check.message });
  const amount = new Decimal(check.value);
  if (amount.gt(left.total)) {
    const message = `amount must not exceed what is left to credit on the invoice (${fixed7(left.total)})`;
    throw new ValidationError(message, { amount: message });
  }
  const rows = left.rows.filter((r) => new Decimal(r.taxableAmount).plus(r.taxAmount).gt("0"));
  const weight = rows.reduce((s, r) => s.plus(r.taxableAmount).plus(r.taxAmount), zero());
  let shared = zero();
  const breakdown = rows.map((r, i): TaxBreakdownRow => {
    const own = new Decimal(r.taxableAmount).plus(r.taxAmount);
    const share =
      i === rows.length - 1
        ? amount.minus(shared)
        : amount.times(own).div(weight).round(scale, Decimal.roundHalfUp);
    shared = shared.plus(share);
    const taxable = share
      .times("100")
      .div(new Decimal("100").plus(r.rate))
      .round(scale, Decimal.roundHalfUp);
    return {
      category: r.category,
      rate: r.rate,
      taxableAmount: fixed7(taxable),
      taxAmount: fixed7(share.minus(taxable)),
      exemptionReason: r.exemptionReason,
      exemptionReasonCode: r.exemptionReasonCode,
    };
  });
  checkWithin(left, breakdown, fixed7(amount), "amount");
  const subtotal = breakdown.reduce((s, r) => s.plus(r.taxableAmount), zero());
  const tax = breakdown.reduce((s, r) => s.plus(r.taxAmount), zero());
  return {
    kind: "AMOUNT",
    lines: breakdown.map((r) => balanceLine(invoice, r)),
    subtotal: fixed7(subtotal),
    discount: fixed7(zero()),
    taxBreakdown: breakdown,
    taxAmount: fixed7(tax),
    total: fixed7(amount),
  };
}

/** A line on the whole invoice at one breakdown row's rate (an AMOUNT credit, a balance). */
function balanceLine(invoice: CreditableInvoice, r: TaxBreakdownRow): CreditLine {
  return {
    lineItemId: null,
    description: `${invoice.invoiceNumber} (${r.category} ${new Decimal(r.rate).toFixed(2)} %)`,
    quantity: "1.00",
    rate: fixed7(new Decimal(r.taxableAmount)),
    amount: fixed7(new Decimal(r.taxableAmount)),
    taxRate: new Decimal(r.rate).toFixed(2),
    taxCategory: r.category,
  };
}

/** Everything still uncredited: the rows, discount and total less earlier credit notes. */
function remainder(invoice: CreditableInvoice, left: Left, kind: CreditNoteKind): CreditTotals {
  const breakdown = left.rows.filter(
    (r) => !new Decimal(r.taxableAmount).eq("0") || !new Decimal(r.taxAmount).eq("0"),
  );
  // Lines: what is left of each invoice line; after a credit on the whole invoice (AMOUNT) the
  // lines no longer add up to what is left, so it is credited per breakdown row instead.
  const lines: CreditLine[] = left.hadAmountCredit
    ? breakdown.map((r) => balanceLine(invoice, r))
    : left.lines
        .filter((l) => l.quantity.gt("0"))
        .map(({ line, quantity, amount }) => ({
          lineItemId: line.id,
          description: line.description,
          quantity: quantity.toFixed(2),
          rate: new Decimal(line.rate).toFixed(AMOUNT_SCALE),
          amount: fixed7(amount),
          taxRate: line.taxRate,
          taxCategory: line.taxCategory,
        }));
  return {
    kind,
    lines,
    subtotal: fixed7(left.subtotal),
    discount: fixed7(left.discount),
    taxBreakdown: breakdown,
    taxAmount: fixed7(left.taxAmount),
    total: fixed7(left.total),
  };
}

/** Never more than what is left: in total, and per breakdown row (taxable and tax). */
function checkWithin(
  left: Left,
  breakdown: readonly TaxBreakdownRow[],
  total: string,
  field: string,
): void {
  if (new Decimal(total).gt(left.total)) {
    throw new ValidationError(OVER_TOTAL, { [field]: OVER_TOTAL });
  }
  for (const r of breakdown) {
    const row = left.rows.find((l) => rowKey(l) === rowKey(r));
    if (
      !row ||
      new Decimal(r.taxableAmount).gt(row.taxableAmount) ||
      new Decimal(r.taxAmount).gt(row.taxAmount)
    ) {
      throw new ValidationError(OVER_ROW, { [field]: OVER_ROW });
    }
  }
}

function throwIf(details: ErrorDetails): void {
  const keys = Object.keys(details);
  if (keys.length > 0) throw new ValidationError(INVALID_CREDIT, details);
}

/**
 * What an invoice asks the payer for once credit notes lower it (docs/decisions.md, Credit
 * notes): its total less what was credited, never below 0. The one rule behind amountDue,
 * settlement and payment matching (lib/domain/fiat.ts, invoiceAmountDue).
 */
export function payableTotal(invoice: { total: string; amountCredited?: string | null }): string {
  const credited = invoice.amountCredited ?? "0";
  const rest = new Decimal(invoice.total).minus(credited);
  return fixed7(rest.lt("0") ? zero() : rest);
}
