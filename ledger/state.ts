/**
 * In-memory ledger state: account entries (with trustlines), closed ledger headers, and the
 * history of applied transactions and operations that Horizon-style endpoints read from.
 * Everything here is plain data so it can be snapshotted to JSON (BigInt as strings).
 */

export interface TrustlineEntry {
  code: string;
  issuer: string;
  balance: bigint;
  limit: bigint;
  lastModifiedLedger: number;
}

export interface AccountEntry {
  id: string;
  balance: bigint;
  seqNum: bigint;
  seqLedger: number;
  /** unix seconds */
  seqTime: number;
  subentries: number;
  lastModifiedLedger: number;
  /** unix seconds */
  lastModifiedTime: number;
  /** keyed by `${code}:${issuer}` */
  trustlines: Record<string, TrustlineEntry>;
  /** manage_data entries: name -> value, base64 (each one a subentry) */
  data?: Record<string, string>;
  /** set_options home domain */
  homeDomain?: string;
}

export interface LedgerHeader {
  sequence: number;
  hash: string;
  prevHash: string;
  /** unix seconds */
  closeTime: number;
  successfulTxCount: number;
  failedTxCount: number;
  operationCount: number;
  txSetOperationCount: number;
  totalCoins: bigint;
  feePool: bigint;
  baseFee: number;
  baseReserve: number;
  protocolVersion: number;
  maxTxSetSize: number;
}

/** extras.result_codes as Horizon renders them */
export interface ResultCodes {
  transaction: string;
  inner_transaction?: string;
  operations?: string[];
}

export interface TxRecord {
  /** hash of the submitted envelope (outer hash for fee bumps) */
  hash: string;
  /** inner transaction hash, for fee bumps only */
  innerHash?: string;
  ledger: number;
  applicationOrder: number;
  pagingToken: string;
  /** unix seconds */
  closeTime: number;
  successful: boolean;
  sourceAccount: string;
  sourceAccountMuxed?: string;
  sourceAccountSequence: string;
  feeAccount: string;
  feeCharged: string;
  maxFee: string;
  innerMaxFee?: string;
  operationCount: number;
  envelopeXdr: string;
  resultXdr: string;
  resultCodes: ResultCodes;
  memoType: "none" | "text" | "id" | "hash" | "return";
  memo?: string;
  memoBytes?: string;
  signatures: string[];
  innerSignatures?: string[];
  timeBounds?: { minTime: string; maxTime: string };
  ledgerBounds?: { minLedger: number; maxLedger: number };
  /** accounts this transaction touches (for /accounts/:id/transactions) */
  participants: string[];
  /** a successful Soroban transaction's return value (ScVal, base64), for its meta */
  sorobanReturnValue?: string;
}

export interface OpRecord {
  /** TOID as a decimal string; also the paging token */
  id: string;
  txHash: string;
  ledger: number;
  /** unix seconds */
  closeTime: number;
  successful: boolean;
  type: string;
  typeI: number;
  sourceAccount: string;
  sourceAccountMuxed?: string;
  /** type-specific fields, already in Horizon's JSON shape and order */
  details: Record<string, unknown>;
  participants: string[];
  /** create_account, payment, path payments, account_merge */
  isPayment: boolean;
}

export interface IssuerInfo {
  code: string;
  issuer: string;
  secret: string;
}

/** A Stellar Asset Contract balance held by a contract (C...) address. */
export interface ContractBalance {
  /** the holder, a C... address */
  holder: string;
  /** SEP-11 asset string ("native" or "CODE:ISSUER") */
  asset: string;
  amount: bigint;
  lastModifiedLedger: number;
}

export interface LedgerSnapshot {
  version: 1;
  networkPassphrase: string;
  issuers: Record<string, IssuerInfo>;
  accounts: AccountEntry[];
  ledgers: LedgerHeader[];
  txs: TxRecord[];
  ops: OpRecord[];
  /** SAC balances of contract addresses (absent in snapshots older than Soroban support) */
  contractBalances?: ContractBalance[];
  /** local smart wallets: contract id -> ed25519 signer (G...) */
  wallets?: Record<string, string>;
  /** Soroban authorization nonces consumed, `${address}:${nonce}` */
  nonces?: string[];
}

export function trustlineKey(code: string, issuer: string): string {
  return `${code}:${issuer}`;
}

export function contractBalanceKey(holder: string, asset: string): string {
  return `${holder}|${asset}`;
}

export function cloneAccount(a: AccountEntry): AccountEntry {
  const trustlines: Record<string, TrustlineEntry> = {};
  for (const [k, t] of Object.entries(a.trustlines)) trustlines[k] = { ...t };
  return { ...a, trustlines, ...(a.data ? { data: { ...a.data } } : {}) };
}

/** Paging token / id of an operation: (ledger << 32) | (txOrder << 12) | opIndex (1-based). */
export function toid(ledger: number, txOrder: number, opIndex: number): bigint {
  return (BigInt(ledger) << 32n) | (BigInt(txOrder) << 12n) | BigInt(opIndex);
}

