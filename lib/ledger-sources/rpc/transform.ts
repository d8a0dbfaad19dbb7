import {
  Address,
  Asset,
  FeeBumpTransaction,
  MuxedAccount,
  type Operation,
  StrKey,
  scValToBigInt,
  type Transaction,
  TransactionBuilder,
  xdr,
} from "@stellar/stellar-base";
import { fromStroops } from "@/lib/domain/money";
import type { PaymentOperation, PaymentTransaction } from "@/lib/domain/payment-match";
import type { PagedTransaction, PaymentsPage } from "../interface";

/**
 * Stellar RPC's bodies -> the domain's types. Pure: the shapes are Stellar RPC's raw JSON
 * (ledger/fixtures/rpc, the SDK's `Raw*` types), read by the source (./index.ts) and by nothing
 * else.
 *
 * Payments come from the CAP-67 events of the Stellar Asset Contracts (SAC) of the assets we
 * read: `transfer` (topics: symbol, from, to, SEP-11 asset; the payer's G or C address, the
 * recipient's base G address) and `mint` (the issuer pays: topics symbol, to, asset). The data
 * is the i128 amount, or a map `{amount, to_muxed_id}` whose `to_muxed_id` is the muxed
 * destination's u64 id or, for a G destination, the transaction's memo (text: string, id: u64,
 * hash/return: bytes). Events do not say which operation moved the money (payment, path
 * payment, create_account, a contract's transfer) nor who signed it, so a page's transactions
 * are approximate and every one is marked to be read whole (`maybeCut`); `transaction(hash)`
 * (getTransaction) is exact: the envelope's operations, the result and the operation's events.
 */

/** One Stellar RPC event as getEvents answers it (RawEventResponse). */
export type RpcEvent = {
  type: string;
  ledger: number;
  ledgerClosedAt: string;
  contractId?: string;
  id: string;
  transactionIndex?: number;
  operationIndex?: number;
  inSuccessfulContractCall?: boolean;
  topic?: string[];
  value: string;
  txHash: string;
};

export type RpcEventsBody = {
  events: RpcEvent[] | null;
  cursor?: string;
  latestLedger: number;
  oldestLedger?: number;
};

/** getTransaction's raw body (RawGetTransactionResponse). */
export type RpcTransactionBody = {
  status: "SUCCESS" | "FAILED" | "NOT_FOUND" | string;
  txHash?: string;
  ledger?: number;
  createdAt?: number | string;
  applicationOrder?: number;
  feeBump?: boolean;
  envelopeXdr?: string;
  resultXdr?: string;
  resultMetaXdr?: string;
  events?: { contractEventsXdr?: string[][]; transactionEventsXdr?: string[] };
};

/** The assets a source reads, by their SAC contract id on its network. */
export type SacContracts = ReadonlyMap<string, { code: string; issuer: string | null }>;

export function sacContracts(
  passphrase: string,
  assets: readonly { code: string; issuer: string | null }[],
): SacContracts {
  return new Map(
    assets.map((a) => [
      (a.issuer === null ? Asset.native() : new Asset(a.code, a.issuer)).contractId(passphrase),
      a,
    ]),
  );
}

/** The TOID of an operation: ledger, transaction order (1-based), operation order (1-based). */
export function operationToid(ledger: number, txOrder: number, opOrder: number): bigint {
  return (BigInt(ledger) << 32n) | (BigInt(txOrder) << 12n) | BigInt(opOrder);
}

/** What a transfer-like event says, or null for any other event. */
type Movement = {
  kind: "transfer" | "mint";
  from: string | null;
  to: string;
  asset: { code: string; issuer: string | null };
  amount: bigint;
  toMuxedId: xdr.ScVal | null;
};

function symbolOf(v: xdr.ScVal): string | null {
  return v.switch() === xdr.ScValType.scvSymbol() ? v.sym().toString() : null;
}

