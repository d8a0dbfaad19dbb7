import type { ErrorDetails } from "./errors";
import { ValidationError } from "./errors";
import {
  AMOUNT_SCALE,
  checkDecimal,
  computeTotals,
  Decimal,
  type DecimalInput,
  DISCOUNT_SPEC,
  type LineItemInput,
  TAX_RATE_SPEC,
  type Totals,
  type TotalsInput,
  type TotalsOptions,
} from "./money";

import {
  EXEMPT_CATEGORIES,
  type LineTax,
  TAX_CATEGORY_NAMES,
  type TaxBreakdownRow,
  type TaxCategory,
  VATEX_CODES,
} from "./tax-categories";

export * from "./tax-categories";

// Tax per line (docs/decisions.md, Tax per line): EN 16931's VAT categories, one breakdown row
// per category and rate, the document's discount lowering each row's taxable base in proportion.

export type LineTaxInput = LineItemInput & {
  taxRate?: DecimalInput | null;
  taxCategory?: TaxCategory | null;
  exemptionReason?: string | null;
  exemptionReasonCode?: string | null;
};

export type InvoiceTotals = Totals & {
  lineTaxes: LineTax[];
  taxBreakdown: TaxBreakdownRow[];
};

const NO_LINE_TAX: LineTax = {
  taxRate: null,
  taxCategory: null,
  exemptionReason: null,
  exemptionReasonCode: null,
};

/** Whether any line carries its own tax: then the per-line rule applies. */
export function hasLineTaxes(lineItems: readonly LineTaxInput[]): boolean {
  return lineItems.some((l) => l.taxRate != null || l.taxCategory != null);
}

/** The category of a rate without one: S when it charges tax, Z when it is 0. */
const defaultCategory = (rate: Big): TaxCategory => (rate.gt("0") ? "S" : "Z");

/**
 * The invoice's totals and its tax breakdown.
 *
 * Without a line-level rate or category, the spec's formula, unchanged (computeTotals): tax on
 * the subtotal at the invoice's rate, the discount taken off after tax; the breakdown is one
 * row (S, or Z at 0 %) of the whole subtotal.
 *
 * With one, each line's rate is its own or the invoice's, and its category its own or S/Z.
 * Lines are grouped by (category, rate) in order of first appearance. The discount is a
 * document-level allowance (EN 16931 BG-20): it lowers the taxable base, shared among the
 * rows in proportion to their net amounts (each share rounded half up at the invoice's scale,
 * the last row taking what is left so the shares add up to the discount exactly). Each row's
 * tax is rounded half up; the invoice's tax is their sum; total = subtotal - discount + tax.
 */
export function computeInvoiceTotals(
  input: Omit<TotalsInput, "lineItems"> & { lineItems: readonly LineTaxInput[] },
  options: TotalsOptions = {},
): InvoiceTotals {
  const itemsField = options.itemsField ?? "lineItems";
  const scale = options.scale ?? AMOUNT_SCALE;
  if (!hasLineTaxes(input.lineItems)) {
    const totals = computeTotals(input, options);
    checkNoReasons(input.lineItems, itemsField);
    const rate = new Decimal(totals.taxRate);
    return {
      ...totals,
      lineTaxes: totals.lineItems.map(() => NO_LINE_TAX),
      taxBreakdown: [
        {
          category: defaultCategory(rate),
          rate: totals.taxRate,
          taxableAmount: totals.subtotal,
          taxAmount: totals.taxAmount,
          exemptionReason: null,
          exemptionReasonCode: null,
        },
      ],
    };
  }

  // The amounts' rules (scale, bounds, overflow) are computeTotals' own, at a zero rate and
  // discount; the tax and the discount are then applied per row below.
  const base = computeTotals({ lineItems: input.lineItems, taxRate: input.taxRate }, options);
  const defaultRate = new Decimal(base.taxRate);
  const details: ErrorDetails = {};
  let discount = new Decimal("0");
  if (input.discount != null) {
    const d = checkDecimal(input.discount, { ...DISCOUNT_SPEC, scale }, "discount");
    if (d.ok) discount = new Decimal(d.value);
    else details.discount = d.message;
  }

  const lineTaxes: LineTax[] = [];
  const rows = new Map<
    string,
    { category: TaxCategory; rate: Big; net: Big; reasons: LineTax[] }
  >();
  input.lineItems.forEach((line, i) => {
    const field = `${itemsField}.${i}`;
    let rate = defaultRate;
    if (line.taxRate != null) {
      const r = checkDecimal(line.taxRate, TAX_RATE_SPEC, "taxRate");
      if (!r.ok) details[`${field}.taxRate`] = r.message;
      else rate = new Decimal(r.value);
    }
    const category = line.taxCategory ?? defaultCategory(rate);
    const own: LineTax = {
      taxRate: line.taxRate == null ? null : rate.toFixed(TAX_RATE_SPEC.scale),
      taxCategory: line.taxCategory ?? null,
      exemptionReason: line.exemptionReason?.trim() || null,
      exemptionReasonCode: line.exemptionReasonCode?.trim().toUpperCase() || null,
    };
    checkCategory(category, rate, own, field, details);
    lineTaxes.push(own);
    const key = `${category}|${rate.toFixed(2)}`;
    const row = rows.get(key) ?? {
      category,
      rate,
      net: new Decimal("0"),
      reasons: [] as LineTax[],
    };
    row.net = row.net.plus(base.lineItems[i].amount);
    row.reasons.push(own);
    rows.set(key, row);
  });
  const subtotal = new Decimal(base.subtotal);
  if (!details.discount && discount.gte(subtotal)) {
    details.discount = "discount must be less than the subtotal";
  }
  if (Object.keys(details).length > 0) {
    throw new ValidationError(Object.values(details)[0], details);
  }

  const list = [...rows.values()];
  let shared = new Decimal("0");
  const taxBreakdown = list.map((row, i): TaxBreakdownRow => {
    const share =
      i === list.length - 1
        ? discount.minus(shared)
        : discount.times(row.net).div(subtotal).round(scale, Decimal.roundHalfUp);
    shared = shared.plus(share);
    const taxable = row.net.minus(share);
    const tax = taxable.times(row.rate).times("0.01").round(scale, Decimal.roundHalfUp);
    const reason = distinct(row.reasons.map((r) => r.exemptionReason));
    const code = distinct(row.reasons.map((r) => r.exemptionReasonCode));
    return {
      category: row.category,
      rate: row.rate.toFixed(TAX_RATE_SPEC.scale),
      taxableAmount: taxable.toFixed(AMOUNT_SCALE),
      taxAmount: tax.toFixed(AMOUNT_SCALE),
      exemptionReason: reason,
      exemptionReasonCode: code,
    };
  });
  const taxAmount = taxBreakdown.reduce((sum, r) => sum.plus(r.taxAmount), new Decimal("0"));
  const total = subtotal.minus(discount).plus(taxAmount);
  return {
    ...base,
    taxAmount: taxAmount.toFixed(AMOUNT_SCALE),
    discount: discount.toFixed(AMOUNT_SCALE),
    total: total.toFixed(AMOUNT_SCALE),
    lineTaxes,
    taxBreakdown,
  };
}