export class LedgerState {
  accounts = new Map<string, AccountEntry>();
  ledgers: LedgerHeader[] = [];
  /** ascending by paging token */
  txs: TxRecord[] = [];
  /** ascending by id */
  ops: OpRecord[] = [];
  private txByHash = new Map<string, TxRecord>();
  /** SAC balances of contract addresses, keyed by contractBalanceKey */
  contractBalances = new Map<string, ContractBalance>();
  /** local smart wallets: contract id -> ed25519 signer */
  wallets = new Map<string, string>();
  /** consumed Soroban authorization nonces, `${address}:${nonce}` */
  nonces = new Set<string>();

  constructor(
    readonly networkPassphrase: string,
    public issuers: Record<string, IssuerInfo> = {},
  ) {}

  latest(): LedgerHeader {
    const l = this.ledgers[this.ledgers.length - 1];
    if (!l) throw new Error("ledger has no genesis");
    return l;
  }

  getAccount(id: string): AccountEntry | undefined {
    return this.accounts.get(id);
  }

  putAccount(a: AccountEntry): void {
    this.accounts.set(a.id, a);
  }

  deleteAccount(id: string): void {
    this.accounts.delete(id);
  }

  findTx(hash: string): TxRecord | undefined {
    return this.txByHash.get(hash);
  }

  addTx(tx: TxRecord, ops: OpRecord[]): void {
    this.txs.push(tx);
    this.txByHash.set(tx.hash, tx);
    if (tx.innerHash) this.txByHash.set(tx.innerHash, tx);
    this.ops.push(...ops);
  }

  addLedger(h: LedgerHeader): void {
    this.ledgers.push(h);
  }

  findLedger(sequence: number): LedgerHeader | undefined {
    const first = this.ledgers[0]?.sequence ?? 1;
    const l = this.ledgers[sequence - first];
    return l?.sequence === sequence ? l : undefined;
  }

  toSnapshot(): LedgerSnapshot {
    return {
      version: 1,
      networkPassphrase: this.networkPassphrase,
      issuers: this.issuers,
      accounts: [...this.accounts.values()],
      ledgers: this.ledgers,
      txs: this.txs,
      ops: this.ops,
      contractBalances: [...this.contractBalances.values()],
      wallets: Object.fromEntries(this.wallets),
      nonces: [...this.nonces],
    };
  }

  static fromSnapshot(s: LedgerSnapshot): LedgerState {
    const state = new LedgerState(s.networkPassphrase, s.issuers);
    for (const a of s.accounts) state.putAccount(a);
    for (const l of s.ledgers) state.addLedger(l);
    const opsByTx = new Map<string, OpRecord[]>();
    for (const op of s.ops) {
      const list = opsByTx.get(op.txHash) ?? [];
      list.push(op);
      opsByTx.set(op.txHash, list);
    }
    for (const tx of s.txs) state.addTx(tx, opsByTx.get(tx.hash) ?? []);
    for (const b of s.contractBalances ?? []) {
      state.contractBalances.set(contractBalanceKey(b.holder, b.asset), b);
    }
    for (const [id, signer] of Object.entries(s.wallets ?? {})) state.wallets.set(id, signer);
    for (const n of s.nonces ?? []) state.nonces.add(n);
    return state;
  }
}

/** JSON text of a snapshot; BigInt fields become decimal strings. */
export function serializeSnapshot(s: LedgerSnapshot): string {
  return JSON.stringify(s, (_k, v) => (typeof v === "bigint" ? v.toString() : v));
}

/** Parses a snapshot written by serializeSnapshot, restoring the BigInt fields. */
export function parseSnapshot(text: string): LedgerSnapshot {
  const raw = JSON.parse(text) as LedgerSnapshot;
  for (const a of raw.accounts) {
    a.balance = BigInt(a.balance);
    a.seqNum = BigInt(a.seqNum);
    for (const t of Object.values(a.trustlines)) {
      t.balance = BigInt(t.balance);
      t.limit = BigInt(t.limit);
    }
  }
  for (const b of raw.contractBalances ?? []) b.amount = BigInt(b.amount);
  for (const l of raw.ledgers) {
    l.totalCoins = BigInt(l.totalCoins);
    l.feePool = BigInt(l.feePool);
  }
  return raw;
}

/**
 * A copy-on-read overlay over the account map, used to apply a transaction's operations
 * atomically: if any operation fails, the overlay is dropped.
 */
export class AccountView {
  private loaded = new Map<string, AccountEntry | null>();
  private dirty = new Set<string>();

  constructor(private readonly base: { getAccount(id: string): AccountEntry | undefined }) {}

  get(id: string): AccountEntry | undefined {
    if (this.loaded.has(id)) return this.loaded.get(id) ?? undefined;
    const found = this.base.getAccount(id);
    const copy = found ? cloneAccount(found) : null;
    this.loaded.set(id, copy);
    return copy ?? undefined;
  }

  exists(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** Marks an account (new or loaded and mutated) as changed. */
  save(a: AccountEntry): void {
    this.loaded.set(a.id, a);
    this.dirty.add(a.id);
  }

  commit(into: LedgerState, ledgerSeq: number, closeTime: number): void {
    for (const id of this.dirty) {
      const a = this.loaded.get(id);
      if (!a) continue;
      a.lastModifiedLedger = ledgerSeq;
      a.lastModifiedTime = closeTime;
      into.putAccount(a);
    }
  }
}
