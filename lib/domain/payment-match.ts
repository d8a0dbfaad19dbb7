import { type InvoiceStatus, isPayable } from "./invoice-state";
import type { Currency } from "./money";
import { canonicalAmount, fromStroops, toStroops, trimAmount } from "./money";
import { isMuxedId, mayNameInvoice } from "./muxed";
import type { UnappliedReason } from "./unapplied";

// The one payment classifier (docs/decisions.md, "Payment checks" and "Partial payments"),
// shared by submit, confirm and the watcher. It is pure: callers fetch the transaction from
// the Horizon of the invoice's own network, normalise it into PaymentTransaction, and look up
// which invoice its operations to the freelancer wallet are already recorded for. It either
// rejects the transaction for this invoice, or lists every operation that reached the
// freelancer wallet with the invoice's memo or at the invoice's muxed address, each applied or
// not. A transaction's operations to one wallet belong to one invoice; its operations to other
// wallets are other invoices' (or nobody's): see `invoiceKeys`, `muxedKeys` and `partOwner`
// (docs/decisions.md, Muxed addresses).

/** Transactions up to this much older than the invoice still count (clock skew). */
export const CLOCK_SKEW_MS = 60_000;

export type PaymentTerms = {
  invoiceNumber: string;
  freelancerWallet: string;
  currency: Currency;
  /** Decimal string, e.g. "100.0000000". */
  total: string;
  createdAt: Date;
  /** Payment links with activateNewAccounts: accept create_account for XLM. */
  allowCreateAccount: boolean;
  /** The invoice's status before this transaction: it decides applied or not. */
  status: InvoiceStatus;
  /** Soft-deleted: payments are recorded, never applied (`invoice_not_sent`). */
  deleted: boolean;
  /**
   * A reusable or open-amount link itself (not one of its checkouts): paid through its
   * checkouts only, so a payment to its memo is never applied (`link_parent`).
   */
  linkParent?: boolean;
  /** A checkout whose link has no place left for it: never applied (`link_full`). */
  linkFull?: boolean;
  /**
   * The 64-bit id of the invoice's muxed address (decimal string; lib/domain/muxed.ts): an
   * operation to the freelancer wallet with this `toMuxedId` pays the invoice, memo or not.
   */
  muxedId?: string | null;
};

export type PaymentOperationType =
  | "payment"
  | "path_payment_strict_receive"
  | "path_payment_strict_send"
  | "create_account"
  // A Stellar Asset Contract `transfer(from, to, amount)` (an invoke_host_function operation,
  // e.g. from a smart wallet's C address): pays like a payment.
  | "contract_transfer"
  // Any other operation type; never pays an invoice.
  | (string & {});

export type PaymentOperation = {
  type: PaymentOperationType;
  /** Index of the operation in its transaction's operation list; the list position if absent. */
  index?: number;
  /**
   * The operation's network-wide identity (Horizon's operation id, a TOID: ledger,
   * transaction order, operation order), when read from the ledger; absent for an envelope
   * not yet applied. The same whichever hash of a fee-bump transaction it was read through.
   */
  id?: string;
  /**
   * Operation source (a G account, or the C contract of a smart wallet for a
   * contract_transfer); falls back to the transaction source when absent.
   */
  from?: string | null;
  /** Recipient (`to`, or `account` for create_account): always the base G account. */
  to: string;
  /**
   * The 64-bit id (decimal string) of a muxed destination (`M...` = `to` + this id), as
   * Horizon's `to_muxed_id` or a CAP-67 event's u64 `to_muxed_id` carry it; null or absent
   * when the destination was not muxed.
   */
  toMuxedId?: string | null;
  /**
   * The sender's `M...` address when it sent from a muxed account (Horizon's `from_muxed`, an
   * envelope's muxed source): `from` is then its base G account. Its refund goes back here.
   */
  fromMuxed?: string | null;
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
  /**
   * The transaction's hash as the ledger records its operations: for a fee-bump transaction
   * the outer (fee-bump) hash, whichever hash it was looked up by (docs/decisions.md,
   * Fee-bump transactions).
   */
  hash: string;
  /** A fee-bump transaction's inner transaction hash; null (or absent) otherwise. */
  innerHash?: string | null;
  successful: boolean;
  memoType: "text" | "id" | "hash" | "return" | "none";
  memo: string | null;
  createdAt: Date;
  ledger: number;
  sourceAccount: string;
  operations: readonly PaymentOperation[];
};

