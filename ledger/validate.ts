/**
 * Transaction validity checks, in the order stellar-core applies them when a transaction is
 * submitted (and again when it is applied): operation count, time/ledger bounds, fee, source
 * account, sequence number, signatures, fee balance, per-operation checks, extra signatures.
 * A failing check yields the TxOutcome that Horizon reports in `extras.result_codes`.
 */
import { Keypair, type Operation, StrKey, type xdr } from "@stellar/stellar-sdk";
import { toStroops } from "./amount";
import { baseAccount, opSource, type ParsedTx } from "./envelope";
import { type OpOutcome, opResult, SUPPORTED_OPS, type TxOutcome } from "./results";
import { sorobanDataInvalid } from "./soroban";
import type { AccountEntry } from "./state";

export interface ValidationContext {
  getAccount(id: string): AccountEntry | undefined;
  baseFee: bigint;
  baseReserve: bigint;
  /** unix seconds the time bounds are checked against */
  closeTime: number;
  /** the ledger the transaction would be included in */
  ledgerSeq: number;
  /** the sequence number the next transaction from `account` must have */
  nextSeq(account: AccountEntry): bigint;
}

export function minBalance(a: AccountEntry, baseReserve: bigint, extraSubentries = 0): bigint {
  return (2n + BigInt(a.subentries + extraSubentries)) * baseReserve;
}

/** Native balance that can be spent without going below the reserve. */
export function availableNative(a: AccountEntry, baseReserve: bigint): bigint {
  return a.balance - minBalance(a, baseReserve);
}

/**
 * Fee the ledger charges: base fee per operation (plus one for the fee-bump wrapper), plus the
 * declared Soroban resource fee of a Soroban transaction (no refund of its unused part here).
 */
export function feeToCharge(p: ParsedTx, baseFee: bigint): bigint {
  return baseFee * BigInt(p.ops.length + (p.feeBump ? 1 : 0)) + p.resourceFee;
}

const SOROBAN_OPS = new Set(["invokeHostFunction", "extendFootprintTtl", "restoreFootprint"]);

/**
 * Verifications already made, per signature of a parsed envelope and account: a transaction is
 * checked at submission and again when the ledger closes, and ed25519 in JavaScript is most of
 * the cost of applying a busy ledger (bench/mainnet.ts). A signature belongs to one envelope,
 * so its hash never changes.
 */
const verified = new WeakMap<xdr.DecoratedSignature, Map<string, boolean>>();

function verifies(kp: Keypair, hash: Buffer, sig: xdr.DecoratedSignature): boolean {
  let byAccount = verified.get(sig);
  if (!byAccount) {
    byAccount = new Map();
    verified.set(sig, byAccount);
  }
  let ok = byAccount.get(kp.publicKey());
  if (ok === undefined) {
    ok = kp.verify(hash, sig.signature());
    byAccount.set(kp.publicKey(), ok);
  }
  return ok;
}

class SignatureSet {
  private used = new Set<number>();
  constructor(
    private readonly hash: Buffer,
    private readonly signatures: xdr.DecoratedSignature[],
  ) {}

  /** True when `account`'s master key signed; marks the matching signatures as used. */
  signedBy(account: string): boolean {
    const kp = Keypair.fromPublicKey(account);
    const hint = kp.signatureHint();
    let found = false;
    this.signatures.forEach((sig, i) => {
      if (sig.hint().equals(hint) && verifies(kp, this.hash, sig)) {
        this.used.add(i);
        found = true;
      }
    });
    return found;
  }

  hasUnused(): boolean {
    return this.used.size < this.signatures.length;
  }
}

function fail(code: string, feeCharged: bigint, ops?: OpOutcome[]): TxOutcome {
  return { code, feeCharged, ops };
}

