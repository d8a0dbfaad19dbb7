/**
 * How a ledger source fails, whatever the source: classified once where the source talks to
 * the network (lib/ledger-sources/horizon/client.ts), mapped to the API's domain errors once
 * in lib/stellar/errors.ts (`toDomainError`, `viaLedger`).
 */
export type LedgerSourceFailure =
  | { kind: "not_found" }
  | { kind: "rate_limited"; retryAfter: number }
  | { kind: "unavailable"; detail: string }
  | { kind: "timeout" }
  | { kind: "transaction_failed"; transaction: string; operations: string[]; resultXdr?: string }
  | { kind: "bad_request"; detail: string };

export class LedgerSourceError extends Error {
  constructor(
    readonly failure: LedgerSourceFailure,
    readonly status: number,
    /** Which source answered (its name starts the message: "horizon 404: not_found"). */
    readonly source = "horizon",
  ) {
    super(`${source} ${status}: ${failure.kind}`);
  }
}