export type ClassifyInput = {
  invoiceId: string;
  invoice: PaymentTerms;
  /** Issuer of the invoice currency on the invoice's network; null for XLM. */
  expectedIssuer: string | null;
  transaction: PaymentTransaction;
  /**
   * Id of the invoice this transaction's operations to the freelancer wallet are already
   * recorded for, or null when none are.
   */
  recordedFor: string | null;
  /**
   * The freelancer wallet's other invoices of the network this transaction names: by the muxed
   * id of an operation to the wallet, or by its text memo (the caller looks them up,
   * `invoicesNamedBy` in lib/services/payments/record-payment.ts). They decide whose part
   * the operations are when the address and the memo disagree; none when absent.
   */
  otherInvoices?: { muxedIds: readonly string[]; numbers: readonly string[] };
};

/** One operation that reached the freelancer wallet with the invoice's memo. */
export type ClassifiedOperation = {
  operationIndex: number;
  /** The operation's ledger id (TOID) when it was read from the ledger; null otherwise. */
  operationId: string | null;
  from: string;
  to: string;
  /** Canonical 7-decimal string of what the freelancer received. */
  amount: string;
  assetCode: string;
  assetIssuer: string | null;
  applied: boolean;
  unappliedReason: UnappliedReason | null;
  /** Sent from the freelancer's own wallet: never recorded, never counts. */
  selfPayment: boolean;
  /** The sender's M address when it sent from a muxed account (absent otherwise). */
  fromMuxed?: string;
  /** The muxed id it was sent to (its M destination's, or a memo id: `muxedIdOf`); absent otherwise. */
  toMuxedId?: string;
};

export type Classification =
  | {
      ok: true;
      hash: string;
      ledger: number;
      createdAt: Date;
      operations: ClassifiedOperation[];
    }
  | { ok: false; reason: "not_successful" | "mismatch"; message: string };

const PAYMENT_TYPES: ReadonlySet<string> = new Set([
  "payment",
  "contract_transfer",
  "path_payment_strict_receive",
  "path_payment_strict_send",
]);

export const NOT_SUCCESSFUL_MESSAGE = "Transaction was not successful";
export const MISMATCH_MESSAGE = "Transaction does not match invoice";
export const OWN_INVOICE_MESSAGE = "Cannot pay your own invoice";
const mismatch: Classification = { ok: false, reason: "mismatch", message: MISMATCH_MESSAGE };

/** `Underpayment: paid X, expected Y` with trimmed amounts. */
export function underpaymentMessage(paid: string, expected: string): string {
  return `Underpayment: paid ${trimAmount(paid)}, expected ${trimAmount(expected)}`;
}

/**
 * Runs the checks in the order docs/decisions.md lists them: a failed transaction, no paying
 * operation to the freelancer wallet, a part (the operations to the wallet) that is not this
 * invoice's, a transaction older than the invoice (60 s of skew) and operations to the
 * freelancer wallet recorded for another invoice reject the transaction. The part is the
 * invoice's when its first operation to a muxed address naming one of the wallet's invoices
 * is to this invoice's address; failing such an operation, when the text memo is the invoice
 * number (id/hash/return memos never match). Otherwise every paying operation to the
 * freelancer wallet is listed: applied when the invoice was payable, the address and the memo
 * do not name different invoices (`memo_mismatch`) and the asset is the invoice currency from
 * the trusted issuer, else unapplied with a reason. Operations already recorded for *this*
 * invoice pass: the caller sees its rows and answers "already recorded".
 */
