import { payableTotal } from "./credit-note";
import { BusinessRuleError, ValidationError } from "./errors";
import type { InvoiceStatus } from "./invoice-state";
import { AMOUNT_SCALE, amountOverpaid, Decimal, fromStroops, toStroops } from "./money";

// Refunds (docs/decisions.md, Refunds): how much of a recorded payment may go back to its
// sender, what is sent back when the owner names no amount, and what a confirmed refund does
// to the payment and the invoice. Pure: amounts are decimal strings compared in stroops.

export const REFUND_EXCEEDS_RECEIVED = "Refund exceeds the amount received";
export const NOTHING_TO_REFUND = "Nothing left to refund on this payment";
export const REFUND_AMOUNT_REQUIRED =
  "amount is required: the invoice is paid and nothing was overpaid";

/** Prefix of a refund's text memo; `RF-` plus the refund id fits Stellar's 28 bytes. */
export const REFUND_MEMO_PREFIX = "RF-";
const MEMO_MAX_BYTES = 28;

/** The payment fields a refund reads. */
export type RefundedPayment = {
  amount: string;
  amountRefunded: string;
  applied: boolean;
  /**
   * On a fiat-priced invoice, what the payment counted for in fiat (docs/decisions.md, Fiat
   * pricing): refunded asset counts against amountPaid in proportion to it.
   */
  priceValue?: string | null;
};

/** The invoice fields a refund reads. */
export type RefundedInvoice = {
  status: InvoiceStatus;
  total: string;
  amountPaid: string;
  /** What credit notes took off the total (docs/decisions.md, Credit notes). */
  amountCredited?: string | null;
};

/** `RF-<id>`; throws when it would not fit a text memo (28 bytes). */
export function refundMemo(id: string): string {
  const memo = `${REFUND_MEMO_PREFIX}${id}`;
  if (new TextEncoder().encode(memo).length > MEMO_MAX_BYTES) {
    throw new Error(`refund memo over ${MEMO_MAX_BYTES} bytes: ${memo}`);
  }
  return memo;
}

/** The refund id a memo names, or null when the memo is not a refund's. */
export function refundIdOfMemo(memo: string | null | undefined): string | null {
  if (!memo?.startsWith(REFUND_MEMO_PREFIX)) return null;
  const id = memo.slice(REFUND_MEMO_PREFIX.length);
  return /^[a-z0-9]{20,25}$/.test(id) ? id : null;
}

/**
 * What may still be refunded, in stroops: the amount received, less what was refunded, less
 * refunds built or sent and not yet settled (`open`), which would otherwise be counted twice.
 */
export function refundableStroops(payment: RefundedPayment, open: readonly string[]): bigint {
  const pending = open.reduce((sum, a) => sum + toStroops(a), 0n);
  const left = toStroops(payment.amount) - toStroops(payment.amountRefunded) - pending;
  return left > 0n ? left : 0n;
}

/**
 * The amount of a new refund. `requested` (already a canonical amount > 0) may not exceed what
 * is refundable (400 `Refund exceeds the amount received`). Without it: the whole refundable
 * amount of an unapplied payment, or of an applied payment of an invoice that is not PAID;
 * for a PAID invoice, the overpaid part (amountPaid - total), capped by what this payment can
 * still refund. A PAID invoice that was not overpaid needs an explicit amount.
 */
export function refundAmount(
  payment: RefundedPayment,
  invoice: RefundedInvoice,
  open: readonly string[],
  requested?: string,
): string {
  const refundable = refundableStroops(payment, open);
  if (requested !== undefined) {
    const wanted = toStroops(requested);
    if (wanted <= 0n) throw new ValidationError("amount must be greater than 0");
    if (wanted > refundable) {
      throw new BusinessRuleError(REFUND_EXCEEDS_RECEIVED, {
        amount: `at most ${fromStroops(refundable)} can be refunded from this payment`,
      });
    }
    return fromStroops(wanted);
  }
  if (refundable === 0n) throw new BusinessRuleError(NOTHING_TO_REFUND);
  if (!payment.applied || invoice.status !== "PAID") return fromStroops(refundable);
  const over = toStroops(amountOverpaid(payableTotal(invoice), invoice.amountPaid));
  if (over === 0n) throw new ValidationError(REFUND_AMOUNT_REQUIRED, { amount: "required" });
  if (isFiatValued(payment)) {
    // A payment that counted for nothing (dust): all of it may go back, amountPaid is untouched.
    if (toStroops(payment.priceValue) === 0n) return fromStroops(refundable);
    // The overpaid fiat as the asset this payment carried, rounded down to the stroop.
    const asset = toStroops(assetShare(payment, fromStroops(over)));
    // bigint: no Math.min.
    if (asset < refundable) return fromStroops(asset);
    return fromStroops(refundable);
  }
  // bigint: no Math.min.
  if (over < refundable) return fromStroops(over);
  return fromStroops(refundable);
}

export type RefundEffect = {
  payment: { amountRefunded: string; status: "CONFIRMED" | "REFUNDED" };
  /** The invoice's amountPaid after the refund (lower only when the money was applied). */
  amountPaid: string;
  /**
   * What the refund sent beyond what the payment still had (amount - amountRefunded): money
   * that left the freelancer's wallet but is no refund of this payment. Absent when none.
   */
  beyondReceived?: string;
};

