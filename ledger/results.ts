/**
 * Builds TransactionResult XDR (what Horizon returns as `result_xdr`) from the result codes the
 * local ledger computes, and the `extras.result_codes` JSON Horizon derives from them.
 * Code strings are the ones Horizon uses (op_underfunded, tx_bad_seq, ...).
 */
import { type Asset, Keypair, xdr } from "@stellar/stellar-sdk";
import type { ResultCodes } from "./state";

/** The outcome of one operation: Horizon code plus the XDR OperationResult behind it. */
export interface OpOutcome {
  code: string;
  result: xdr.OperationResult;
}

/** Summary of a transaction's result, enough to render XDR and result codes. */
export interface TxOutcome {
  /** tx_success, tx_failed, tx_bad_seq, ..., tx_fee_bump_inner_success / _failed */
  code: string;
  feeCharged: bigint;
  /** op results for tx_success / tx_failed (of the inner tx for fee bumps) */
  ops?: OpOutcome[];
  /** fee bumps: inner transaction hash and code */
  inner?: { hash: Buffer; code: string };
}

const TX_ARMS: Record<string, string> = {
  tx_success: "txSuccess",
  tx_failed: "txFailed",
  tx_too_early: "txTooEarly",
  tx_too_late: "txTooLate",
  tx_missing_operation: "txMissingOperation",
  tx_bad_seq: "txBadSeq",
  tx_bad_auth: "txBadAuth",
  tx_insufficient_balance: "txInsufficientBalance",
  tx_no_source_account: "txNoAccount",
  tx_insufficient_fee: "txInsufficientFee",
  tx_bad_auth_extra: "txBadAuthExtra",
  tx_internal_error: "txInternalError",
  tx_not_supported: "txNotSupported",
  tx_bad_sponsorship: "txBadSponsorship",
  tx_bad_minseq_age_or_gap: "txBadMinSeqAgeOrGap",
  tx_malformed: "txMalformed",
  tx_soroban_invalid: "txSorobanInvalid",
};

/** Result codes a payment shares with both path payments. */
const PAYMENT_ARMS: Record<string, string> = {
  op_success: "Success",
  op_malformed: "Malformed",
  op_underfunded: "Underfunded",
  op_src_no_trust: "SrcNoTrust",
  op_src_not_authorized: "SrcNotAuthorized",
  op_no_destination: "NoDestination",
  op_no_trust: "NoTrust",
  op_not_authorized: "NotAuthorized",
  op_line_full: "LineFull",
  op_no_issuer: "NoIssuer",
};
const PATH_PAYMENT_ARMS: Record<string, string> = {
  ...PAYMENT_ARMS,
  op_too_few_offers: "TooFewOffers",
  op_cross_self: "OfferCrossSelf",
};

/** Suffix of the XDR union arm for each op code, e.g. op_underfunded -> "Underfunded". */
const OP_ARM_SUFFIX: Record<string, Record<string, string>> = {
  createAccount: {
    op_success: "Success",
    op_malformed: "Malformed",
    op_underfunded: "Underfunded",
    op_low_reserve: "LowReserve",
    op_already_exists: "AlreadyExist",
  },
  payment: PAYMENT_ARMS,
  pathPaymentStrictReceive: { ...PATH_PAYMENT_ARMS, op_over_source_max: "OverSendmax" },
  pathPaymentStrictSend: { ...PATH_PAYMENT_ARMS, op_under_dest_min: "UnderDestmin" },
  changeTrust: {
    op_success: "Success",
    op_malformed: "Malformed",
    op_no_issuer: "NoIssuer",
    op_invalid_limit: "InvalidLimit",
    op_low_reserve: "LowReserve",
    op_self_not_allowed: "SelfNotAllowed",
    op_trust_line_missing: "TrustLineMissing",
    op_cannot_delete: "CannotDelete",
  },
  manageData: {
    op_success: "Success",
    op_not_supported_yet: "NotSupportedYet",
    op_data_name_not_found: "NameNotFound",
    op_low_reserve: "LowReserve",
    op_data_invalid_name: "InvalidName",
  },
  setOptions: {
    op_success: "Success",
    op_low_reserve: "LowReserve",
    op_invalid_home_domain: "InvalidHomeDomain",
  },
  // Horizon's strings for InvokeHostFunctionResultCode
  invokeHostFunction: {
    op_success: "Success",
    op_malformed: "Malformed",
    op_trapped: "Trapped",
    op_resource_limit_exceeded: "ResourceLimitExceeded",
    op_entry_archived: "EntryArchived",
    op_insufficient_refundable_fee: "InsufficientRefundableFee",
  },
};

export const SUPPORTED_OPS = new Set(Object.keys(OP_ARM_SUFFIX));

export interface PathPaymentLast {
  destination: string;
  asset: Asset;
  amount: bigint;
}

/** Extra payload some result arms carry. */
export interface OpResultPayload {
  /** success of a path payment */
  last?: PathPaymentLast;
  /** op_no_issuer of a path payment: the asset without issuer */
  noIssuerAsset?: Asset;
  /** success of invoke_host_function: SHA-256 of its InvokeHostFunctionSuccessPreImage */
  successHash?: Buffer;
}

