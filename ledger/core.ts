/**
 * The ledger engine: genesis, the submission queue, ledger closing, and the built-in
 * transactions (issuer bootstrap, friendbot, local funding) that go through the same path as
 * any submitted transaction. No HTTP here.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import {
  Account,
  Address,
  Asset,
  Contract,
  Keypair,
  Memo,
  nativeToScVal,
  Operation,
  StrKey,
  TimeoutInfinite,
  TransactionBuilder,
  type xdr,
} from "@stellar/stellar-sdk";
import { STROOPS_PER_UNIT, toStroops } from "./amount";
import { type ApplyContext, applyTransaction } from "./apply";
import { type ParsedTx, parseEnvelope } from "./envelope";
import { buildRecords } from "./records";
import { resultCodes, resultXdr, type TxOutcome } from "./results";
import { ContractView, invoke, recommendedData, sacContracts, walletContractId } from "./soroban";
import {
  type AccountEntry,
  AccountView,
  type IssuerInfo,
  type LedgerHeader,
  LedgerState,
  parseSnapshot,
  serializeSnapshot,
  type TxRecord,
  trustlineKey,
} from "./state";
import { checkValid } from "./validate";

export const PROTOCOL_VERSION = 23;
const TOTAL_COINS = 100_000_000_000n * STROOPS_PER_UNIT;
const ISSUER_STARTING_BALANCE = "10000000";
export const FRIENDBOT_STARTING_BALANCE = "10000";

export interface CoreOptions {
  networkPassphrase: string;
  baseFee: number;
  baseReserve: number;
  /** issuer secrets by asset code; random keys are generated for missing ones */
  issuers: Record<string, string | undefined>;
  /** credit units per 1 XLM, per asset code */
  xlmRates: Record<string, string>;
  snapshotFile?: string;
  /** milliseconds since the epoch */
  now: () => number;
}

export type SubmitResult =
  | { kind: "malformed"; envelopeXdr: string; error: string }
  /** rejected before inclusion (never in a ledger, no fee charged) */
  | {
      kind: "rejected";
      envelopeXdr: string;
      hash: string;
      resultXdr: string;
      codes: TxRecord["resultCodes"];
    }
  /** included in a ledger, successfully or not */
  | { kind: "applied"; record: TxRecord };

interface Pending {
  parsed: ParsedTx;
  promise: Promise<SubmitResult>;
  resolve(r: SubmitResult): void;
}

export class LedgerCore {
  readonly state: LedgerState;
  readonly root: Keypair;
  readonly baseFee: bigint;
  readonly baseReserve: bigint;
  private pending: Pending[] = [];
  private closeListeners = new Set<(ledger: LedgerHeader) => void>();
  private submitListeners = new Set<() => void>();

  constructor(private readonly opts: CoreOptions) {
    this.root = Keypair.master(opts.networkPassphrase);
    this.baseFee = BigInt(opts.baseFee);
    this.baseReserve = BigInt(opts.baseReserve);
    const snapshot = this.loadSnapshot();
    if (snapshot) {
      this.state = snapshot;
    } else {
      this.state = new LedgerState(opts.networkPassphrase);
      this.genesis();
    }
    this.setupIssuers();
  }

  get networkPassphrase(): string {
    return this.opts.networkPassphrase;
  }

  nowSeconds(): number {
    return Math.floor(this.opts.now() / 1000);
  }

  latest(): LedgerHeader {
    return this.state.latest();
  }

  issuers(): Record<string, IssuerInfo> {
    return this.state.issuers;
  }

  onClose(fn: (ledger: LedgerHeader) => void): () => void {
    this.closeListeners.add(fn);
    return () => this.closeListeners.delete(fn);
  }

  /** Number of ledger-close subscribers (open streams). */
  closeListenerCount(): number {
    return this.closeListeners.size;
  }

  /** Called whenever a transaction is queued (used to close ledgers on submit). */
  onSubmit(fn: () => void): () => void {
    this.submitListeners.add(fn);
    return () => this.submitListeners.delete(fn);
  }

  /** Whether a transaction with this hash is queued for the next ledger. */
  isPending(hash: string): boolean {
    return this.pending.some((p) => p.parsed.hash === hash);
  }

  pendingCount(): number {
    return this.pending.length;
  }

