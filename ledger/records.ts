/**
 * Turns an applied transaction into the history records Horizon serves: one TxRecord and one
 * OpRecord per operation, with ids/paging tokens computed as TOIDs and operation fields in
 * Horizon's JSON shape.
 */
import type { Asset, Operation } from "@stellar/stellar-sdk";
import { formatStroops, toStroops } from "./amount";
import type { AppliedTx, OpEffect } from "./apply";
import { baseAccount, muxedId, opSource, type ParsedTx } from "./envelope";
import { resultCodes, resultXdr } from "./results";
import { horizonBalanceChange, horizonInvokeFields } from "./soroban";
import { type OpRecord, type TxRecord, toid } from "./state";

const OP_TYPE_I: Record<string, number> = {
  createAccount: 0,
  payment: 1,
  pathPaymentStrictReceive: 2,
  setOptions: 5,
  changeTrust: 6,
  manageData: 10,
  pathPaymentStrictSend: 13,
  invokeHostFunction: 24,
};
const PAYMENT_TYPES = new Set([
  "createAccount",
  "payment",
  "pathPaymentStrictReceive",
  "pathPaymentStrictSend",
]);

function snake(camel: string): string {
  return camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export function assetFields(asset: Asset, prefix = ""): Record<string, string> {
  if (asset.isNative()) return { [`${prefix}asset_type`]: "native" };
  return {
    [`${prefix}asset_type`]: asset.getAssetType(),
    [`${prefix}asset_code`]: asset.getCode(),
    [`${prefix}asset_issuer`]: asset.getIssuer(),
  };
}

/** `name`, plus `name_muxed` / `name_muxed_id` when the address is an M... address. */
function accountFields(name: string, address: string): Record<string, string> {
  const fields: Record<string, string> = { [name]: baseAccount(address) };
  if (address.startsWith("M")) {
    fields[`${name}_muxed`] = address;
    fields[`${name}_muxed_id`] = muxedId(address);
  }
  return fields;
}

function memoFields(p: ParsedTx): Pick<TxRecord, "memoType" | "memo" | "memoBytes"> {
  const memo = p.tx.memo;
  switch (memo.type) {
    case "text": {
      const value = memo.value as Buffer | string;
      const bytes = Buffer.isBuffer(value) ? value : Buffer.from(value, "utf8");
      // Horizon scrubs invalid UTF-8 and drops NUL bytes from the text; the raw bytes are
      // kept in memo_bytes.
      const text = new TextDecoder("utf-8").decode(bytes).replaceAll("\u0000", "");
      return { memoType: "text", memo: text, memoBytes: bytes.toString("base64") };
    }
    case "id":
      return { memoType: "id", memo: String(memo.value) };
    case "hash":
    case "return":
      return { memoType: memo.type, memo: Buffer.from(memo.value as Buffer).toString("base64") };
    default:
      return { memoType: "none" };
  }
}

/** The fields every payment-like operation shares: asset, from, to, amount received. */
function transfer(asset: Asset, from: string, to: string, amount: bigint) {
  return {
    ...assetFields(asset),
    ...accountFields("from", from),
    ...accountFields("to", to),
    amount: formatStroops(amount),
  };
}

function opDetails(op: Operation, source: string, effect: OpEffect): Record<string, unknown> {
  const zero = formatStroops(0n);
  switch (op.type) {
    case "createAccount":
      return {
        starting_balance: formatStroops(toStroops(op.startingBalance)),
        funder: source,
        account: op.destination,
      };
    case "payment":
      return transfer(op.asset, op.source ?? source, op.destination, toStroops(op.amount));
    case "pathPaymentStrictReceive":
      return {
        ...transfer(op.destAsset, op.source ?? source, op.destination, toStroops(op.destAmount)),
        path: op.path.map((a) => assetFields(a)),
        source_amount:
          effect.sourceAmount === undefined ? zero : formatStroops(effect.sourceAmount),
        source_max: formatStroops(toStroops(op.sendMax)),
        ...assetFields(op.sendAsset, "source_"),
      };
    case "pathPaymentStrictSend":
      return {
        ...transfer(op.destAsset, op.source ?? source, op.destination, effect.destAmount ?? 0n),
        path: op.path.map((a) => assetFields(a)),
        source_amount: formatStroops(toStroops(op.sendAmount)),
        destination_min: formatStroops(toStroops(op.destMin)),
        ...assetFields(op.sendAsset, "source_"),
      };
    case "changeTrust": {
      const line = op.line as Asset;
      return {
        ...assetFields(line),
        limit: formatStroops(toStroops(op.limit)),
        trustee: line.getIssuer(),
        trustor: source,
      };
    }
    case "manageData":
      return {
        name: op.name,
        value: op.value === undefined || op.value === null ? "" : op.value.toString("base64"),
      };
    case "setOptions":
      return op.homeDomain === undefined ? {} : { home_domain: op.homeDomain };
    case "invokeHostFunction":
      return {
        ...horizonInvokeFields(op.func),
        asset_balance_changes: (effect.invocation?.changes ?? []).map(horizonBalanceChange),
      };
    default:
      return {};
  }
}

function opParticipants(op: Operation, source: string, effect: OpEffect): string[] {
  const accounts = [source];
  if ("destination" in op && typeof op.destination === "string") {
    accounts.push(baseAccount(op.destination));
  }
  // the G accounts whose SAC balances a contract call changed
  for (const c of effect.invocation?.changes ?? []) {
    for (const a of [c.from, c.to]) if (a?.startsWith("G")) accounts.push(a);
  }
  return [...new Set(accounts)];
}

export function buildRecords(
  p: ParsedTx,
  applied: AppliedTx,
  ledger: number,
  applicationOrder: number,
  closeTime: number,
): { tx: TxRecord; ops: OpRecord[] } {
  const hash = p.hash;
  const ops: OpRecord[] = p.ops.map((op, i) => {
    const source = opSource(op, p.source);
    const effect = applied.effects[i] ?? {};
    return {
      id: toid(ledger, applicationOrder, i + 1).toString(),
      txHash: hash,
      ledger,
      closeTime,
      successful: applied.successful,
      type: snake(op.type),
      typeI: OP_TYPE_I[op.type] ?? -1,
      sourceAccount: source,
      sourceAccountMuxed: op.source?.startsWith("M") ? op.source : undefined,
      details: opDetails(op, source, effect),
      participants: opParticipants(op, source, effect),
      // Horizon lists a contract call among payments when it moved SAC balances
      isPayment: PAYMENT_TYPES.has(op.type) || (effect.invocation?.changes.length ?? 0) > 0,
    };
  });

  const participants = new Set<string>([p.source]);
  if (p.feeBump) participants.add(p.feeBump.feeSource);
  for (const op of ops) for (const a of op.participants) participants.add(a);

  const tb = p.tx.timeBounds;
  const lb = p.tx.ledgerBounds;
  const tx: TxRecord = {
    hash,
    innerHash: p.feeBump ? p.txHash : undefined,
    ledger,
    applicationOrder,
    pagingToken: toid(ledger, applicationOrder, 0).toString(),
    closeTime,
    successful: applied.successful,
    sourceAccount: p.source,
    sourceAccountMuxed: p.sourceMuxed,
    sourceAccountSequence: p.seq.toString(),
    feeAccount: p.feeBump?.feeSource ?? p.source,
    feeCharged: applied.feeCharged.toString(),
    maxFee: (p.feeBump?.fee ?? p.fee).toString(),
    innerMaxFee: p.feeBump ? p.fee.toString() : undefined,
    operationCount: p.ops.length,
    envelopeXdr: p.envelopeXdr,
    resultXdr: resultXdr(applied.outcome),
    resultCodes: resultCodes(applied.outcome),
    ...memoFields(p),
    signatures: (p.feeBump?.signatures ?? p.tx.signatures).map((s) =>
      s.signature().toString("base64"),
    ),
    innerSignatures: p.feeBump
      ? p.tx.signatures.map((s) => s.signature().toString("base64"))
      : undefined,
    timeBounds: tb ? { minTime: tb.minTime, maxTime: tb.maxTime } : undefined,
    ledgerBounds: lb ? { minLedger: lb.minLedger, maxLedger: lb.maxLedger } : undefined,
    participants: [...participants],
  };
  const invocation = applied.effects.find((e) => e.invocation)?.invocation;
  if (invocation) tx.sorobanReturnValue = invocation.returnValue.toXDR("base64");
  return { tx, ops };
}