export function classifyPayment(input: ClassifyInput): Classification {
  const { invoice, transaction } = input;
  if (!transaction.successful) {
    return { ok: false, reason: "not_successful", message: NOT_SUCCESSFUL_MESSAGE };
  }
  const reaching = transaction.operations
    .map((op, position) => ({ op, index: op.index ?? position }))
    .filter(({ op }) => paysByType(op, invoice) && op.to === invoice.freelancerWallet);
  if (reaching.length === 0) return mismatch;
  const others = input.otherInvoices ?? { muxedIds: [], numbers: [] };
  const own = invoice.muxedId ?? null;
  const memo = transaction.memoType === "text" ? transaction.memo : null;
  // The address decides first: where the money was sent (docs/decisions.md, Muxed addresses).
  const idOf = (op: PaymentOperation) => muxedIdOf(op, transaction);
  const addressed = reaching.find(({ op }) => {
    const id = idOf(op);
    return id !== null && (id === own || others.muxedIds.includes(id));
  });
  if (addressed ? idOf(addressed.op) !== own : memo !== invoice.invoiceNumber) {
    return mismatch;
  }
  // Sent to this invoice's address with a memo naming another of the wallet's invoices.
  const memoNamesOther =
    addressed !== undefined &&
    memo !== null &&
    memo !== invoice.invoiceNumber &&
    others.numbers.includes(memo);
  if (transaction.createdAt.getTime() < invoice.createdAt.getTime() - CLOCK_SKEW_MS) {
    return mismatch;
  }
  if (input.recordedFor !== null && input.recordedFor !== input.invoiceId) {
    return mismatch;
  }
  const stateReason = reasonFromState(invoice);
  return {
    ok: true,
    hash: transaction.hash,
    ledger: transaction.ledger,
    createdAt: transaction.createdAt,
    operations: reaching.map(({ op, index }) => {
      const from = op.from || transaction.sourceAccount;
      // Named otherwise by the memo, or sent to another invoice's muxed address: recorded
      // where the part was sent, never counted. A muxed id that names no invoice of the
      // wallet (another service's) is no mismatch: the memo or the first address decides.
      const id = idOf(op);
      const mismatched =
        memoNamesOther || (id !== null && id !== own && others.muxedIds.includes(id));
      const reason: UnappliedReason | null = mismatched
        ? "memo_mismatch"
        : isInvoiceAsset(op, invoice, input.expectedIssuer)
          ? stateReason
          : "wrong_asset";
      return {
        operationIndex: index,
        operationId: op.id ?? null,
        from,
        to: op.to,
        amount: canonicalAmount(op.amount),
        assetCode: op.assetCode,
        assetIssuer: op.assetIssuer,
        applied: reason === null,
        unappliedReason: reason,
        selfPayment: from === invoice.freelancerWallet,
        ...(op.fromMuxed ? { fromMuxed: op.fromMuxed } : {}),
        ...(idOf(op) !== null ? { toMuxedId: idOf(op) as string } : {}),
      };
    }),
  };
}

/**
 * The invoices a transaction may pay, as (number, wallet) keys: its text memo with every wallet
 * a paying operation (create_account included; the classifier decides per invoice) reaches,
 * in operation order, each once. A transaction's operations to one wallet belong to that
 * wallet's invoice numbered as the memo (docs/decisions.md, Partial payments). None for a
 * failed transaction or one without a text memo.
 */
export function invoiceKeys(
  transaction: PaymentTransaction,
): { invoiceNumber: string; wallet: string }[] {
  const memo = transaction.memo;
  if (!transaction.successful || transaction.memoType !== "text" || !memo) return [];
  const wallets = transaction.operations
    .filter((op) => PAYMENT_TYPES.has(op.type) || op.type === "create_account")
    .map((op) => op.to);
  return [...new Set(wallets)].map((wallet) => ({ invoiceNumber: memo, wallet }));
}

/**
 * The muxed addresses a transaction's paying operations reach, as (wallet, muxed id) keys in
 * operation order, each once: each may name an invoice of that wallet whatever the memo
 * (docs/decisions.md, Muxed addresses). None for a failed transaction.
 */