  /** Conversion rates usable by path payments, keyed by trustline key. */
  rates(): Map<string, bigint> {
    const rates = new Map<string, bigint>();
    for (const info of Object.values(this.state.issuers)) {
      const rate = this.opts.xlmRates[info.code];
      if (rate) rates.set(trustlineKey(info.code, info.issuer), toStroops(rate));
    }
    return rates;
  }

  /** The deployed Stellar Asset Contracts (XLM's and the issuers' assets), by contract id. */
  sacs(): Map<string, Asset> {
    return sacContracts(this.opts.networkPassphrase, this.state.issuers);
  }

  /**
   * The local smart wallet of an ed25519 signer (ledger/soroban.ts): its deterministic contract
   * id, registered once (idempotent). Local-only, like friendbot; kept in snapshots.
   */
  smartWallet(signer: string): string {
    if (!StrKey.isValidEd25519PublicKey(signer)) throw new Error(`invalid signer ${signer}`);
    const id = walletContractId(signer, this.opts.networkPassphrase);
    if (!this.state.wallets.has(id)) {
      this.state.wallets.set(id, signer);
      this.saveSnapshot();
    }
    return id;
  }

  /** Next sequence number for an account, counting transactions already queued. */
  private nextSeq(account: AccountEntry): bigint {
    let seq = account.seqNum;
    for (const p of this.pending) {
      if (p.parsed.source === account.id && p.parsed.seq > seq) seq = p.parsed.seq;
    }
    return seq + 1n;
  }

  /**
   * Validates a submitted envelope now and queues it for the next ledger. Resolves once the
   * transaction has been included (or rejected).
   */
  submit(envelopeXdr: string): Promise<SubmitResult> {
    let parsed: ParsedTx;
    try {
      parsed = parseEnvelope(envelopeXdr, this.opts.networkPassphrase);
    } catch (err) {
      return Promise.resolve({ kind: "malformed", envelopeXdr, error: String(err) });
    }
    const done = this.state.findTx(parsed.hash);
    if (done) return Promise.resolve({ kind: "applied", record: done });
    const queued = this.pending.find((p) => p.parsed.hash === parsed.hash);
    if (queued) return queued.promise;

    const latest = this.latest();
    const invalid = checkValid(parsed, {
      getAccount: (id) => this.state.getAccount(id),
      baseFee: this.baseFee,
      baseReserve: this.baseReserve,
      closeTime: Math.max(this.nowSeconds(), latest.closeTime),
      ledgerSeq: latest.sequence + 1,
      nextSeq: (a) => this.nextSeq(a),
    });
    if (invalid) return Promise.resolve(this.rejected(parsed, invalid));

    let resolve!: (r: SubmitResult) => void;
    const promise = new Promise<SubmitResult>((r) => {
      resolve = r;
    });
    this.pending.push({ parsed, promise, resolve });
    for (const fn of this.submitListeners) fn();
    return promise;
  }

  private rejected(parsed: ParsedTx, outcome: TxOutcome): SubmitResult {
    return {
      kind: "rejected",
      envelopeXdr: parsed.envelopeXdr,
      hash: parsed.hash,
      resultXdr: resultXdr(outcome),
      codes: resultCodes(outcome),
    };
  }