function pascal(s: string): string {
  return s[0].toUpperCase() + s.slice(1);
}

// The generated XDR classes are typed per arm; the lookups below are by name, so go through
// a loose index type once here instead of casting at every call site.
type ArmFactory = (value?: unknown) => unknown;
function arm(union: unknown, name: string): ArmFactory {
  const f = (union as Record<string, ArmFactory | undefined>)[name];
  if (typeof f !== "function") throw new Error(`no XDR arm ${name}`);
  return f.bind(union);
}

/** OperationResult for operation `opType` (SDK camelCase name) with Horizon code `code`. */
export function opResult(opType: string, code: string, payload: OpResultPayload = {}): OpOutcome {
  if (code === "op_bad_auth") return { code, result: xdr.OperationResult.opBadAuth() };
  if (code === "op_no_source_account") return { code, result: xdr.OperationResult.opNoAccount() };
  if (code === "op_not_supported") return { code, result: xdr.OperationResult.opNotSupported() };
  const suffix = OP_ARM_SUFFIX[opType]?.[code];
  if (!suffix) throw new Error(`no result code ${code} for ${opType}`);
  const unionName = `${pascal(opType)}Result`;
  const union = (xdr as unknown as Record<string, unknown>)[unionName];
  let inner: unknown;
  const armName = `${opType}${suffix}`;
  if (code === "op_success" && opType.startsWith("pathPayment")) {
    const last = payload.last;
    if (!last) throw new Error("path payment success needs `last`");
    const simple = new xdr.SimplePaymentResult({
      destination: Keypair.fromPublicKey(last.destination).xdrAccountId(),
      asset: last.asset.toXDRObject(),
      amount: xdr.Int64.fromString(last.amount.toString()),
    });
    const successStruct =
      opType === "pathPaymentStrictReceive"
        ? new xdr.PathPaymentStrictReceiveResultSuccess({ offers: [], last: simple })
        : new xdr.PathPaymentStrictSendResultSuccess({ offers: [], last: simple });
    inner = arm(union, armName)(successStruct);
  } else if (code === "op_success" && opType === "invokeHostFunction") {
    inner = arm(union, armName)(payload.successHash ?? Buffer.alloc(32));
  } else if (code === "op_no_issuer" && opType.startsWith("pathPayment")) {
    const asset = payload.noIssuerAsset;
    if (!asset) throw new Error("path payment op_no_issuer needs the asset");
    inner = arm(union, armName)(asset.toXDRObject());
  } else {
    inner = arm(union, armName)();
  }
  const tr = arm(xdr.OperationResultTr, opType)(inner) as xdr.OperationResultTr;
  return { code, result: xdr.OperationResult.opInner(tr) };
}

function txResultResult(
  code: string,
  ops: OpOutcome[] | undefined,
  forInner: boolean,
): xdr.TransactionResultResult {
  const name = TX_ARMS[code];
  if (!name) throw new Error(`unknown transaction code ${code}`);
  const factory = arm(
    forInner ? xdr.InnerTransactionResultResult : xdr.TransactionResultResult,
    name,
  );
  if (code === "tx_success" || code === "tx_failed") {
    return factory((ops ?? []).map((o) => o.result)) as xdr.TransactionResultResult;
  }
  return factory() as xdr.TransactionResultResult;
}

/** TransactionResult XDR (base64) for an outcome. */
export function resultXdr(outcome: TxOutcome): string {
  let result: xdr.TransactionResultResult;
  if (outcome.inner) {
    const innerResult = new xdr.InnerTransactionResult({
      feeCharged: xdr.Int64.fromString("0"),
      result: txResultResult(
        outcome.inner.code,
        outcome.ops,
        true,
      ) as unknown as xdr.InnerTransactionResultResult,
      ext: new xdr.InnerTransactionResultExt(0),
    });
    const pair = new xdr.InnerTransactionResultPair({
      transactionHash: outcome.inner.hash,
      result: innerResult,
    });
    result =
      outcome.code === "tx_fee_bump_inner_success"
        ? xdr.TransactionResultResult.txFeeBumpInnerSuccess(pair)
        : xdr.TransactionResultResult.txFeeBumpInnerFailed(pair);
  } else {
    result = txResultResult(outcome.code, outcome.ops, false);
  }
  return new xdr.TransactionResult({
    feeCharged: xdr.Int64.fromString(outcome.feeCharged.toString()),
    result,
    ext: new xdr.TransactionResultExt(0),
  }).toXDR("base64");
}

/** `extras.result_codes` as Horizon renders it (operations only when op results exist). */
export function resultCodes(outcome: TxOutcome): ResultCodes {
  const codes: ResultCodes = { transaction: outcome.code };
  if (outcome.inner) codes.inner_transaction = outcome.inner.code;
  const opsRan = outcome.inner
    ? outcome.inner.code === "tx_failed" || outcome.inner.code === "tx_success"
    : outcome.code === "tx_failed" || outcome.code === "tx_success";
  if (opsRan && outcome.ops) codes.operations = outcome.ops.map((o) => o.code);
  return codes;
}
