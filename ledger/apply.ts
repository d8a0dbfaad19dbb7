/**
 * Applying a valid transaction to the ledger state: the fee is charged and the sequence number
 * consumed whatever happens; the operations run against an overlay that is committed only if
 * all of them succeed (a failed transaction changes nothing else, as on the real network).
 *
 * Path payments support same-asset paths and conversions between XLM and the local ledger's own
 * credit assets at a fixed rate. The issuer of the credit asset is the counterparty of every
 * conversion: it receives the XLM sold and pays the XLM bought (so it needs XLM for that).
 */
import type { Asset, Operation } from "@stellar/stellar-sdk";
import { bigMin, INT64_MAX, mulDivCeil, mulDivFloor, STROOPS_PER_UNIT, toStroops } from "./amount";
import { baseAccount, opSource, type ParsedTx } from "./envelope";
import { type OpOutcome, opResult, type TxOutcome } from "./results";
import {
  ContractView,
  checkDeclared,
  HostError,
  type InvokeOutcome,
  invoke,
  successHash,
} from "./soroban";
import { type AccountEntry, AccountView, type LedgerState, trustlineKey } from "./state";
import { availableNative, feeToCharge, minBalance } from "./validate";

export interface ApplyContext {
  ledgerSeq: number;
  closeTime: number;
  baseFee: bigint;
  baseReserve: bigint;
  /**
   * Conversion rates: stroops of credit asset per 1 XLM, keyed `${code}:${issuer}`. Only assets
   * listed here can be converted to/from XLM in path payments.
   */
  rates: Map<string, bigint>;
  networkPassphrase: string;
  /** the deployed Stellar Asset Contracts, by contract id (ledger/soroban.ts) */
  sacs: Map<string, Asset>;
}

/** What an operation moved, for the operation record (path payments, contract calls). */
export interface OpEffect {
  sourceAmount?: bigint;
  destAmount?: bigint;
  /** a successful invoke_host_function: return value, balance changes, events */
  invocation?: InvokeOutcome;
}

export interface AppliedTx {
  outcome: TxOutcome;
  successful: boolean;
  feeCharged: bigint;
  effects: OpEffect[];
}

export function applyTransaction(state: LedgerState, p: ParsedTx, ctx: ApplyContext): AppliedTx {
  // Fee and sequence number: always, even if the operations fail.
  const feeAccount = state.getAccount(p.feeBump?.feeSource ?? p.source);
  const source = state.getAccount(p.source);
  if (!feeAccount || !source) throw new Error("applyTransaction: source checked before apply");
  const feeCharged = bigMin(feeToCharge(p, ctx.baseFee), feeAccount.balance);
  feeAccount.balance -= feeCharged;
  touch(feeAccount, ctx);
  source.seqNum = p.seq;
  source.seqLedger = ctx.ledgerSeq;
  source.seqTime = ctx.closeTime;
  touch(source, ctx);

  const view = new AccountView(state);
  const contracts = new ContractView(state);
  const results: OpOutcome[] = [];
  const effects: OpEffect[] = [];
  for (const op of p.ops) {
    const source = opSource(op, p.source);
    const { outcome, effect } =
      op.type === "invokeHostFunction"
        ? invokeHostFunction(view, contracts, op, source, p, ctx)
        : applyOperation(view, op, source, ctx);
    results.push(outcome);
    effects.push(effect);
  }
  const successful = results.every((r) => r.code === "op_success");
  if (successful) {
    view.commit(state, ctx.ledgerSeq, ctx.closeTime);
    contracts.commit();
  }

  const code = successful ? "tx_success" : "tx_failed";
  const outcome: TxOutcome = p.feeBump
    ? {
        code: successful ? "tx_fee_bump_inner_success" : "tx_fee_bump_inner_failed",
        feeCharged,
        ops: results,
        inner: { hash: p.txHashBytes, code },
      }
    : { code, feeCharged, ops: results };
  return {
    outcome,
    successful,
    feeCharged,
    effects: successful ? effects : effects.map(() => ({})),
  };
}

function touch(a: AccountEntry, ctx: ApplyContext): void {
  a.lastModifiedLedger = ctx.ledgerSeq;
  a.lastModifiedTime = ctx.closeTime;
}

interface OpApplied {
  outcome: OpOutcome;
  effect: OpEffect;
}