function addressOf(v: xdr.ScVal): string | null {
  if (v.switch() !== xdr.ScValType.scvAddress()) return null;
  try {
    const address = Address.fromScVal(v).toString();
    // A muxed address in a topic stands for its base account (CAP-67 puts the id in the data).
    return address.startsWith("M") ? MuxedAccount.fromAddress(address, "0").accountId() : address;
  } catch {
    return null;
  }
}

/** "native" or "CODE:ISSUER" (SEP-11) as an asset. */
function assetOfSep11(s: string): { code: string; issuer: string | null } | null {
  if (s === "native") return { code: "XLM", issuer: null };
  const [code, issuer] = s.split(":");
  return code && issuer && StrKey.isValidEd25519PublicKey(issuer) ? { code, issuer } : null;
}

function amountAndMuxedId(v: xdr.ScVal): { amount: bigint; toMuxedId: xdr.ScVal | null } | null {
  if (v.switch() === xdr.ScValType.scvI128()) return { amount: scValToBigInt(v), toMuxedId: null };
  if (v.switch() !== xdr.ScValType.scvMap()) return null;
  let amount: bigint | null = null;
  let toMuxedId: xdr.ScVal | null = null;
  for (const entry of v.map() ?? []) {
    const key = symbolOf(entry.key());
    if (key === "amount" && entry.val().switch() === xdr.ScValType.scvI128()) {
      amount = scValToBigInt(entry.val());
    } else if (key === "to_muxed_id") {
      toMuxedId = entry.val();
    }
  }
  return amount === null ? null : { amount, toMuxedId };
}

/**
 * A SAC event's movement. `contractId` must be the SAC of the asset the event names (any
 * contract can emit a "transfer" topic naming USDC): checked against `contracts` (our assets)
 * or, when `anySac`, by computing the asset's contract id.
 */
function movementOf(
  contractId: string,
  topics: xdr.ScVal[],
  data: xdr.ScVal,
  contracts: SacContracts,
  anySac?: { passphrase: string },
): Movement | null {
  const kind = topics[0] ? symbolOf(topics[0]) : null;
  if (kind !== "transfer" && kind !== "mint") return null;
  const assetTopic = topics[kind === "transfer" ? 3 : 2];
  if (!assetTopic || assetTopic.switch() !== xdr.ScValType.scvString()) return null;
  const asset = assetOfSep11(assetTopic.str().toString());
  if (!asset) return null;
  const ours = contracts.get(contractId);
  if (ours) {
    if (ours.code !== asset.code || ours.issuer !== asset.issuer) return null;
  } else {
    const sac = (
      asset.issuer === null ? Asset.native() : new Asset(asset.code, asset.issuer)
    ).contractId(anySac?.passphrase ?? "");
    if (!anySac || sac !== contractId) return null;
  }
  const value = amountAndMuxedId(data);
  if (!value || value.amount <= 0n) return null;
  if (kind === "transfer") {
    const from = addressOf(topics[1]);
    const to = addressOf(topics[2]);
    if (!from || !to) return null;
    return { kind, from, to, asset, ...value };
  }
  const to = addressOf(topics[1]);
  if (!to) return null;
  return { kind, from: asset.issuer, to, asset, ...value };
}

/** The memo a `to_muxed_id` carries for a G destination; u64 is ambiguous (id memo or muxed id). */
function memoOfMuxedId(v: xdr.ScVal | null): {
  memoType: PaymentTransaction["memoType"];
  memo: string | null;
  toMuxedId: string | null;
} {
  if (!v) return { memoType: "none", memo: null, toMuxedId: null };
  switch (v.switch()) {
    case xdr.ScValType.scvString():
      return { memoType: "text", memo: v.str().toString("utf8"), toMuxedId: null };
    case xdr.ScValType.scvU64():
      // Either the muxed destination's id or an id memo: read whole before recording.
      return { memoType: "none", memo: null, toMuxedId: v.u64().toString() };
    case xdr.ScValType.scvBytes():
      return { memoType: "hash", memo: v.bytes().toString("base64"), toMuxedId: null };
    default:
      return { memoType: "none", memo: null, toMuxedId: null };
  }
}