  /** Closes a ledger now, applying every queued transaction in submission order. */
  closeLedger(): LedgerHeader {
    const prev = this.latest();
    const sequence = prev.sequence + 1;
    const closeTime = Math.max(this.nowSeconds(), prev.closeTime);
    const ctx: ApplyContext = {
      ledgerSeq: sequence,
      closeTime,
      baseFee: this.baseFee,
      baseReserve: this.baseReserve,
      rates: this.rates(),
      networkPassphrase: this.opts.networkPassphrase,
      sacs: this.sacs(),
    };
    const batch = this.pending;
    this.pending = [];
    const settled: Array<[Pending, SubmitResult]> = [];
    let order = 0;
    let successful = 0;
    let failed = 0;
    let opCount = 0;
    let txSetOpCount = 0;
    let fees = 0n;
    const hashes: string[] = [];
    for (const item of batch) {
      // Re-check against the state as it is now (earlier transactions may have changed it).
      const invalid = checkValid(item.parsed, {
        getAccount: (id) => this.state.getAccount(id),
        baseFee: this.baseFee,
        baseReserve: this.baseReserve,
        closeTime,
        ledgerSeq: sequence,
        nextSeq: (a) => a.seqNum + 1n,
      });
      if (invalid) {
        settled.push([item, this.rejected(item.parsed, invalid)]);
        continue;
      }
      order += 1;
      const applied = applyTransaction(this.state, item.parsed, ctx);
      const { tx, ops } = buildRecords(item.parsed, applied, sequence, order, closeTime);
      this.state.addTx(tx, ops);
      fees += applied.feeCharged;
      txSetOpCount += ops.length;
      if (applied.successful) {
        successful += 1;
        opCount += ops.length;
      } else {
        failed += 1;
      }
      hashes.push(tx.hash);
      settled.push([item, { kind: "applied", record: tx }]);
    }
    const header: LedgerHeader = {
      sequence,
      hash: sha256Hex(`${prev.hash}:${sequence}:${closeTime}:${hashes.join(",")}`),
      prevHash: prev.hash,
      closeTime,
      successfulTxCount: successful,
      failedTxCount: failed,
      operationCount: opCount,
      txSetOperationCount: txSetOpCount,
      totalCoins: prev.totalCoins,
      feePool: prev.feePool + fees,
      baseFee: Number(this.baseFee),
      baseReserve: Number(this.baseReserve),
      protocolVersion: PROTOCOL_VERSION,
      maxTxSetSize: 1000,
    };
    this.state.addLedger(header);
    this.saveSnapshot();
    for (const [item, result] of settled) item.resolve(result);
    for (const fn of this.closeListeners) fn(header);
    return header;
  }

  private genesis(): void {
    const closeTime = this.nowSeconds();
    this.state.putAccount({
      id: this.root.publicKey(),
      balance: TOTAL_COINS,
      seqNum: 0n,
      seqLedger: 0,
      seqTime: 0,
      subentries: 0,
      lastModifiedLedger: 1,
      lastModifiedTime: closeTime,
      trustlines: {},
    });
    this.state.addLedger({
      sequence: 1,
      hash: sha256Hex(`genesis:${this.opts.networkPassphrase}:${closeTime}`),
      prevHash: "0".repeat(64),
      closeTime,
      successfulTxCount: 0,
      failedTxCount: 0,
      operationCount: 0,
      txSetOperationCount: 0,
      totalCoins: TOTAL_COINS,
      feePool: 0n,
      baseFee: Number(this.baseFee),
      baseReserve: Number(this.baseReserve),
      protocolVersion: PROTOCOL_VERSION,
      maxTxSetSize: 1000,
    });
  }

  /**
   * Makes sure each configured asset has an issuer account, creating the missing ones with a
   * real create_account transaction from the root account in a new ledger.
   */
  private setupIssuers(): void {
    const toCreate: IssuerInfo[] = [];
    for (const [code, secret] of Object.entries(this.opts.issuers)) {
      const known = this.state.issuers[code];
      const kp = secret
        ? Keypair.fromSecret(secret)
        : known
          ? Keypair.fromSecret(known.secret)
          : Keypair.random();
      const info = { code, issuer: kp.publicKey(), secret: kp.secret() };
      this.state.issuers[code] = info;
      if (!this.state.getAccount(info.issuer)) toCreate.push(info);
    }
    if (toCreate.length === 0) return;
    const ops = toCreate.map((i) =>
      Operation.createAccount({ destination: i.issuer, startingBalance: ISSUER_STARTING_BALANCE }),
    );
    void this.submit(this.buildInternal(this.root, ops));
    this.closeLedger();
  }

  /** Builds and signs a transaction from `signer`'s account with the next sequence number. */
  buildInternal(signer: Keypair, ops: xdr.Operation[], memo?: string): string {
    const entry = this.state.getAccount(signer.publicKey());
    if (!entry) throw new Error(`account ${signer.publicKey()} does not exist`);
    const account = new Account(entry.id, (this.nextSeq(entry) - 1n).toString());
    const builder = new TransactionBuilder(account, {
      fee: (this.baseFee * BigInt(ops.length)).toString(),
      networkPassphrase: this.opts.networkPassphrase,
    });
    for (const op of ops) builder.addOperation(op);
    if (memo) builder.addMemo(Memo.text(memo));
    const tx = builder.setTimeout(TimeoutInfinite).build();
    tx.sign(signer);
    return tx.toXDR();
  }