function applyOperation(
  view: AccountView,
  op: Operation,
  source: string,
  ctx: ApplyContext,
): OpApplied {
  switch (op.type) {
    case "createAccount":
      return { outcome: createAccount(view, op, source, ctx), effect: {} };
    case "payment": {
      const amount = toStroops(op.amount);
      const r = pathPayment(view, ctx, source, {
        strictSend: false,
        sendAsset: op.asset,
        destAsset: op.asset,
        destination: baseAccount(op.destination),
        amount,
        bound: amount,
        path: [],
      });
      return { outcome: opResult("payment", r.code), effect: {} };
    }
    case "pathPaymentStrictReceive": {
      const r = pathPayment(view, ctx, source, {
        strictSend: false,
        sendAsset: op.sendAsset,
        destAsset: op.destAsset,
        destination: baseAccount(op.destination),
        amount: toStroops(op.destAmount),
        bound: toStroops(op.sendMax),
        path: op.path,
      });
      return pathOutcome(op.type, op.destination, op.destAsset, r);
    }
    case "pathPaymentStrictSend": {
      const r = pathPayment(view, ctx, source, {
        strictSend: true,
        sendAsset: op.sendAsset,
        destAsset: op.destAsset,
        destination: baseAccount(op.destination),
        amount: toStroops(op.sendAmount),
        bound: toStroops(op.destMin),
        path: op.path,
      });
      return pathOutcome(op.type, op.destination, op.destAsset, r);
    }
    case "changeTrust":
      return { outcome: changeTrust(view, op, source, ctx), effect: {} };
    case "manageData":
      return { outcome: manageData(view, op, source, ctx), effect: {} };
    case "setOptions": {
      const account = view.get(source);
      if (!account) return { outcome: opResult(op.type, "op_no_source_account"), effect: {} };
      if (op.homeDomain !== undefined) account.homeDomain = op.homeDomain || undefined;
      view.save(account);
      return { outcome: opResult(op.type, "op_success"), effect: {} };
    }
    default:
      return { outcome: opResult(op.type, "op_not_supported"), effect: {} };
  }
}

/** A contract invocation (the SACs; ledger/soroban.ts), enforcing auth, footprint, resources. */
function invokeHostFunction(
  view: AccountView,
  contracts: ContractView,
  op: Operation.InvokeHostFunction,
  source: string,
  p: ParsedTx,
  ctx: ApplyContext,
): OpApplied {
  const data = p.sorobanData;
  if (!data) return { outcome: opResult(op.type, "op_malformed"), effect: {} };
  try {
    const invocation = invoke(
      {
        passphrase: ctx.networkPassphrase,
        ledgerSeq: ctx.ledgerSeq,
        baseReserve: ctx.baseReserve,
        sacs: ctx.sacs,
        accounts: view,
        contracts,
      },
      { hostFunction: op.func, auth: op.auth ?? [], source, mode: "enforce" },
    );
    const exceeded = checkDeclared(invocation, data, p.envelopeSize);
    if (exceeded) return { outcome: opResult(op.type, exceeded.code), effect: {} };
    return {
      outcome: opResult(op.type, "op_success", { successHash: successHash(invocation) }),
      effect: { invocation },
    };
  } catch (err) {
    if (err instanceof HostError) return { outcome: opResult(op.type, err.code), effect: {} };
    throw err;
  }
}

function pathOutcome(
  type: "pathPaymentStrictReceive" | "pathPaymentStrictSend",
  destination: string,
  destAsset: Asset,
  r: PathResult,
): OpApplied {
  if (r.code !== "op_success") {
    return { outcome: opResult(type, r.code, { noIssuerAsset: r.noIssuerAsset }), effect: {} };
  }
  const last = { destination: baseAccount(destination), asset: destAsset, amount: r.destAmount };
  return {
    outcome: opResult(type, "op_success", { last }),
    effect: { sourceAmount: r.sendAmount, destAmount: r.destAmount },
  };
}

function createAccount(
  view: AccountView,
  op: Operation.CreateAccount,
  sourceId: string,
  ctx: ApplyContext,
): OpOutcome {
  const starting = toStroops(op.startingBalance);
  if (view.exists(op.destination)) return opResult(op.type, "op_already_exists");
  if (starting < 2n * ctx.baseReserve) return opResult(op.type, "op_low_reserve");
  const source = view.get(sourceId);
  if (!source) return opResult(op.type, "op_no_source_account");
  if (availableNative(source, ctx.baseReserve) < starting) {
    return opResult(op.type, "op_underfunded");
  }
  source.balance -= starting;
  view.save(source);
  view.save({
    id: op.destination,
    balance: starting,
    seqNum: BigInt(ctx.ledgerSeq) << 32n,
    seqLedger: 0,
    seqTime: 0,
    subentries: 0,
    lastModifiedLedger: ctx.ledgerSeq,
    lastModifiedTime: ctx.closeTime,
    trustlines: {},
  });
  return opResult(op.type, "op_success");
}

