import type { PriceCurrency } from "@/lib/domain/money";
import { Decimal } from "@/lib/domain/money";
import type { TaxBreakdownRow, TaxCategory } from "@/lib/domain/tax-categories";
import type { EInvoiceInput } from "./types";

// The e-invoice's amounts (docs/decisions.md, E-invoices): EN 16931 states every document
// amount in the invoice currency with at most 2 decimals (BR-DEC-*), and its sums must hold
// exactly (BR-CO-10..16, BR-S-08). One rounding, at one point: each tax breakdown row's taxable
// amount, tax and discount share, converted to the invoice currency and rounded half up to the
// cent (the rows the API answers; for a tax currency the same figures as `taxInCurrency`).
// Everything else is fitted to them: each row's lines share the row's net amount by largest
// remainder, the totals are the rows' sums, and BT-114 (rounding amount) brings the amount due
// to the API's total in cents when the rows' cents do not add up to it.

export type DocumentLine = {
  /** The line's net amount in cents of the invoice currency. */
  amount: string;
  /** The net price per unit in the invoice currency (4 decimals when converted). */
  price: string;
};

export type DocumentRow = {
  category: TaxCategory;
  rate: string;
  /** BT-116: the lines' sum less the row's allowance. */
  basis: string;
  /** BT-117. */
  tax: string;
  /** The row's share of the discount (a document-level allowance, BG-20), 0.00 when none. */
  allowance: string;
  exemptionReason: string | null;
  exemptionReasonCode: string | null;
};

export type DocumentAmounts = {
  /** BT-5. */
  currency: PriceCurrency;
  /** 1 unit of the document's amounts in `currency`. */
  factor: string;
  lines: DocumentLine[];
  rows: DocumentRow[];
  /** BT-106 .. BT-115. */
  lineTotal: string;
  allowanceTotal: string;
  taxBasisTotal: string;
  taxTotal: string;
  grandTotal: string;
  rounding: string;
  duePayable: string;
  /** BT-6 and BT-111, when the invoice names a tax currency other than BT-5. */
  taxCurrency: { currency: PriceCurrency; taxTotal: string } | null;
};

const cents = (v: Big) => v.round(2, Decimal.roundHalfUp);
const fixed2 = (v: Big) => v.toFixed(2);

/**
 * The invoice currency and the factor from the document's unit (docs/decisions.md, E-invoices):
 * a fiat-priced document is in its price currency (1); USDC is USD and EURC is EUR (exactly 1);
 * XLM is its tax currency at the rate fixed when it was sent. Null: it has none (an XLM
 * document without a tax currency and its fixed rate).
 */
export function invoiceCurrencyOf(
  input: Pick<EInvoiceInput, "priceCurrency" | "currency" | "taxCurrency" | "taxExchange">,
): { currency: PriceCurrency; factor: string } | null {
  if (input.priceCurrency) return { currency: input.priceCurrency, factor: "1" };
  if (input.currency === "USDC") return { currency: "USD", factor: "1" };
  if (input.currency === "EURC") return { currency: "EUR", factor: "1" };
  if (input.taxCurrency && input.taxExchange) {
    return { currency: input.taxCurrency, factor: input.taxExchange.rate };
  }
  return null;
}

/** The row key shared by a breakdown row and its lines (lib/domain/tax.ts groups the same). */
const rowKey = (category: TaxCategory, rate: string) =>
  `${category}|${new Decimal(rate).toFixed(2)}`;

/**
 * Splits `target` cents among `exact` amounts: each rounded half up to the cent, then the
 * difference given (or taken) a cent at a time to the amounts whose rounding moved them most
 * the other way, so the parts add up to `target` exactly and each stays within a cent or so
 * of its exact amount.
 */
export function apportion(target: Big, exact: Big[]): Big[] {
  const parts = exact.map(cents);
  let diff = target.minus(parts.reduce((s, p) => s.plus(p), new Decimal("0")));
  if (parts.length === 0) return parts;
  const step = new Decimal("0.01");
  const up = diff.gt("0");
  // Lines that lost most to rounding get a cent first (or, taking, those that gained most).
  const order = exact
    .map((e, i) => ({ i, gap: up ? e.minus(parts[i]) : parts[i].minus(e) }))
    .sort((a, b) => b.gap.cmp(a.gap) || a.i - b.i)
    .map((o) => o.i);
  for (let k = 0; !diff.eq("0"); k++) {
    const i = order[k % order.length];
    parts[i] = up ? parts[i].plus(step) : parts[i].minus(step);
    diff = up ? diff.minus(step) : diff.plus(step);
  }
  return parts;
}