  /** Friendbot: creates `address` with 10,000 XLM from the root account. */
  friendbotTx(address: string): string {
    return this.buildInternal(this.root, [
      Operation.createAccount({
        destination: address,
        startingBalance: FRIENDBOT_STARTING_BALANCE,
      }),
    ]);
  }

  /**
   * A payment of `amount` of `assetCode` (XLM or a local issuer's asset) to `account`. For a
   * contract (C...) address it is a Stellar Asset Contract call: the root account's XLM
   * `transfer`, or the issuer's `mint`, prepared as simulateTransaction would prepare it.
   */
  fundTx(account: string, amount: string, assetCode: string): string {
    if (account.startsWith("C")) return this.fundContractTx(account, amount, assetCode);
    if (assetCode === "XLM" || assetCode === "native") {
      return this.buildInternal(this.root, [
        Operation.payment({ destination: account, asset: Asset.native(), amount }),
      ]);
    }
    const info = this.state.issuers[assetCode];
    if (!info) throw new Error(`unknown asset code ${assetCode}`);
    return this.buildInternal(Keypair.fromSecret(info.secret), [
      Operation.payment({ destination: account, asset: new Asset(info.code, info.issuer), amount }),
    ]);
  }

  private fundContractTx(contract: string, amount: string, assetCode: string): string {
    const native = assetCode === "XLM" || assetCode === "native";
    const info = native ? undefined : this.state.issuers[assetCode];
    if (!native && !info) throw new Error(`unknown asset code ${assetCode}`);
    const signer = info ? Keypair.fromSecret(info.secret) : this.root;
    const asset = info ? new Asset(info.code, info.issuer) : Asset.native();
    const stroops = nativeToScVal(toStroops(amount), { type: "i128" });
    const to = new Address(contract).toScVal();
    const op = info
      ? new Contract(asset.contractId(this.networkPassphrase)).call("mint", to, stroops)
      : new Contract(asset.contractId(this.networkPassphrase)).call(
          "transfer",
          new Address(signer.publicKey()).toScVal(),
          to,
          stroops,
        );
    const func = (Operation.fromXDRObject(op) as Operation.InvokeHostFunction).func;
    const out = invoke(
      {
        passphrase: this.networkPassphrase,
        ledgerSeq: this.latest().sequence + 1,
        baseReserve: this.baseReserve,
        sacs: this.sacs(),
        accounts: new AccountView(this.state), // never committed
        contracts: new ContractView(this.state), // never committed
      },
      { hostFunction: func, auth: [], source: signer.publicKey(), mode: "record" },
    );
    const entry = this.state.getAccount(signer.publicKey());
    if (!entry) throw new Error(`account ${signer.publicKey()} does not exist`);
    const build = (size: number) => {
      const account = new Account(entry.id, (this.nextSeq(entry) - 1n).toString());
      const tx = new TransactionBuilder(account, {
        fee: this.baseFee.toString(),
        networkPassphrase: this.networkPassphrase,
        sorobanData: recommendedData(out, size).data,
      })
        .addOperation(Operation.invokeHostFunction({ func, auth: out.auth }))
        .setTimeout(TimeoutInfinite)
        .build();
      tx.sign(signer);
      return tx;
    };
    // the transaction-size part of the resource fee, from the signed envelope's own size
    const size = build(0).toEnvelope().toXDR().length + 100;
    return build(size).toXDR();
  }

  private loadSnapshot(): LedgerState | undefined {
    const file = this.opts.snapshotFile;
    if (!file || !existsSync(file)) return undefined;
    const snapshot = parseSnapshot(readFileSync(file, "utf8"));
    if (snapshot.networkPassphrase !== this.opts.networkPassphrase) {
      throw new Error(`snapshot ${file} is for "${snapshot.networkPassphrase}"`);
    }
    return LedgerState.fromSnapshot(snapshot);
  }

  private saveSnapshot(): void {
    const file = this.opts.snapshotFile;
    if (!file) return;
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, serializeSnapshot(this.state.toSnapshot()));
    renameSync(tmp, file);
  }
}

function sha256Hex(s: string): string {
  return createHash("sha256").update(s).digest("hex");
}