/**
 * A getEvents page as the domain's transactions: the events grouped by transaction (in the
 * page's order), one operation per transfer or mint of our assets. Every transaction is
 * `maybeCut`: the events do not say the operation type, the payer of a path payment nor the
 * transaction's source, so the watcher reads a transaction whole (`transaction(hash)`)
 * before it records it. `limit` is the page size asked for: a page that long is full.
 */
export function pageFromEvents(
  body: RpcEventsBody,
  contracts: SacContracts,
  cursor: string,
  limit: number,
): PaymentsPage {
  const events = body.events ?? [];
  const full = events.length >= limit;
  const byTx = new Map<string, PaymentTransaction & { operations: PaymentOperation[] }>();
  for (const e of events) {
    if (e.type !== "contract" || !e.contractId || !e.topic) continue;
    const m = movementOf(
      e.contractId,
      e.topic.map((t) => xdr.ScVal.fromXDR(t, "base64")),
      xdr.ScVal.fromXDR(e.value, "base64"),
      contracts,
    );
    if (!m) continue;
    const memo = memoOfMuxedId(m.toMuxedId);
    let t = byTx.get(e.txHash);
    if (!t) {
      t = {
        hash: e.txHash,
        innerHash: null,
        successful: true,
        memoType: memo.memoType,
        memo: memo.memo,
        createdAt: new Date(e.ledgerClosedAt),
        ledger: e.ledger,
        sourceAccount: m.from ?? "",
        operations: [],
      };
      byTx.set(e.txHash, t);
    } else if (t.memoType === "none" && memo.memoType !== "none") {
      t.memoType = memo.memoType;
      t.memo = memo.memo;
    }
    const toid = BigInt(e.id.split("-")[0]);
    t.operations.push({
      // A guess until the transaction is read whole: a C payer can only be a contract call.
      type: m.from?.startsWith("C") ? "contract_transfer" : "payment",
      index: e.operationIndex ?? Number(toid & 0xfffn),
      // Horizon's operation id: the event's TOID counts operations from 0, Horizon's from 1.
      id: (toid + 1n).toString(),
      from: m.from,
      to: m.to,
      toMuxedId: memo.toMuxedId,
      assetCode: m.asset.code,
      assetIssuer: m.asset.issuer,
      amount: fromStroops(m.amount),
    });
  }
  const transactions: PagedTransaction[] = [...byTx.values()].map((transaction) => ({
    transaction,
    maybeCut: true,
  }));
  return {
    transactions,
    read: events.length,
    cursor: full ? (events.at(-1)?.id ?? cursor) : (body.cursor ?? cursor),
    full,
  };
}

/** A G or M account as its base G account and its muxed id. */
function accountOf(address: string): { base: string; id: string | null } {
  if (address.startsWith("M")) {
    const m = MuxedAccount.fromAddress(address, "0");
    return { base: m.baseAccount().accountId(), id: m.id() };
  }
  return { base: address, id: null };
}

function assetFields(asset: Asset): { assetCode: string; assetIssuer: string | null } {
  return asset.isNative()
    ? { assetCode: "XLM", assetIssuer: null }
    : { assetCode: asset.getCode(), assetIssuer: asset.getIssuer() };
}

function stroops(decimal: string): bigint {
  const [whole, frac = ""] = decimal.split(".");
  return BigInt(whole) * 10_000_000n + BigInt(frac.padEnd(7, "0").slice(0, 7));
}

/** Each operation's contract events: `events.contractEventsXdr`, else the meta's (v4). */
function eventsPerOperation(body: RpcTransactionBody, count: number): xdr.ContractEvent[][] {
  const fromBody = body.events?.contractEventsXdr;
  if (fromBody && fromBody.length > 0) {
    return Array.from({ length: count }, (_, i) =>
      (fromBody[i] ?? []).map((e) => xdr.ContractEvent.fromXDR(e, "base64")),
    );
  }
  try {
    if (!body.resultMetaXdr) return [];
    const meta = xdr.TransactionMeta.fromXDR(body.resultMetaXdr, "base64");
    if (meta.switch() !== 4) return [];
    return meta
      .v4()
      .operations()
      .map((op) => op.events());
  } catch {
    return [];
  }
}

