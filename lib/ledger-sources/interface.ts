import type { PaymentOperation, PaymentTransaction } from "@/lib/domain/payment-match";
import type { Logger } from "@/lib/logger";
import type { NetworkName } from "@/lib/schemas/common";
import type { PathAsset, PaymentPath } from "@/lib/stellar/paths";

/**
 * A ledger source: everything the service reads from or sends to a Stellar network, in the
 * domain's own types (ARCHITECTURE.md, Ledger sources). One implementation per folder
 * (`horizon/`: its client, its transform from the wire's records, the source); which one a
 * network uses is chosen in one place, `ledgerSourceFor` (lib/ledger-sources/index.ts, config
 * `LEDGER_SOURCE`). Failures throw `LedgerSourceError` (errors.ts).
 */
export type LedgerSourceKind = "horizon" | "rpc";

export interface LedgerSource {
  readonly kind: LedgerSourceKind;
  readonly network: NetworkName;
  readonly passphrase: string;

  /**
   * The watcher's reading, from a cursor onwards, oldest first (one request a page). `scope`:
   * the only wallets whose payments (to them, and from them: refunds) matter, when the source
   * can filter by them (`walletFilterLimit`); the page may then leave out everything else.
   */
  paymentsPage(
    cursor: string,
    limit: number,
    scope?: { wallets: readonly string[] },
  ): Promise<PaymentsPage>;
  /** How many wallets `paymentsPage` can filter by (Stellar RPC's filter limits); none: 0. */
  readonly walletFilterLimit?: number;
  /** A cursor that means "from now on" (one request). */
  latestCursor(): Promise<string>;
  /**
   * A cursor at the newest ledger closed at or before `at`, looking back a bounded number of
   * requests; when `at` is older still, the oldest ledger seen (or the network's start).
   */
  cursorBefore(at: Date): Promise<{ cursor: string; requests: number }>;

  /** One transaction by hash (inner or outer of a fee-bump) with all its payment operations. */
  transaction(hash: string): Promise<PaymentTransaction | null>;
  /** Sends a signed envelope; throws `transaction_failed` with the ledger's codes, or `timeout`. */
  submit(envelopeXdr: string): Promise<SubmittedTransaction>;

  /** An account's sequence and balances; null when the network does not know it. */
  account(id: string): Promise<LedgerAccount | null>;
  /** The network's current base fee in stroops. */
  baseFee(): Promise<number>;
  /** Every path delivering exactly `destAmount` of `destAsset` (the path finder). */
  strictReceivePaths(opts: {
    source: string | PathAsset[];
    destAsset: PathAsset;
    destAmount: string;
  }): Promise<PaymentPath[]>;

  /**
   * A wake-up signal on new ledgers that applied operations (and on every reconnection): the
   * cursor-based watcher does the reading.
   */
  followLedgers(onActivity: () => void, logger: Logger): { stop: () => void };
}

/**
 * A page of the network's payments: each transaction that has payment-like operations on the
 * page, in ledger order, with those operations (`PaymentTransaction`, refunds included: a
 * refund is a payment whose memo names it).
 */
export type PaymentsPage = {
  transactions: PagedTransaction[];
  /** How many records the page read (operations of any payment-like type). */
  read: number;
  /** Where the next page starts (the cursor given when the page was empty). */
  cursor: string;
  /** The page was full: more payments are waiting. */
  full: boolean;
  /**
   * The source no longer holds the ledgers from the cursor on (Stellar RPC's retention): they
   * are `fromLedger`..`toLedger`, and `cursor` continues at the oldest ledger it holds. The
   * watcher reads the gap through Horizon when it can (lib/jobs/watcher.ts).
   */
  gap?: { fromLedger: number; toLedger: number };
};

export type PagedTransaction = {
  transaction: PaymentTransaction;
  /**
   * The page may have cut this transaction (the last of a full page, its further operations
   * on the next page), or read it only in part (Stellar RPC's events do not say the operation
   * types): `transaction(hash)` reads it whole before it is recorded.
   */
  maybeCut: boolean;
};

export type { PaymentOperation, PaymentTransaction };

/** An account as the checks read it (the fields and names Horizon's account resource uses). */
export type LedgerAccount = {
  id: string;
  sequence: string;
  balances: {
    asset_type: string;
    asset_code?: string;
    asset_issuer?: string;
    balance: string;
    limit?: string;
    /** Trustlines only: what open offers may still buy (counts against the limit). */
    buying_liabilities?: string;
    /** Trustlines only: false when the issuer has not authorized (or froze) it. */
    is_authorized?: boolean;
  }[];
};

export type SubmittedTransaction = { hash: string; ledger: number; successful: boolean };
