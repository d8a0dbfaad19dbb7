import {
  type DomainError,
  LedgerError,
  NetworkBusyError,
  UnavailableError,
} from "@/lib/domain/errors";
import { LedgerSourceError } from "@/lib/ledger-sources/errors";

export const NETWORK_BUSY = "Network is busy. Please wait a moment and try again.";
export const NETWORK_UNAVAILABLE =
  "Stellar network is temporarily unavailable. Please try again later.";

/** Ledger result codes -> their fixed messages (docs/decisions.md, Payment checks). */
export const LEDGER_MESSAGES: Record<string, string> = {
  op_underfunded:
    "Insufficient balance. Make sure the wallet has enough XLM for amount, reserve, and fees.",
  op_no_trust:
    "Your wallet does not have a trustline for this asset. Please add a trustline in your wallet.",
  op_no_destination: "Recipient wallet is not activated on this network. It must be funded first.",
  op_line_full: "The recipient wallet cannot receive more of this asset (limit reached).",
  op_low_reserve:
    "Insufficient reserve in the sending wallet. Keep extra XLM above the minimum account reserve.",
  op_no_issuer: "Asset issuer account was not found on this network.",
  op_src_no_trust: "Sender wallet does not trust this asset. Add a trustline and try again.",
  tx_bad_seq: "Transaction sequence error. Please try again.",
  tx_too_late: "The transaction timed out. Please create a new payment and try again.",
  tx_insufficient_fee: "Transaction fee was too low. Please try again.",
  tx_bad_auth: "Transaction authorization failed. Please reconnect your wallet and sign again.",
};

/** The first ledger code that explains a failed submission (operation codes first). */
export function primaryLedgerCode(transaction: string, operations: string[]): string {
  const op = operations.find((c) => c !== "op_success");
  if ((transaction === "tx_failed" || transaction === "tx_fee_bump_inner_failed") && op) return op;
  return transaction;
}

/**
 * op_underfunded when the payer sends another asset than XLM: the asset the balance lacks is
 * named (the spec's XLM message stays for XLM; docs/decisions.md, Payment checks).
 */
export const underfundedIn = (assetCode: string) =>
  `Insufficient balance. Make sure the wallet has enough ${assetCode} for the amount, and XLM for reserve and fees.`;

/**
 * The domain error of a ledger result code. `sentAsset` is the code of the asset the failing
 * operation sends, when known: op_underfunded then names it.
 */
export function ledgerError(code: string, sentAsset?: string | null): LedgerError {
  if (code === "op_underfunded" && sentAsset && sentAsset !== "XLM") {
    return new LedgerError(code, underfundedIn(sentAsset));
  }
  return new LedgerError(
    code,
    LEDGER_MESSAGES[code] ?? `Transaction failed on the network (${code})`,
  );
}

/**
 * The asset code the first failing operation sends (`sends` per operation index, as
 * `decodeSignedTransaction` lists them); null when unknown.
 */
export function failedOperationSends(
  operations: string[],
  sends: (string | null)[],
): string | null {
  const i = operations.findIndex((c) => c !== "op_success");
  return i >= 0 ? (sends[i] ?? null) : sends.length === 1 ? (sends[0] ?? null) : null;
}

/** Maps a ledger source's failure to the domain error the API answers with. */
export function toDomainError(err: LedgerSourceError): DomainError {
  const f = err.failure;
  switch (f.kind) {
    case "transaction_failed":
      return ledgerError(primaryLedgerCode(f.transaction, f.operations));
    case "rate_limited":
      return new NetworkBusyError(NETWORK_BUSY, f.retryAfter);
    case "unavailable":
    case "timeout":
    case "not_found":
    case "bad_request":
      return new UnavailableError(NETWORK_UNAVAILABLE);
  }
}

/**
 * Runs a ledger source call, turning its failures into domain errors (not_found stays for
 * callers).
 */
export async function viaLedger<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof LedgerSourceError && err.failure.kind !== "not_found")
      throw toDomainError(err);
    throw err;
  }
}