/** Checks a transaction (or fee bump) against the current state. Returns null when valid. */
export function checkValid(p: ParsedTx, ctx: ValidationContext): TxOutcome | null {
  const fee = feeToCharge(p, ctx.baseFee);
  if (!p.feeBump) return checkTransaction(p, ctx, fee, false);

  const nOps = BigInt(p.ops.length);
  const outerFee = p.feeBump.fee;
  // The outer bid must cover the minimum fee and pay at least the inner (inclusion) fee rate.
  const rf = p.resourceFee;
  if (outerFee < fee || (outerFee - rf) * nOps < (p.fee - rf) * (nOps + 1n)) {
    return fail("tx_insufficient_fee", fee);
  }
  const feeSource = ctx.getAccount(p.feeBump.feeSource);
  if (!feeSource) return fail("tx_no_source_account", fee);
  const outerSigs = new SignatureSet(p.hashBytes, p.feeBump.signatures);
  if (!outerSigs.signedBy(feeSource.id)) return fail("tx_bad_auth", fee);
  if (availableNative(feeSource, ctx.baseReserve) < outerFee) {
    return fail("tx_insufficient_balance", fee);
  }
  if (outerSigs.hasUnused()) return fail("tx_bad_auth_extra", fee);

  const inner = checkTransaction(p, ctx, fee, true);
  if (inner) {
    return {
      code: "tx_fee_bump_inner_failed",
      feeCharged: fee,
      ops: inner.ops,
      inner: { hash: p.txHashBytes, code: inner.code },
    };
  }
  return null;
}

function checkTransaction(
  p: ParsedTx,
  ctx: ValidationContext,
  fee: bigint,
  isInner: boolean,
): TxOutcome | null {
  const tx = p.tx;
  if (p.ops.length === 0) return fail("tx_missing_operation", fee);

  // Soroban: one host-function operation alone, with its SorobanTransactionData; a classic
  // transaction carries none (stellar-core's txMALFORMED / txSOROBAN_INVALID).
  const soroban = p.ops.some((op) => SOROBAN_OPS.has(op.type));
  if (soroban && (p.ops.length !== 1 || !p.sorobanData)) return fail("tx_malformed", fee);
  if (!soroban && p.sorobanData) return fail("tx_malformed", fee);
  // CAP-67: no memo and no muxed source (transaction or operation) on a Soroban transaction;
  // a contract payment carries its id in a muxed destination instead
  if (
    soroban &&
    (p.tx.memo.type !== "none" || p.sourceMuxed || p.ops.some((op) => op.source?.startsWith("M")))
  ) {
    return fail("tx_malformed", fee);
  }
  if (p.sorobanData && sorobanDataInvalid(p.sorobanData, p.fee, p.envelopeSize)) {
    return fail("tx_soroban_invalid", fee);
  }

  if (tx.timeBounds) {
    const min = BigInt(tx.timeBounds.minTime);
    const max = BigInt(tx.timeBounds.maxTime);
    const now = BigInt(ctx.closeTime);
    if (min > now) return fail("tx_too_early", fee);
    if (max !== 0n && max < now) return fail("tx_too_late", fee);
  }
  if (tx.ledgerBounds) {
    const { minLedger, maxLedger } = tx.ledgerBounds;
    if (minLedger > ctx.ledgerSeq) return fail("tx_too_early", fee);
    if (maxLedger !== 0 && maxLedger <= ctx.ledgerSeq) return fail("tx_too_late", fee);
  }

  // A fee bump pays for its inner transaction, so the inner bid is not checked.
  if (!isInner && p.fee - p.resourceFee < ctx.baseFee * BigInt(p.ops.length)) {
    return fail("tx_insufficient_fee", fee);
  }

  const source = ctx.getAccount(p.source);
  if (!source) return fail("tx_no_source_account", fee);

  const expected = ctx.nextSeq(source);
  if (tx.minAccountSequence !== undefined) {
    // CAP-21: any sequence in [minSeqNum, seq) is acceptable as the account's current one.
    const minSeq = BigInt(tx.minAccountSequence);
    const current = expected - 1n;
    if (current < minSeq || p.seq <= current) return fail("tx_bad_seq", fee);
  } else if (p.seq !== expected) {
    return fail("tx_bad_seq", fee);
  }

  const minAge = tx.minAccountSequenceAge ? BigInt(tx.minAccountSequenceAge) : 0n;
  const minGap = tx.minAccountSequenceLedgerGap ?? 0;
  if (minAge > 0n && BigInt(source.seqTime) + minAge > BigInt(ctx.closeTime)) {
    return fail("tx_bad_minseq_age_or_gap", fee);
  }
  if (minGap > 0 && source.seqLedger + minGap > ctx.ledgerSeq) {
    return fail("tx_bad_minseq_age_or_gap", fee);
  }

  const sigs = new SignatureSet(p.txHashBytes, tx.signatures);
  if (!sigs.signedBy(source.id)) return fail("tx_bad_auth", fee);

  if (!isInner && availableNative(source, ctx.baseReserve) < p.fee) {
    return fail("tx_insufficient_balance", fee);
  }

  const opOutcomes = p.ops.map((op) => checkOperation(op, p.source, ctx, sigs));
  if (opOutcomes.some((o) => o.code !== "op_success")) return fail("tx_failed", fee, opOutcomes);

  for (const signer of tx.extraSigners ?? []) {
    if (!StrKey.isValidEd25519PublicKey(signer)) return fail("tx_not_supported", fee);
    if (!sigs.signedBy(signer)) return fail("tx_bad_auth", fee);
  }
  if (sigs.hasUnused()) return fail("tx_bad_auth_extra", fee);
  return null;
}