function changeTrust(
  view: AccountView,
  op: Operation.ChangeTrust,
  sourceId: string,
  ctx: ApplyContext,
): OpOutcome {
  const line = op.line as Asset;
  const source = view.get(sourceId);
  if (!source) return opResult(op.type, "op_no_source_account");
  const key = trustlineKey(line.getCode(), line.getIssuer());
  const limit = toStroops(op.limit);
  const existing = source.trustlines[key];
  if (existing) {
    if (limit < existing.balance) return opResult(op.type, "op_invalid_limit");
    if (limit === 0n) {
      delete source.trustlines[key];
      source.subentries -= 1;
    } else {
      existing.limit = limit;
      existing.lastModifiedLedger = ctx.ledgerSeq;
    }
    view.save(source);
    return opResult(op.type, "op_success");
  }
  if (limit === 0n) return opResult(op.type, "op_trust_line_missing");
  if (!view.exists(line.getIssuer())) return opResult(op.type, "op_no_issuer");
  if (source.balance < minBalance(source, ctx.baseReserve, 1)) {
    return opResult(op.type, "op_low_reserve");
  }
  source.trustlines[key] = {
    code: line.getCode(),
    issuer: line.getIssuer(),
    balance: 0n,
    limit,
    lastModifiedLedger: ctx.ledgerSeq,
  };
  source.subentries += 1;
  view.save(source);
  return opResult(op.type, "op_success");
}

/** A data entry set, replaced or (without a value) deleted; a new entry is a subentry. */
function manageData(
  view: AccountView,
  op: Operation.ManageData,
  sourceId: string,
  ctx: ApplyContext,
): OpOutcome {
  const source = view.get(sourceId);
  if (!source) return opResult(op.type, "op_no_source_account");
  const data = source.data ?? {};
  const exists = Object.hasOwn(data, op.name);
  if (op.value === undefined || op.value === null) {
    if (!exists) return opResult(op.type, "op_data_name_not_found");
    delete data[op.name];
    source.subentries -= 1;
  } else {
    if (!exists) {
      if (source.balance < minBalance(source, ctx.baseReserve, 1)) {
        return opResult(op.type, "op_low_reserve");
      }
      source.subentries += 1;
    }
    data[op.name] = op.value.toString("base64");
  }
  source.data = data;
  view.save(source);
  return opResult(op.type, "op_success");
}

interface PathRequest {
  strictSend: boolean;
  sendAsset: Asset;
  destAsset: Asset;
  destination: string;
  /** strict receive: amount delivered; strict send: amount sent */
  amount: bigint;
  /** strict receive: send max; strict send: destination min */
  bound: bigint;
  path: Asset[];
}

type PathResult =
  | { code: "op_success"; sendAmount: bigint; destAmount: bigint; noIssuerAsset?: undefined }
  | { code: string; noIssuerAsset?: Asset; sendAmount?: undefined; destAmount: 0n };

function failure(code: string, noIssuerAsset?: Asset): PathResult {
  return { code, noIssuerAsset, destAmount: 0n };
}

/** Payment and both path payments, in stellar-core's order of checks. */
function pathPayment(
  view: AccountView,
  ctx: ApplyContext,
  sourceId: string,
  req: PathRequest,
): PathResult {
  for (const asset of [req.sendAsset, req.destAsset]) {
    if (!asset.isNative() && !view.exists(asset.getIssuer())) {
      return failure("op_no_issuer", asset);
    }
  }
  if (!view.exists(req.destination)) return failure("op_no_destination");

  const assets = [req.sendAsset, ...req.path, req.destAsset];
  const hops: Hop[] = [];
  for (let i = 0; i + 1 < assets.length; i++) {
    const hop = hopBetween(assets[i], assets[i + 1], ctx);
    if (!hop) return failure("op_too_few_offers");
    hops.push(hop);
  }

  if (req.strictSend) {
    const sendAmount = req.amount;
    const debit = moveAsset(view, ctx, sourceId, req.sendAsset, -sendAmount, DEBIT);
    if (debit) return failure(debit);
    let amount = sendAmount;
    for (const hop of hops) amount = hop.forward(amount);
    if (amount <= 0n || amount < req.bound) return failure("op_under_dest_min");
    const liquidity = settleHops(view, ctx, sourceId, hops, sendAmount);
    if (liquidity) return failure(liquidity);
    const credit = moveAsset(view, ctx, req.destination, req.destAsset, amount, CREDIT);
    if (credit) return failure(credit);
    return { code: "op_success", sendAmount, destAmount: amount };
  }

  const destAmount = req.amount;
  const credit = moveAsset(view, ctx, req.destination, req.destAsset, destAmount, CREDIT);
  if (credit) return failure(credit);
  let sendAmount = destAmount;
  for (let i = hops.length - 1; i >= 0; i--) sendAmount = hops[i].backward(sendAmount);
  if (sendAmount > req.bound) return failure("op_over_source_max");
  const liquidity = settleHops(view, ctx, sourceId, hops, sendAmount);
  if (liquidity) return failure(liquidity);
  const debit = moveAsset(view, ctx, sourceId, req.sendAsset, -sendAmount, DEBIT);
  if (debit) return failure(debit);
  return { code: "op_success", sendAmount, destAmount };
}