export function muxedKeys(transaction: PaymentTransaction): { wallet: string; muxedId: string }[] {
  if (!transaction.successful) return [];
  const seen = new Set<string>();
  const keys: { wallet: string; muxedId: string }[] = [];
  for (const op of transaction.operations) {
    const id = PAYMENT_TYPES.has(op.type) ? muxedIdOf(op, transaction) : null;
    if (id === null || !mayNameInvoice(id)) continue;
    const key = `${op.to}:${id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    keys.push({ wallet: op.to, muxedId: id });
  }
  return keys;
}

/**
 * The muxed id an operation was sent to: its destination's (`toMuxedId`), else a memo id of
 * its transaction, which names the same thing for a G destination (a wallet that cannot send
 * to an M address writes it as G + memo id, and a CAP-67 event carries the memo id as its
 * `to_muxed_id`: the Horizon and RPC sources then agree); null otherwise.
 */
export function muxedIdOf(
  op: Pick<PaymentOperation, "toMuxedId">,
  transaction: Pick<PaymentTransaction, "memoType" | "memo">,
): string | null {
  // A source's to_muxed_id that is no uint64 (CAP-67 carries a text or hash memo there too)
  // is no muxed address: the memo itself is read as a memo.
  if (op.toMuxedId && isMuxedId(op.toMuxedId)) return op.toMuxedId;
  return transaction.memoType === "id" && transaction.memo ? transaction.memo : null;
}

/**
 * Whose part a transaction's operations to `wallet` are, among that wallet's invoices it
 * names (`invoices`: found by `invoiceKeys` and `muxedKeys`): the invoice of the first
 * operation to a muxed address that names one, else the invoice numbered as the text memo;
 * null when neither. The same rule `classifyPayment` applies to one invoice.
 */
export function partOwner<T extends { invoiceNumber: string; muxedId: string | null }>(
  transaction: PaymentTransaction,
  wallet: string,
  invoices: readonly T[],
): T | null {
  for (const key of muxedKeys(transaction)) {
    if (key.wallet !== wallet) continue;
    const byAddress = invoices.find((i) => i.muxedId === key.muxedId);
    if (byAddress) return byAddress;
  }
  const memo = transaction.memoType === "text" ? transaction.memo : null;
  if (!transaction.successful || !memo) return null;
  return invoices.find((i) => i.invoiceNumber === memo) ?? null;
}

/** The operations that are recorded: all but the freelancer's payments to themself. */
export function recordable(operations: readonly ClassifiedOperation[]): ClassifiedOperation[] {
  return operations.filter((op) => !op.selfPayment);
}

/** What the recorded, applied operations add to amountPaid (7 decimals). */
export function appliedAmount(operations: readonly ClassifiedOperation[]): string {
  return fromStroops(
    recordable(operations)
      .filter((op) => op.applied)
      .reduce((sum, op) => sum + toStroops(op.amount), 0n),
  );
}

/** Why nothing of this transaction could apply, from the invoice's state; null when payable. */
function reasonFromState(invoice: PaymentTerms): UnappliedReason | null {
  if (invoice.deleted || invoice.status === "DRAFT") return "invoice_not_sent";
  // Whatever its state: a link paid through checkouts never takes a payment itself.
  if (invoice.linkParent) return "link_parent";
  if (invoice.status === "CANCELLED") return "invoice_cancelled";
  if (invoice.status === "PAID") return "already_paid";
  if (!isPayable(invoice.status)) return "invoice_not_sent";
  return invoice.linkFull ? "link_full" : null;
}

function paysByType(op: PaymentOperation, invoice: PaymentTerms): boolean {
  if (PAYMENT_TYPES.has(op.type)) return true;
  // create_account only moves XLM, and only links that opted in accept it.
  return op.type === "create_account" && invoice.allowCreateAccount && invoice.currency === "XLM";
}

/** The invoice currency from the trusted issuer: a USDC from any other issuer is not USDC. */
function isInvoiceAsset(
  op: PaymentOperation,
  invoice: PaymentTerms,
  expectedIssuer: string | null,
): boolean {
  if (op.assetCode !== invoice.currency) return false;
  if (invoice.currency === "XLM") return op.assetIssuer === null;
  return expectedIssuer !== null && op.assetIssuer === expectedIssuer;
}