function positive(amount: string): boolean {
  return toStroops(amount) > 0n;
}

/** Per-operation checks that do not depend on balances (stellar-core's doCheckValid). */
function checkOperation(
  op: Operation,
  txSource: string,
  ctx: ValidationContext,
  sigs: SignatureSet,
): OpOutcome {
  const source = opSource(op, txSource);
  if (source !== txSource) {
    if (!ctx.getAccount(source)) return opResult(op.type, "op_no_source_account");
    if (!sigs.signedBy(source)) return opResult(op.type, "op_bad_auth");
  }
  if (!SUPPORTED_OPS.has(op.type)) return opResult(op.type, "op_not_supported");

  const malformed = () => opResult(op.type, "op_malformed");
  switch (op.type) {
    case "createAccount":
      if (toStroops(op.startingBalance) < 0n || op.destination === source) return malformed();
      break;
    case "payment":
      if (!positive(op.amount)) return malformed();
      break;
    case "pathPaymentStrictReceive":
      if (!positive(op.sendMax) || !positive(op.destAmount) || op.path.length > 5) {
        return malformed();
      }
      break;
    case "pathPaymentStrictSend":
      if (!positive(op.sendAmount) || !positive(op.destMin) || op.path.length > 5) {
        return malformed();
      }
      break;
    case "changeTrust": {
      const line = op.line;
      if (!("getIssuer" in line)) return opResult(op.type, "op_not_supported"); // pool shares
      if (line.isNative() || toStroops(op.limit) < 0n || line.getIssuer() === source) {
        return malformed();
      }
      break;
    }
    case "manageData":
      // A name of 1 to 64 printable ASCII characters; the SDK checks the value's 64 bytes.
      if (!/^[\x20-\x7e]{1,64}$/.test(op.name)) return opResult(op.type, "op_data_invalid_name");
      break;
    case "invokeHostFunction":
      // Only contract invocations: no WebAssembly is uploaded or run here (ledger/soroban.ts).
      if (op.func.switch().name !== "hostFunctionTypeInvokeContract") {
        return opResult(op.type, "op_not_supported");
      }
      break;
    case "setOptions":
      // Only the home domain is kept (ledger/README.md, Not covered).
      if (
        op.inflationDest !== undefined ||
        op.clearFlags !== undefined ||
        op.setFlags !== undefined ||
        op.masterWeight !== undefined ||
        op.lowThreshold !== undefined ||
        op.medThreshold !== undefined ||
        op.highThreshold !== undefined ||
        op.signer !== undefined
      ) {
        return opResult(op.type, "op_not_supported");
      }
      if (op.homeDomain !== undefined && !/^[\x20-\x7e]{0,32}$/.test(op.homeDomain)) {
        return opResult(op.type, "op_invalid_home_domain");
      }
      break;
  }
  return opResult(op.type, "op_success", successPayload(op));
}

/** Placeholder success payloads for path payments that were only checked, not applied. */
function successPayload(op: Operation) {
  if (op.type === "pathPaymentStrictReceive" || op.type === "pathPaymentStrictSend") {
    return { last: { destination: baseAccount(op.destination), asset: op.destAsset, amount: 0n } };
  }
  return {};
}