/** The rate a category allows and the reason it needs (EN 16931 BR-S-05, BR-E-05, ...). */
function checkCategory(
  category: TaxCategory,
  rate: Big,
  own: LineTax,
  field: string,
  details: ErrorDetails,
): void {
  if (category === "S" && rate.lte("0")) {
    details[`${field}.taxRate`] = "taxRate must be greater than 0 for the standard rate (S)";
  }
  if (category !== "S" && !rate.eq("0")) {
    details[`${field}.taxRate`] = `taxRate must be 0 for category ${category}`;
  }
  const exempt = EXEMPT_CATEGORIES.includes(category);
  if (exempt && !own.exemptionReason && !own.exemptionReasonCode) {
    details[`${field}.exemptionReason`] =
      `exemptionReason is required for category ${category} (${TAX_CATEGORY_NAMES[category].toLowerCase()})`;
  }
  if (!exempt && (own.exemptionReason || own.exemptionReasonCode)) {
    details[`${field}.exemptionReason`] =
      "exemptionReason is only for categories E, AE, K, G and O";
  }
  if (own.exemptionReasonCode && !VATEX_CODES.has(own.exemptionReasonCode)) {
    details[`${field}.exemptionReasonCode`] =
      "exemptionReasonCode must be a code of the VATEX list, e.g. VATEX-EU-AE or VATEX-FR-FRANCHISE";
  }
}

/** Without line taxes a reason has nothing to explain. */
function checkNoReasons(lineItems: readonly LineTaxInput[], itemsField: string): void {
  const details: ErrorDetails = {};
  lineItems.forEach((l, i) => {
    if (l.exemptionReason?.trim() || l.exemptionReasonCode?.trim()) {
      details[`${itemsField}.${i}.exemptionReason`] =
        "exemptionReason needs the line's taxCategory (E, AE, K, G or O)";
    }
  });
  if (Object.keys(details).length > 0) {
    throw new ValidationError(Object.values(details)[0], details);
  }
}

function distinct(values: (string | null)[]): string | null {
  const set = [...new Set(values.filter((v): v is string => !!v))];
  return set.length > 0 ? set.join("; ") : null;
}

/**
 * The breakdown an invoice answers: the stored one, or for an invoice from before tax per line
 * (no stored breakdown) its one row, from its rate, subtotal and tax.
 */
export function breakdownOf(i: {
  taxBreakdown: TaxBreakdownRow[] | null;
  taxRate: string;
  subtotal: string;
  taxAmount: string;
}): TaxBreakdownRow[] {
  if (i.taxBreakdown) return i.taxBreakdown;
  return [
    {
      category: defaultCategory(new Decimal(i.taxRate)),
      rate: new Decimal(i.taxRate).toFixed(TAX_RATE_SPEC.scale),
      taxableAmount: i.subtotal,
      taxAmount: i.taxAmount,
      exemptionReason: null,
      exemptionReasonCode: null,
    },
  ];
}

/**
 * The tax in the invoice's tax currency (docs/decisions.md, Tax currency): each breakdown row's
 * taxable amount and tax times `rate` (1 unit of the invoice's amounts in that currency),
 * rounded half up to cents per row; the tax is the sum of the rows' converted tax.
 */
export function taxInCurrency(
  breakdown: readonly TaxBreakdownRow[],
  rate: string,
): {
  taxAmount: string;
  breakdown: Omit<TaxBreakdownRow, "exemptionReason" | "exemptionReasonCode">[];
} {
  const cents = (v: string) => new Decimal(v).times(rate).round(2, Decimal.roundHalfUp);
  const rows = breakdown.map((r) => ({
    category: r.category,
    rate: r.rate,
    taxableAmount: cents(r.taxableAmount).toFixed(2),
    taxAmount: cents(r.taxAmount).toFixed(2),
  }));
  const taxAmount = rows.reduce((sum, r) => sum.plus(r.taxAmount), new Decimal("0"));
  return { taxAmount: taxAmount.toFixed(2), breakdown: rows };
}
