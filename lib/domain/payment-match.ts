import type { Currency } from "./money";
import { canonicalAmount, toStroops, trimAmount } from "./money";

// The one payment verifier (docs/decisions.md "Payment checks"), shared by submit,
// confirm and the watcher. It is pure: callers fetch the transaction from the
// Horizon of the invoice's own network, normalise it into PaymentTransaction,
// and look up whether the hash already paid an invoice.

/** Transactions up to this much older than the invoice still count (clock skew). */
export const CLOCK_SKEW_MS = 60_000;

export type PaymentInvoice = {
  invoiceNumber: string;
  freelancerWallet: string;
  currency: Currency;
  /** Decimal string, e.g. "100.0000000". */
  total: string;
  createdAt: Date;
  /** Informational: the caller must already have read the transaction from this network. */
  networkPassphrase: string;
  /** Payment links with activateNewAccounts: accept create_account for XLM. */
  allowCreateAccount: boolean;
};

export type PaymentOperationType =
  | "payment"
  | "path_payment_strict_receive"
  | "path_payment_strict_send"
  | "create_account"
  // Any other Horizon operation type; never pays an invoice.
  | (string & {});

export type PaymentOperation = {
  type: PaymentOperationType;
  /** Operation source; falls back to the transaction source when absent. */
  from?: string | null;
  /** Recipient (`to`, or `account` for create_account). */
  to: string;
  /** "XLM" for the native asset. */
  assetCode: string;
  /** null for the native asset. */
  assetIssuer: string | null;
  /**
   * Decimal string received by `to`: `amount` for payments and both path
   * payments (for strict-send that is the destination amount, not
   * `source_amount`), `starting_balance` for create_account.
   */
  amount: string;
};

export type PaymentTransaction = {
  hash: string;
  successful: boolean;
  memoType: "text" | "id" | "hash" | "return" | "none";
  memo: string | null;
  createdAt: Date;
  ledger: number;
  sourceAccount: string;
  operations: readonly PaymentOperation[];
};

export type MatchPaymentInput = {
  invoiceId: string;
  invoice: PaymentInvoice;
  /** Issuer of the invoice currency on the invoice's network; null for XLM. */
  expectedIssuer: string | null;
  transaction: PaymentTransaction;
  /** Id of the invoice this hash already paid, or null when it paid nothing yet. */
  hashAlreadyUsedFor: string | null;
};

export type MatchedPayment = {
  from: string;
  to: string;
  /** Canonical 7-decimal string of what the freelancer received. */
  amount: string;
  assetCode: string;
  assetIssuer: string | null;
  ledger: number;
  hash: string;
  createdAt: Date;
};

export type MatchRejection = "not_successful" | "mismatch" | "underpayment";

export type MatchResult =
  | { ok: true; payment: MatchedPayment }
  | { ok: false; reason: MatchRejection; message: string };

const PAYMENT_TYPES: ReadonlySet<string> = new Set([
  "payment",
  "path_payment_strict_receive",
  "path_payment_strict_send",
]);

export const NOT_SUCCESSFUL_MESSAGE = "Transaction was not successful";
export const MISMATCH_MESSAGE = "Transaction does not match invoice";
const mismatch: MatchResult = { ok: false, reason: "mismatch", message: MISMATCH_MESSAGE };

/**
 * Runs the six checks in the order docs/decisions.md lists them and returns the
 * first failure. The amount rule looks at single operations: the largest
 * matching operation must cover the total on its own. Several smaller
 * operations are not summed, since docs/decisions.md asks for "one payment
 * operation" and a Payment row records one sender, recipient and amount.
 *
 * A hash that already paid *this* invoice passes: deciding "already paid" is
 * the caller's job, and the match stays idempotent across racing paths.
 */
export function matchPayment(input: MatchPaymentInput): MatchResult {
  const { invoice, transaction } = input;

  // 1. The transaction succeeded.
  if (!transaction.successful) {
    return { ok: false, reason: "not_successful", message: NOT_SUCCESSFUL_MESSAGE };
  }

  // 2. A text memo equal to the invoice number; id/hash/return memos never match.
  if (transaction.memoType !== "text" || transaction.memo !== invoice.invoiceNumber) {
    return mismatch;
  }

  // 3. An operation of a paying kind credits the freelancer wallet.
  const toFreelancer = transaction.operations.filter(
    (op) => paysByType(op, invoice) && op.to === invoice.freelancerWallet,
  );
  if (toFreelancer.length === 0) return mismatch;

  // 4. In the invoice currency from the right issuer: a USDC from any other
  // issuer is not USDC, and the native asset has no issuer at all.
  const inAsset = toFreelancer.filter((op) => isInvoiceAsset(op, invoice, input.expectedIssuer));
  if (inAsset.length === 0) return mismatch;

  // 5. At least the total, compared in stroops.
  const best = inAsset.reduce((a, b) => (toStroops(b.amount) > toStroops(a.amount) ? b : a));
  if (toStroops(best.amount) < toStroops(invoice.total)) {
    return {
      ok: false,
      reason: "underpayment",
      message: `Underpayment: paid ${trimAmount(best.amount)}, expected ${trimAmount(invoice.total)}`,
    };
  }

  // 6. Not older than the invoice (with skew), and the hash paid nothing else.
  if (transaction.createdAt.getTime() < invoice.createdAt.getTime() - CLOCK_SKEW_MS) {
    return mismatch;
  }
  if (input.hashAlreadyUsedFor !== null && input.hashAlreadyUsedFor !== input.invoiceId) {
    return mismatch;
  }

  return {
    ok: true,
    payment: {
      from: best.from || transaction.sourceAccount,
      to: best.to,
      amount: canonicalAmount(best.amount),
      assetCode: best.assetCode,
      assetIssuer: best.assetIssuer,
      ledger: transaction.ledger,
      hash: transaction.hash,
      createdAt: transaction.createdAt,
    },
  };
}

function paysByType(op: PaymentOperation, invoice: PaymentInvoice): boolean {
  if (PAYMENT_TYPES.has(op.type)) return true;
  // create_account only moves XLM, and only links that opted in accept it.
  return op.type === "create_account" && invoice.allowCreateAccount && invoice.currency === "XLM";
}

function isInvoiceAsset(
  op: PaymentOperation,
  invoice: PaymentInvoice,
  expectedIssuer: string | null,
): boolean {
  if (op.assetCode !== invoice.currency) return false;
  if (invoice.currency === "XLM") return op.assetIssuer === null;
  return expectedIssuer !== null && op.assetIssuer === expectedIssuer;
}