function movementsOfEvents(
  events: readonly xdr.ContractEvent[],
  contracts: SacContracts,
  passphrase: string,
): Movement[] {
  return events.flatMap((e) => {
    const id = e.contractId();
    if (!id) return [];
    const body = e.body().v0();
    const m = movementOf(
      StrKey.encodeContract(id as unknown as Buffer),
      body.topics(),
      body.data(),
      contracts,
      { passphrase },
    );
    return m ? [m] : [];
  });
}

/**
 * What the operation delivered to `to` in `asset`, from its events (a path payment delivers
 * what its events say); undefined when the events do not say.
 */
function deliveredByEvents(
  movements: readonly Movement[],
  to: string,
  asset: Asset,
): bigint | undefined {
  const { assetCode, assetIssuer } = assetFields(asset);
  const to_ = movements.filter(
    (m) => m.to === to && m.asset.code === assetCode && m.asset.issuer === assetIssuer,
  );
  return to_.length === 0 ? undefined : to_.reduce((s, m) => s + m.amount, 0n);
}

/** The strict-send's delivered amount from its result, when the result says. */
function strictSendResultAmount(result: xdr.TransactionResult | null, index: number) {
  try {
    const op = innerResults(result)?.[index];
    if (!op) return undefined;
    return BigInt(op.tr().pathPaymentStrictSendResult().success().last().amount().toString());
  } catch {
    return undefined;
  }
}

function innerResults(result: xdr.TransactionResult | null): xdr.OperationResult[] | undefined {
  if (!result) return undefined;
  const r = result.result();
  const name = r.switch().name;
  if (name === "txFeeBumpInnerSuccess" || name === "txFeeBumpInnerFailed") {
    return r.innerResultPair().result().result().results();
  }
  return name === "txSuccess" || name === "txFailed" ? r.results() : undefined;
}

/** The SAC `transfer(from, to, amount)` an invokeHostFunction operation calls, if it is one. */
function sacTransferOf(
  op: Operation.InvokeHostFunction,
  contracts: SacContracts,
): { contractId: string; from: string; to: string; toMuxedId: string | null } | null {
  const fn = op.func;
  if (fn.switch() !== xdr.HostFunctionType.hostFunctionTypeInvokeContract()) return null;
  const call = fn.invokeContract();
  const contractId = Address.fromScAddress(call.contractAddress()).toString();
  if (!contracts.has(contractId) || call.functionName().toString() !== "transfer") return null;
  const [from, to] = call.args();
  if (!from || !to || from.switch() !== xdr.ScValType.scvAddress()) return null;
  if (to.switch() !== xdr.ScValType.scvAddress()) return null;
  const toAddress = Address.fromScVal(to).toString();
  const dest = accountOf(toAddress);
  return {
    contractId,
    from: Address.fromScVal(from).toString(),
    to: dest.base,
    toMuxedId: dest.id,
  };
}

/**
 * What an invocation that is not a direct asset-contract `transfer` paid, from its transfer
 * events (mints, burns and clawbacks pay nothing): one operation records one payment (the
 * `(transaction_hash, operation_index)` key), so those to the first transfer's recipient in
 * its asset and muxed id are added up and the others left out, the rule of Horizon's source
 * (lib/ledger-sources/horizon/transform.ts). A Soroban transaction has no memo, so a u64
 * `to_muxed_id` is the destination's muxed id. Null when it moved nothing.
 */