/**
 * The e-invoice's amounts, or null when the document has no invoice currency (see
 * `invoiceCurrencyOf`). Assumes the problems `eInvoiceProblems` lists are absent (a discount
 * after tax at a rate above 0 cannot be stated; see there).
 */
export function documentAmounts(input: EInvoiceInput): DocumentAmounts | null {
  const unit = invoiceCurrencyOf(input);
  if (!unit) return null;
  const fx = new Decimal(unit.factor);
  const discount = new Decimal(input.discount);

  // The breakdown rows in the document's unit, with each row's net and its discount share.
  const netOf = new Map<string, Big>();
  for (const line of input.lines) {
    const key = rowKey(line.category, line.rate);
    netOf.set(key, (netOf.get(key) ?? new Decimal("0")).plus(line.amount));
  }
  const source = input.breakdown.map((row) => {
    const net = netOf.get(rowKey(row.category, row.rate));
    if (!net) throw new Error(`breakdown row ${row.category} ${row.rate} has no line`);
    // The spec's formula (no line taxes: one row of the whole subtotal) takes the discount off
    // after tax; at a rate of 0 that is the same as an allowance, so it lowers the base here.
    const taxable = input.taxPerLine ? new Decimal(row.taxableAmount) : net.minus(discount);
    return { row, taxable, share: net.minus(taxable) };
  });

  const rows: DocumentRow[] = [];
  const lineAmounts: Big[] = input.lines.map(() => new Decimal("0"));
  for (const { row, taxable, share } of source) {
    const basis = cents(taxable.times(fx));
    const allowance = cents(share.times(fx));
    const tax = cents(new Decimal(row.taxAmount).times(fx));
    const members = input.lines
      .map((line, i) => ({ line, i }))
      .filter(({ line }) => rowKey(line.category, line.rate) === rowKey(row.category, row.rate));
    const parts = apportion(
      basis.plus(allowance),
      members.map(({ line }) => new Decimal(line.amount).times(fx)),
    );
    members.forEach(({ i }, k) => {
      lineAmounts[i] = parts[k];
    });
    rows.push({
      category: row.category,
      rate: new Decimal(row.rate).toFixed(2),
      basis: fixed2(basis),
      tax: fixed2(tax),
      allowance: fixed2(allowance),
      exemptionReason: row.exemptionReason,
      exemptionReasonCode: row.exemptionReasonCode,
    });
  }

  const sum = (values: Big[]) => values.reduce((s, v) => s.plus(v), new Decimal("0"));
  const lineTotal = sum(lineAmounts);
  const allowanceTotal = sum(rows.map((r) => new Decimal(r.allowance)));
  const taxBasisTotal = lineTotal.minus(allowanceTotal);
  const taxTotal = sum(rows.map((r) => new Decimal(r.tax)));
  const grandTotal = taxBasisTotal.plus(taxTotal);
  const duePayable = cents(new Decimal(input.total).times(fx));
  const rounding = duePayable.minus(grandTotal);

  let taxCurrency: DocumentAmounts["taxCurrency"] = null;
  if (input.taxCurrency && input.taxCurrency !== unit.currency && input.taxExchange) {
    // The API's taxExchange: each row's tax converted and rounded on its own, then summed.
    const rate = new Decimal(input.taxExchange.rate);
    const converted = sum(input.breakdown.map((r) => cents(new Decimal(r.taxAmount).times(rate))));
    taxCurrency = { currency: input.taxCurrency, taxTotal: fixed2(converted) };
  }

  return {
    currency: unit.currency,
    factor: unit.factor,
    lines: input.lines.map((line, i) => ({
      amount: fixed2(lineAmounts[i]),
      price: priceIn(line.price, fx),
    })),
    rows,
    lineTotal: fixed2(lineTotal),
    allowanceTotal: fixed2(allowanceTotal),
    taxBasisTotal: fixed2(taxBasisTotal),
    taxTotal: fixed2(taxTotal),
    grandTotal: fixed2(grandTotal),
    rounding: fixed2(rounding),
    duePayable: fixed2(duePayable),
    taxCurrency,
  };
}

/** A net price in the invoice currency: as stored (at least 2 decimals), 4 when converted. */
function priceIn(price: string, fx: Big): string {
  const p = new Decimal(price);
  if (fx.eq("1")) {
    const trimmed = p.toFixed(7).replace(/0+$/, "");
    const decimals = Math.max(2, trimmed.split(".")[1]?.length ?? 0);
    return p.toFixed(decimals);
  }
  return p.times(fx).round(4, Decimal.roundHalfUp).toFixed(4);
}

export type { TaxBreakdownRow };