/**
 * What a confirmed refund of `amount` changes. The payment's amountRefunded grows and it is
 * REFUNDED once nothing is left; refunded applied money leaves amountPaid. The invoice's
 * status never moves: a PAID invoice stays PAID (its audit entry REFUNDED records the
 * refund), a payable one stays payable with the lower amountPaid.
 *
 * Never more than was received: the ledger is the truth, so a refund that reached it is
 * recorded however it got there (a refund marked EXPIRED or FAILED whose amount another
 * refund took since, sent by other means), but only what the payment still had counts
 * against it: amountRefunded never exceeds the amount and amountPaid loses only that part's
 * value. The rest is `beyondReceived` (docs/decisions.md, Refunds).
 */
export function refundEffect(
  payment: RefundedPayment,
  invoice: Pick<RefundedInvoice, "amountPaid">,
  amount: string,
): RefundEffect {
  const left = toStroops(payment.amount) - toStroops(payment.amountRefunded);
  const sent = toStroops(amount);
  // bigint: no Math.min.
  const counts = sent < left ? sent : left > 0n ? left : 0n;
  const refunded = toStroops(payment.amountRefunded) + counts;
  const countsAmount = fromStroops(counts);
  const value = isFiatValued(payment) ? valueShare(payment, countsAmount) : countsAmount;
  const paid = toStroops(invoice.amountPaid) - (payment.applied ? toStroops(value) : 0n);
  return {
    payment: {
      amountRefunded: fromStroops(refunded),
      status: refunded >= toStroops(payment.amount) ? "REFUNDED" : "CONFIRMED",
    },
    amountPaid: fromStroops(paid > 0n ? paid : 0n),
    ...(sent > counts ? { beyondReceived: fromStroops(sent - counts) } : {}),
  };
}

/** The refund fields a ledger payment is checked against. */
export type RefundTerms = {
  wallet: string;
  destination: string;
  amount: string;
  asset: string;
  assetIssuer: string | null;
  memo: string;
};

/** A payment operation as the ledger or a signed envelope shows it. */
export type RefundOperation = {
  type: string;
  from?: string | null;
  to: string;
  amount: string;
  assetCode: string;
  assetIssuer: string | null;
};

/**
 * Whether an operation of a transaction with `memo` is this refund: a `payment` from the
 * freelancer's wallet (the operation's source, else `txSource`) to the payment's sender, of
 * exactly the refund's amount, in the asset received (code and issuer), with memo `RF-<id>`.
 */
export function isRefundOperation(
  refund: RefundTerms,
  memo: string | null,
  txSource: string,
  op: RefundOperation,
): boolean {
  return (
    memo === refund.memo &&
    op.type === "payment" &&
    (op.from ?? txSource) === refund.wallet &&
    op.to === refund.destination &&
    op.assetCode === refund.asset &&
    (op.assetIssuer ?? null) === (refund.assetIssuer ?? null) &&
    toStroops(op.amount) === toStroops(refund.amount)
  );
}

/**
 * A refund to a contract account (a smart wallet's C address) is the asset contract's
 * `transfer` from the freelancer's wallet, which carries no memo (the network takes none on a
 * Soroban transaction; docs/decisions.md, Smart-wallet payers).
 */
const toContract = (refund: RefundTerms) => /^C[A-Z2-7]{55}$/.test(refund.destination);

/**
 * A signed refund is exactly the refund built: its source is the freelancer's wallet, its
 * memo `RF-<id>`, and its one operation the refund's payment; to a contract account, no memo
 * and its one operation the contract transfer of the same amount and asset.
 */
export function isExactRefund(
  refund: RefundTerms,
  tx: {
    sourceAccount: string;
    memoType: string;
    memo: string | null;
    operations: readonly RefundOperation[];
  },
): boolean {
  if (toContract(refund)) {
    const [op] = tx.operations;
    return (
      tx.sourceAccount === refund.wallet &&
      tx.memoType === "none" &&
      tx.operations.length === 1 &&
      op.type === "contract_transfer" &&
      isRefundOperation(refund, refund.memo, tx.sourceAccount, { ...op, type: "payment" })
    );
  }
  return (
    tx.sourceAccount === refund.wallet &&
    tx.memoType === "text" &&
    tx.operations.length === 1 &&
    isRefundOperation(refund, tx.memo, tx.sourceAccount, tx.operations[0])
  );
}

/** A payment of a fiat-priced invoice: it counts for its priceValue, not its asset amount. */
const isFiatValued = (
  payment: RefundedPayment,
): payment is RefundedPayment & { priceValue: string } => payment.priceValue != null;

/** The fiat value of `amount` of the payment's asset: its share of priceValue, half up. */
export function valueShare(payment: RefundedPayment, amount: string): string {
  return new Decimal(payment.priceValue as string)
    .times(amount)
    .div(payment.amount)
    .round(AMOUNT_SCALE, Decimal.roundHalfUp)
    .toFixed(AMOUNT_SCALE);
}

/** The asset amount worth `value` of the payment's priceValue, rounded down to the stroop. */
function assetShare(payment: RefundedPayment, value: string): string {
  return new Decimal(payment.amount)
    .times(value)
    .div(payment.priceValue as string)
    .round(AMOUNT_SCALE, Decimal.roundDown)
    .toFixed(AMOUNT_SCALE);
}
