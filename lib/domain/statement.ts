import { fromStroops, toStroops } from "./money";
import { type RefundedPayment, valueShare } from "./refund";

// The statement of account of one client (docs/decisions.md, Statements): per currency, what
// the client owed when the period began, the period's documents and money in date order, and
// what they owe at its end. Pure: amounts are decimal strings, summed in stroops (bigint).

/** What a statement line is. */
export const STATEMENT_LINE_KINDS = ["invoice", "payment", "refund", "credit_note"] as const;
export type StatementLineKind = (typeof STATEMENT_LINE_KINDS)[number];

/**
 * One movement on the client's account, in its invoice's unit (the price currency of a
 * fiat-priced invoice, else its asset). `amount` is positive; its kind says which way it goes:
 * an invoice and a refund raise what the client owes, a payment and a credit note lower it.
 */
export type StatementEntry = {
  kind: StatementLineKind;
  at: Date;
  currency: string;
  amount: string;
  /** The document's own reference: invoice or credit note number, payment or refund id. */
  reference: string;
  invoiceId: string;
  invoiceNumber: string;
};

export type StatementLine = StatementEntry & {
  /** What the client owes in this currency after this line (negative: a credit balance). */
  balance: string;
};

export type CurrencyStatement = {
  currency: string;
  openingBalance: string;
  invoiced: string;
  paid: string;
  refunded: string;
  credited: string;
  closingBalance: string;
  lines: StatementLine[];
};

/** +1 raises the balance (invoice, refund), -1 lowers it (payment, credit note). */
export const lineSign = (kind: StatementLineKind): 1n | -1n =>
  kind === "invoice" || kind === "refund" ? 1n : -1n;

const ORDER: Record<StatementLineKind, number> = {
  invoice: 0,
  payment: 1,
  refund: 2,
  credit_note: 3,
};

/** Date order; at one instant the invoice first, then money in, money out, credits. */
const byDate = (a: StatementEntry, b: StatementEntry) =>
  a.at.getTime() - b.at.getTime() ||
  ORDER[a.kind] - ORDER[b.kind] ||
  (a.reference < b.reference ? -1 : a.reference > b.reference ? 1 : 0);

/**
 * The statement for [from, to): entries before `from` make the opening balance, entries in the
 * period are its lines, later ones are left out. One block per currency that has an opening
 * balance or a line, currencies in alphabetical order. closing = opening + invoiced - paid +
 * refunded - credited, exactly.
 */
export function buildStatement(
  entries: readonly StatementEntry[],
  from: Date,
  to: Date,
): CurrencyStatement[] {
  const byCurrency = new Map<string, StatementEntry[]>();
  for (const entry of entries) {
    if (entry.at.getTime() >= to.getTime()) continue;
    const list = byCurrency.get(entry.currency) ?? [];
    list.push(entry);
    byCurrency.set(entry.currency, list);
  }
  const blocks: CurrencyStatement[] = [];
  for (const currency of [...byCurrency.keys()].sort()) {
    const sorted = [...(byCurrency.get(currency) ?? [])].sort(byDate);
    let opening = 0n;
    const totals: Record<StatementLineKind, bigint> = {
      invoice: 0n,
      payment: 0n,
      refund: 0n,
      credit_note: 0n,
    };
    const lines: StatementLine[] = [];
    let balance = 0n;
    for (const entry of sorted) {
      const stroops = toStroops(entry.amount);
      if (entry.at.getTime() < from.getTime()) {
        opening += lineSign(entry.kind) * stroops;
        balance = opening;
        continue;
      }
      totals[entry.kind] += stroops;
      balance += lineSign(entry.kind) * stroops;
      lines.push({ ...entry, amount: fromStroops(stroops), balance: fromStroops(balance) });
    }
    if (lines.length === 0 && opening === 0n) continue;
    blocks.push({
      currency,
      openingBalance: fromStroops(opening),
      invoiced: fromStroops(totals.invoice),
      paid: fromStroops(totals.payment),
      refunded: fromStroops(totals.refund),
      credited: fromStroops(totals.credit_note),
      closingBalance: fromStroops(
        opening + totals.invoice - totals.payment + totals.refund - totals.credit_note,
      ),
      lines,
    });
  }
  return blocks;
}

/** A payment as the statement reads it (its refunds are counted against it in order). */
export type StatementPayment = RefundedPayment & { priceValue?: string | null };

/**
 * What each confirmed refund of one payment takes off the client's account, in the invoice's
 * unit, refunds in the order they were confirmed: only what the payment still had counts (as
 * `refundEffect` in lib/domain/refund.ts lowers amountPaid), valued at the payment's share of
 * its priceValue on a fiat-priced invoice. A refund of a payment that was not applied counts 0.
 */
export function refundValues(
  payment: StatementPayment,
  refundAmounts: readonly string[],
): string[] {
  let refunded = 0n;
  const whole = toStroops(payment.amount);
  return refundAmounts.map((amount) => {
    const left = whole - refunded;
    const sent = toStroops(amount);
    // bigint: no Math.min.
    const counts = sent < left ? sent : left > 0n ? left : 0n;
    refunded += counts;
    if (!payment.applied) return fromStroops(0n);
    const countsAmount = fromStroops(counts);
    return payment.priceValue != null ? valueShare(payment, countsAmount) : countsAmount;
  });
}

/** What a payment counts for on the account: its amount, or its priceValue when fiat-valued. */
export const paymentValue = (payment: StatementPayment): string =>
  payment.priceValue != null ? payment.priceValue : payment.amount;