export interface Hop {
  /** the conversion's counterparty (the credit asset's issuer), none for same-asset hops */
  counterparty?: string;
  /** direction of XLM relative to the counterparty */
  xlm?: "toCounterparty" | "fromCounterparty";
  forward(amountIn: bigint): bigint;
  backward(amountOut: bigint): bigint;
}

function sameAsset(a: Asset, b: Asset): boolean {
  if (a.isNative() || b.isNative()) return a.isNative() && b.isNative();
  return a.getCode() === b.getCode() && a.getIssuer() === b.getIssuer();
}

/** One conversion (also used by path finding, ledger/paths.ts). */
export function hopBetween(
  from: Asset,
  to: Asset,
  ctx: Pick<ApplyContext, "rates">,
): Hop | undefined {
  if (sameAsset(from, to)) return { forward: (x) => x, backward: (x) => x };
  const credit = from.isNative() ? to : to.isNative() ? from : undefined;
  if (!credit) return undefined; // credit -> credit needs an order book we do not have
  const rate = ctx.rates.get(trustlineKey(credit.getCode(), credit.getIssuer()));
  if (!rate) return undefined;
  const xlmToCredit = {
    forward: (xlm: bigint) => mulDivFloor(xlm, rate, STROOPS_PER_UNIT),
    backward: (credit: bigint) => mulDivCeil(credit, STROOPS_PER_UNIT, rate),
  };
  const creditToXlm = {
    forward: (c: bigint) => mulDivFloor(c, STROOPS_PER_UNIT, rate),
    backward: (xlm: bigint) => mulDivCeil(xlm, rate, STROOPS_PER_UNIT),
  };
  return from.isNative()
    ? { counterparty: credit.getIssuer(), xlm: "toCounterparty", ...xlmToCredit }
    : { counterparty: credit.getIssuer(), xlm: "fromCounterparty", ...creditToXlm };
}

/** Moves the XLM side of each conversion to/from its counterparty. */
function settleHops(
  view: AccountView,
  ctx: ApplyContext,
  sourceId: string,
  hops: Hop[],
  sendAmount: bigint,
): string | undefined {
  let amount = sendAmount;
  for (const hop of hops) {
    const out = hop.forward(amount);
    if (hop.counterparty) {
      if (hop.counterparty === sourceId) return "op_cross_self";
      const cp = view.get(hop.counterparty);
      if (!cp) return "op_too_few_offers";
      if (hop.xlm === "toCounterparty") {
        if (cp.balance + amount > INT64_MAX) return "op_too_few_offers";
        cp.balance += amount;
      } else {
        if (out <= 0n || availableNative(cp, ctx.baseReserve) < out) return "op_too_few_offers";
        cp.balance -= out;
      }
      view.save(cp);
    }
    amount = out;
  }
  return undefined;
}

const CREDIT = { noAccount: "op_no_destination", noTrust: "op_no_trust" };
const DEBIT = { noAccount: "op_no_source_account", noTrust: "op_src_no_trust" };

/**
 * Adds `delta` (negative for a debit) to an account's balance of `asset`. An issuer's own
 * asset has no trustline: sending it mints, receiving it burns.
 */
function moveAsset(
  view: AccountView,
  ctx: ApplyContext,
  accountId: string,
  asset: Asset,
  delta: bigint,
  codes: { noAccount: string; noTrust: string },
): string | undefined {
  const account = view.get(accountId);
  if (!account) return codes.noAccount;
  if (asset.isNative()) {
    if (delta < 0n && availableNative(account, ctx.baseReserve) < -delta) return "op_underfunded";
    if (account.balance + delta > INT64_MAX) return "op_line_full";
    account.balance += delta;
  } else if (asset.getIssuer() !== accountId) {
    const line = account.trustlines[trustlineKey(asset.getCode(), asset.getIssuer())];
    if (!line) return codes.noTrust;
    if (line.balance + delta < 0n) return "op_underfunded";
    if (line.balance + delta > line.limit) return "op_line_full";
    line.balance += delta;
    line.lastModifiedLedger = ctx.ledgerSeq;
  }
  view.save(account);
  return undefined;
}