function contractMovement(
  movements: readonly Movement[],
): Omit<PaymentOperation, "type" | "index" | "id"> | null {
  const transfers = movements.filter((m) => m.kind === "transfer" && m.from !== null);
  const [first] = transfers;
  if (!first) return null;
  const muxedOf = (m: Movement) =>
    m.toMuxedId && m.toMuxedId.switch() === xdr.ScValType.scvU64()
      ? m.toMuxedId.u64().toString()
      : null;
  const key = (m: Movement) =>
    `${m.to}|${m.asset.code}|${m.asset.issuer ?? ""}|${muxedOf(m) ?? ""}`;
  const same = transfers.filter((m) => key(m) === key(first));
  return {
    from: first.from,
    to: first.to,
    toMuxedId: muxedOf(first),
    assetCode: first.asset.code,
    assetIssuer: first.asset.issuer,
    amount: fromStroops(same.reduce((sum, m) => sum + m.amount, 0n)),
  };
}

/**
 * getTransaction's body as the domain's transaction, exact: the operations and their amounts
 * from the envelope, the result and each operation's events; null when RPC does not know it.
 * Fee-bump transactions are identified by the outer hash whichever hash was asked
 * (docs/decisions.md, Fee-bump transactions), with the inner hash beside it; the memo, the
 * source and the operations are the inner transaction's. Payment-like operations become
 * `payment`, `path_payment_strict_*` (the amount their events deliver), `create_account`, and
 * a SAC `transfer` invocation becomes a `contract_transfer` (`from` the G or C payer,
 * `toMuxedId` from a muxed `to`); other operations are left out (as Horizon's payments).
 */
export function transactionFromRpc(
  body: RpcTransactionBody,
  passphrase: string,
  contracts: SacContracts,
): PaymentTransaction | null {
  if (body.status !== "SUCCESS" && body.status !== "FAILED") return null;
  if (!body.envelopeXdr || body.ledger === undefined) return null;
  const envelope = TransactionBuilder.fromXDR(body.envelopeXdr, passphrase);
  const inner: Transaction =
    envelope instanceof FeeBumpTransaction ? envelope.innerTransaction : envelope;
  const outerHash = envelope.hash().toString("hex");
  const innerHash = envelope instanceof FeeBumpTransaction ? inner.hash().toString("hex") : null;
  const successful = body.status === "SUCCESS";
  const result = body.resultXdr ? xdr.TransactionResult.fromXDR(body.resultXdr, "base64") : null;
  const perOp = eventsPerOperation(body, inner.operations.length);
  const txSource = accountOf(inner.source).base;
  const operations: PaymentOperation[] = [];
  inner.operations.forEach((op, index) => {
    const id = operationToid(body.ledger ?? 0, body.applicationOrder ?? 0, index + 1).toString();
    const sentFrom = op.source ?? inner.source;
    const from = accountOf(sentFrom).base;
    // A muxed sender's M address, where a refund goes back (docs/decisions.md, Muxed addresses).
    const fromMuxed = sentFrom.startsWith("M") ? { fromMuxed: sentFrom } : {};
    const movements = successful
      ? movementsOfEvents(perOp[index] ?? [], contracts, passphrase)
      : [];
    switch (op.type) {
      case "payment": {
        const dest = accountOf(op.destination);
        operations.push({
          type: "payment",
          index,
          id,
          from,
          ...fromMuxed,
          to: dest.base,
          toMuxedId: dest.id,
          ...assetFields(op.asset),
          amount: op.amount,
        });
        return;
      }
      case "createAccount":
        operations.push({
          type: "create_account",
          index,
          id,
          from,
          ...fromMuxed,
          to: op.destination,
          toMuxedId: null,
          assetCode: "XLM",
          assetIssuer: null,
          amount: op.startingBalance,
        });
        return;
      case "pathPaymentStrictReceive":
      case "pathPaymentStrictSend": {
        const dest = accountOf(op.destination);
        const stated =
          op.type === "pathPaymentStrictReceive"
            ? stroops(op.destAmount)
            : (strictSendResultAmount(result, index) ?? stroops(op.destMin));
        const delivered = deliveredByEvents(movements, dest.base, op.destAsset) ?? stated;
        operations.push({
          type:
            op.type === "pathPaymentStrictReceive"
              ? "path_payment_strict_receive"
              : "path_payment_strict_send",
          index,
          id,
          from,
          ...fromMuxed,
          to: dest.base,
          toMuxedId: dest.id,
          ...assetFields(op.destAsset),
          amount: fromStroops(delivered),
        });
        return;
      }
      case "invokeHostFunction": {
        const call = sacTransferOf(op, contracts);
        if (!call) {
          // Another contract (a smart wallet's own entry point, a router) moving our assets:
          // its transfer events, as Horizon's source reads its asset_balance_changes.
          const moved = contractMovement(movements);
          if (moved) operations.push({ type: "contract_transfer", index, id, ...moved });
          return;
        }
        const asset = contracts.get(call.contractId);
        if (!asset) return;
        const moved = movements.find((m) => m.to === call.to && m.from === call.from);
        // A failed call moved nothing: its arguments say what it tried.
        const amount =
          moved?.amount ??
          scValToBigInt((op.func.invokeContract().args()[2] ?? xdr.ScVal.scvVoid()) as xdr.ScVal);
        operations.push({
          type: "contract_transfer",
          index,
          id,
          from: call.from,
          to: call.to,
          toMuxedId: call.toMuxedId,
          assetCode: asset.code,
          assetIssuer: asset.issuer,
          amount: fromStroops(amount),
        });
        return;
      }
      default:
        return;
    }
  });
  const memo = inner.memo;
  const memoType = memo.type as PaymentTransaction["memoType"];
  let memoValue: string | null = null;
  if (memo.type === "text") {
    memoValue = Buffer.isBuffer(memo.value) ? memo.value.toString("utf8") : String(memo.value);
  } else if (memo.type === "id") {
    memoValue = String(memo.value);
  } else if (memo.type === "hash" || memo.type === "return") {
    memoValue = Buffer.from(memo.value as Buffer).toString("base64");
  }
  return {
    hash: outerHash,
    innerHash,
    successful,
    memoType,
    memo: memoValue,
    createdAt: new Date(Number(body.createdAt ?? 0) * 1000),
    ledger: body.ledger,
    sourceAccount: txSource,
    operations,
  };
}

const TX_CODE_NAMES: Record<string, string> = {
  txNoAccount: "tx_no_source_account",
  txBadMinSeqAgeOrGap: "tx_bad_minseq_age_or_gap",
};
const OP_CODE_NAMES: Record<string, string> = {
  AlreadyExist: "op_already_exists",
  OverSendmax: "op_over_source_max",
  UnderDestmin: "op_under_dest_min",
  OfferCrossSelf: "op_cross_self",
  opBadAuth: "op_bad_auth",
  opNoAccount: "op_no_source_account",
  opNotSupported: "op_not_supported",
  opTooManySubentries: "op_too_many_subentries",
  opExceededWorkLimit: "op_exceeded_work_limit",
  opTooManySponsoring: "op_too_many_sponsoring",
};

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * A TransactionResult as Horizon's `result_codes` (tx_bad_seq, op_underfunded, ...), the
 * names lib/stellar/errors.ts maps; for a fee-bump, the inner transaction's codes when it ran.
 */
export function resultCodes(resultXdr: string): { transaction: string; operations: string[] } {
  const result = xdr.TransactionResult.fromXDR(resultXdr, "base64");
  let r = result.result();
  let name = r.switch().name;
  if (name === "txFeeBumpInnerFailed") {
    r = r.innerResultPair().result().result() as unknown as typeof r;
    name = r.switch().name;
  }
  const transaction = TX_CODE_NAMES[name] ?? snake(name).replace(/^tx_/, "tx_");
  const ops = name === "txFailed" || name === "txSuccess" ? r.results() : [];
  const operations = ops.map((op) => {
    const outer = op.switch().name;
    if (outer !== "opInner") return OP_CODE_NAMES[outer] ?? snake(outer);
    const tr = op.tr();
    const arm = tr.switch().name; // e.g. "payment"
    const value = (tr.value() as { switch: () => { name: string } }).switch().name;
    const suffix = value.startsWith(arm) ? value.slice(arm.length) : value;
    return OP_CODE_NAMES[suffix] ?? `op${snake(suffix)}`;
  });
  return { transaction, operations };
}
