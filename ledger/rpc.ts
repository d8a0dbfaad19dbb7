/**
 * Stellar RPC (JSON-RPC 2.0) over a LedgerCore, beside the Horizon API: `POST /rpc` (and
 * `POST /`, where a real RPC node listens). Request and response shapes follow Stellar RPC's
 * OpenRPC specification and the raw types `@stellar/stellar-sdk`'s `rpc.Server` parses
 * (samples in ledger/fixtures/rpc/). Methods: getHealth, getNetwork, getLatestLedger,
 * getLedgers, getEvents, getTransaction, getTransactions, sendTransaction, simulateTransaction
 * (Stellar Asset Contract calls, ledger/soroban.ts).
 *
 * History older than the retention window (`retentionLedgers`, Stellar RPC's
 * history-retention-window) is not served: oldestLedger = latest - window + 1.
 */
import {
  FeeBumpTransaction,
  type Operation,
  StrKey,
  type Transaction,
  TransactionBuilder,
  xdr,
} from "@stellar/stellar-sdk";
import type { LedgerCore } from "./core";
import { baseAccount, parseEnvelope } from "./envelope";
import { type AssetEvent, contractEventXdr, eventId, opEvents } from "./events";
import { ContractView, findLedgerEntry, HostError, invoke, recommendedData } from "./soroban";
import { AccountView, type LedgerHeader, type TxRecord, toid } from "./state";

export const DEFAULT_RETENTION_LEDGERS = 120_960;

export interface RpcOptions {
  retentionLedgers: number;
  friendbotUrl?: string;
}

/** A JSON-RPC error (code and message as Stellar RPC answers them). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const PARSE_ERROR = -32700;

const MAX_EVENTS_LIMIT = 10_000;
const DEFAULT_EVENTS_LIMIT = 100;
const MAX_FILTERS = 5;
const MAX_CONTRACT_IDS = 5;
const MAX_TOPIC_FILTERS = 5;
const MAX_TOPIC_SEGMENTS = 4;
const MAX_TX_LIMIT = 200;
const DEFAULT_TX_LIMIT = 10;
const MAX_LEDGERS_LIMIT = 10_000;
const MAX_LEDGER_KEYS = 200;
const DEFAULT_LEDGERS_LIMIT = 100;

type Params = Record<string, unknown>;

interface EventFilter {
  type?: string;
  contractIds?: Set<string>;
  /** each topic filter: base64 segments, "*" or a trailing "**" */
  topics?: string[][];
}

const hashBytes = (hex: string) => Buffer.from(hex, "hex");
const zeroHash = () => Buffer.alloc(32);

/** The XDR LedgerHeader of a ledger (hashes the ledger does not track are zero). */
function headerXdr(h: LedgerHeader): xdr.LedgerHeader {
  return new xdr.LedgerHeader({
    ledgerVersion: h.protocolVersion,
    previousLedgerHash: hashBytes(h.prevHash),
    scpValue: new xdr.StellarValue({
      txSetHash: zeroHash(),
      closeTime: xdr.Uint64.fromString(String(h.closeTime)),
      upgrades: [],
      ext: xdr.StellarValueExt.stellarValueBasic(),
    }),
    txSetResultHash: zeroHash(),
    bucketListHash: zeroHash(),
    ledgerSeq: h.sequence,
    totalCoins: xdr.Int64.fromString(h.totalCoins.toString()),
    feePool: xdr.Int64.fromString(h.feePool.toString()),
    inflationSeq: 0,
    idPool: xdr.Uint64.fromString("0"),
    baseFee: h.baseFee,
    baseReserve: h.baseReserve,
    maxTxSetSize: h.maxTxSetSize,
    skipList: [zeroHash(), zeroHash(), zeroHash(), zeroHash()],
    ext: new xdr.LedgerHeaderExt(0),
  });
}

function headerHistoryEntry(h: LedgerHeader): xdr.LedgerHeaderHistoryEntry {
  return new xdr.LedgerHeaderHistoryEntry({
    hash: hashBytes(h.hash),
    header: headerXdr(h),
    ext: new xdr.LedgerHeaderHistoryEntryExt(0),
  });
}

/**
 * A LedgerCloseMeta (v0) with the ledger's header and its transaction envelopes; per-transaction
 * processing meta is not reconstructed (getTransaction serves each transaction's meta).
 */
function closeMetaXdr(h: LedgerHeader, txs: TxRecord[]): xdr.LedgerCloseMeta {
  const envelopes = txs.map((t) => xdr.TransactionEnvelope.fromXDR(t.envelopeXdr, "base64"));
  return new xdr.LedgerCloseMeta(
    0,
    new xdr.LedgerCloseMetaV0({
      ledgerHeader: headerHistoryEntry(h),
      txSet: new xdr.TransactionSet({ previousLedgerHash: hashBytes(h.prevHash), txes: envelopes }),
      txProcessing: [],
      upgradesProcessing: [],
      scpInfo: [],
    }),
  );
}

/** Canonical base64 of an ScVal given as base64 XDR, or undefined when it does not decode. */
function canonicalScVal(b64: string): string | undefined {
  try {
    return xdr.ScVal.fromXDR(b64, "base64").toXDR("base64");
  } catch {
    return undefined;
  }
}

function matchesTopics(filter: string[], topics: string[]): boolean {
  const wildcardRest = filter[filter.length - 1] === "**";
  const fixed = wildcardRest ? filter.slice(0, -1) : filter;
  if (wildcardRest ? topics.length < fixed.length : topics.length !== fixed.length) return false;
  return fixed.every((seg, i) => seg === "*" || seg === topics[i]);
}

function matches(filters: EventFilter[], e: AssetEvent, topics: string[]): boolean {
  if (filters.length === 0) return true;
  return filters.some(
    (f) =>
      (!f.type || f.type === "contract") &&
      (!f.contractIds || f.contractIds.has(e.contractId)) &&
      (!f.topics || f.topics.length === 0 || f.topics.some((t) => matchesTopics(t, topics))),
  );
}

/** Index of the first element whose key is >= `key` (keys ascending). */
function lowerBound<T>(items: T[], key: (t: T) => bigint, target: bigint): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(items[mid]) < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const txKey = (t: TxRecord) => BigInt(t.pagingToken);

function parseEventCursor(cursor: string): { opToid: bigint; index: number } {
  const m = /^(\d{1,19})(?:-(\d{1,10}))?$/.exec(cursor);
  if (!m) throw new RpcError(INVALID_PARAMS, `invalid cursor: ${JSON.stringify(cursor)}`);
  return { opToid: BigInt(m[1]), index: m[2] === undefined ? 0 : Number(m[2]) };
}

function limitOf(pagination: unknown, def: number, max: number): number {
  const raw = (pagination as Params | undefined)?.limit;
  if (raw === undefined || raw === null || raw === 0) return def;
  if (typeof raw !== "number" || !Number.isInteger(raw) || raw < 0) {
    throw new RpcError(INVALID_PARAMS, "limit must be a positive integer");
  }
  if (raw > max) throw new RpcError(INVALID_PARAMS, `limit must not exceed ${max}`);
  return raw;
}

function cursorOf(pagination: unknown): string | undefined {
  const raw = (pagination as Params | undefined)?.cursor;
  if (raw === undefined || raw === null || raw === "") return undefined;
  if (typeof raw !== "string") throw new RpcError(INVALID_PARAMS, "cursor must be a string");
  return raw;
}

export class StellarRpc {
  constructor(
    private readonly core: LedgerCore,
    private readonly opts: RpcOptions,
  ) {}

  /** Handles one JSON-RPC request body (a single call or a batch); returns the response. */
  async handle(body: string): Promise<unknown> {
    let req: unknown;
    try {
      req = JSON.parse(body);
    } catch {
      return this.error(null, new RpcError(PARSE_ERROR, "parse error"));
    }
    if (Array.isArray(req)) {
      if (req.length === 0) return this.error(null, new RpcError(INVALID_REQUEST, "empty batch"));
      return Promise.all(req.map((r) => this.call(r)));
    }
    return this.call(req);
  }

  private error(id: unknown, err: RpcError) {
    return { jsonrpc: "2.0", id: id ?? null, error: { code: err.code, message: err.message } };
  }

  private async call(req: unknown): Promise<unknown> {
    const r = req as Params | null;
    const id = r && typeof r === "object" ? (r.id ?? null) : null;
    try {
      if (!r || typeof r !== "object" || r.jsonrpc !== "2.0" || typeof r.method !== "string") {
        throw new RpcError(INVALID_REQUEST, "invalid request");
      }
      const params = r.params ?? {};
      if (typeof params !== "object" || Array.isArray(params)) {
        throw new RpcError(INVALID_PARAMS, "params must be an object (by-name parameters)");
      }
      const result = await this.dispatch(r.method, params as Params);
      return { jsonrpc: "2.0", id, result };
    } catch (err) {
      if (err instanceof RpcError) return this.error(id, err);
      console.error("[ledger] rpc call failed:", err);
      return this.error(id, new RpcError(-32603, "internal error"));
    }
  }

  private dispatch(method: string, params: Params): unknown {
    switch (method) {
      case "getHealth":
        return this.getHealth();
      case "getNetwork":
        return this.getNetwork();
      case "getLatestLedger":
        return this.getLatestLedger();
      case "getLedgers":
        return this.getLedgers(params);
      case "getEvents":
        return this.getEvents(params);
      case "getTransaction":
        return this.getTransaction(params);
      case "getTransactions":
        return this.getTransactions(params);
      case "sendTransaction":
        return this.sendTransaction(params);
      case "simulateTransaction":
        return this.simulateTransaction(params);
      case "getLedgerEntries":
        return this.getLedgerEntries(params);
      default:
        throw new RpcError(METHOD_NOT_FOUND, "method not found");
    }
  }

  private latest(): LedgerHeader {
    return this.core.latest();
  }

  /** The oldest ledger inside the retention window. */
  private oldest(): LedgerHeader {
    const state = this.core.state;
    const first = state.ledgers[0]?.sequence ?? 1;
    const seq = Math.max(first, this.latest().sequence - this.opts.retentionLedgers + 1);
    return state.findLedger(seq) ?? this.latest();
  }

  private getHealth() {
    const latest = this.latest();
    const oldest = this.oldest();
    return {
      status: "healthy",
      latestLedger: latest.sequence,
      oldestLedger: oldest.sequence,
      ledgerRetentionWindow: this.opts.retentionLedgers,
    };
  }

  private getNetwork() {
    return {
      ...(this.opts.friendbotUrl ? { friendbotUrl: this.opts.friendbotUrl } : {}),
      passphrase: this.core.networkPassphrase,
      protocolVersion: this.latest().protocolVersion,
    };
  }

  private txsInLedger(seq: number): TxRecord[] {
    const txs = this.core.state.txs;
    const from = lowerBound(txs, txKey, toid(seq, 0, 0));
    const to = lowerBound(txs, txKey, toid(seq + 1, 0, 0));
    return txs.slice(from, to);
  }

  private getLatestLedger() {
    const h = this.latest();
    return {
      id: h.hash,
      protocolVersion: h.protocolVersion,
      sequence: h.sequence,
      closeTime: String(h.closeTime),
      headerXdr: headerXdr(h).toXDR("base64"),
      metadataXdr: closeMetaXdr(h, this.txsInLedger(h.sequence)).toXDR("base64"),
    };
  }

  private checkStartLedger(start: unknown): number {
    const latest = this.latest().sequence;
    const oldest = this.oldest().sequence;
    if (typeof start !== "number" || !Number.isInteger(start) || start <= 0) {
      throw new RpcError(INVALID_PARAMS, "startLedger must be a positive integer");
    }
    if (start < oldest || start > latest) {
      throw new RpcError(
        INVALID_REQUEST,
        `startLedger must be between the oldest ledger: ${oldest} and the latest ledger: ${latest} for this rpc instance.`,
      );
    }
    return start;
  }

  private getLedgers(params: Params) {
    const limit = limitOf(params.pagination, DEFAULT_LEDGERS_LIMIT, MAX_LEDGERS_LIMIT);
    const cursor = cursorOf(params.pagination);
    if (cursor !== undefined && params.startLedger !== undefined) {
      throw new RpcError(INVALID_PARAMS, "startLedger and cursor cannot both be set");
    }
    let start: number;
    if (cursor !== undefined) {
      if (!/^\d+$/.test(cursor)) throw new RpcError(INVALID_PARAMS, "invalid cursor");
      start = Number(cursor) + 1;
    } else {
      start = this.checkStartLedger(params.startLedger);
    }
    const latest = this.latest();
    const oldest = this.oldest();
    const state = this.core.state;
    const ledgers = [];
    for (let seq = Math.max(start, oldest.sequence); seq <= latest.sequence; seq++) {
      if (ledgers.length >= limit) break;
      const h = state.findLedger(seq);
      if (!h) continue;
      ledgers.push({
        hash: h.hash,
        sequence: h.sequence,
        ledgerCloseTime: String(h.closeTime),
        headerXdr: headerHistoryEntry(h).toXDR("base64"),
        metadataXdr: closeMetaXdr(h, this.txsInLedger(h.sequence)).toXDR("base64"),
      });
    }
    const last = ledgers[ledgers.length - 1]?.sequence ?? start - 1;
    return {
      ledgers,
      latestLedger: latest.sequence,
      latestLedgerCloseTime: latest.closeTime,
      oldestLedger: oldest.sequence,
      oldestLedgerCloseTime: oldest.closeTime,
      cursor: String(last),
    };
  }

  private parseFilters(raw: unknown): EventFilter[] {
    if (raw === undefined || raw === null) return [];
    if (!Array.isArray(raw)) throw new RpcError(INVALID_PARAMS, "filters must be an array");
    if (raw.length > MAX_FILTERS) {
      throw new RpcError(INVALID_PARAMS, `maximum ${MAX_FILTERS} filters per request`);
    }
    return raw.map((f: Params, i) => {
      const out: EventFilter = {};
      if (f.type !== undefined && f.type !== "") {
        if (f.type !== "contract" && f.type !== "system" && f.type !== "diagnostic") {
          throw new RpcError(
            INVALID_PARAMS,
            `filter ${i + 1} invalid: if set, type must be either 'system', 'contract' or 'diagnostic'`,
          );
        }
        out.type = f.type;
      }
      if (f.contractIds !== undefined && f.contractIds !== null) {
        const ids = f.contractIds;
        if (!Array.isArray(ids)) throw new RpcError(INVALID_PARAMS, "contractIds must be an array");
        if (ids.length > MAX_CONTRACT_IDS) {
          throw new RpcError(
            INVALID_PARAMS,
            `filter ${i + 1} invalid: maximum ${MAX_CONTRACT_IDS} contract IDs per filter`,
          );
        }
        for (const id of ids) {
          if (typeof id !== "string" || !StrKey.isValidContract(id)) {
            throw new RpcError(
              INVALID_PARAMS,
              `filter ${i + 1} invalid: contract ID ${JSON.stringify(id)} invalid`,
            );
          }
        }
        if (ids.length > 0) out.contractIds = new Set(ids as string[]);
      }
      if (f.topics !== undefined && f.topics !== null) {
        const topics = f.topics;
        if (!Array.isArray(topics)) throw new RpcError(INVALID_PARAMS, "topics must be an array");
        if (topics.length > MAX_TOPIC_FILTERS) {
          throw new RpcError(
            INVALID_PARAMS,
            `filter ${i + 1} invalid: maximum ${MAX_TOPIC_FILTERS} topics per filter`,
          );
        }
        out.topics = topics.map((t: unknown, j) => {
          const where = `filter ${i + 1} invalid: topic ${j + 1} invalid`;
          if (!Array.isArray(t) || t.length === 0) {
            throw new RpcError(INVALID_PARAMS, `${where}: topic must have at least one segment`);
          }
          const fixed = t[t.length - 1] === "**" ? t.length - 1 : t.length;
          if (fixed > MAX_TOPIC_SEGMENTS) {
            throw new RpcError(
              INVALID_PARAMS,
              `${where}: topic cannot have more than ${MAX_TOPIC_SEGMENTS} segments`,
            );
          }
          return t.map((seg: unknown, k) => {
            if (seg === "*") return "*";
            if (seg === "**") {
              if (k !== t.length - 1) {
                throw new RpcError(INVALID_PARAMS, `${where}: '**' must be the last segment`);
              }
              return "**";
            }
            const canonical = typeof seg === "string" ? canonicalScVal(seg) : undefined;
            if (!canonical) {
              throw new RpcError(INVALID_PARAMS, `${where}: segment ${k + 1} is not an ScVal`);
            }
            return canonical;
          });
        });
      }
      return out;
    });
  }

  /** Events of successful operations whose event TOID is in [fromToid, toToid), ascending. */
  private *eventsFrom(fromToid: bigint, toToid: bigint): Generator<AssetEvent> {
    const state = this.core.state;
    const ops = state.ops;
    // an operation's event TOID is its Horizon id - 1 (0-based op index)
    const eventToid = (i: number) => BigInt(ops[i].id) - 1n;
    const lo = lowerBound(ops, (o) => BigInt(o.id) - 1n, fromToid);
    for (let i = lo; i < ops.length; i++) {
      const op = ops[i];
      if (eventToid(i) >= toToid) return;
      if (!op.successful) continue;
      const tx = state.findTx(op.txHash);
      if (!tx) continue;
      yield* opEvents(op, tx, this.core.networkPassphrase);
    }
  }

  private getEvents(params: Params) {
    const filters = this.parseFilters(params.filters);
    const limit = limitOf(params.pagination, DEFAULT_EVENTS_LIMIT, MAX_EVENTS_LIMIT);
    const cursor = cursorOf(params.pagination);
    const latest = this.latest();
    const oldest = this.oldest();
    // endLedger is exclusive; the range never reaches past the latest closed ledger
    let endLedger = latest.sequence + 1;
    if (params.endLedger !== undefined && params.endLedger !== null) {
      if (cursor !== undefined) {
        throw new RpcError(INVALID_PARAMS, "endLedger and cursor cannot both be set");
      }
      const end = params.endLedger;
      if (typeof end !== "number" || !Number.isInteger(end) || end <= 0) {
        throw new RpcError(INVALID_PARAMS, "endLedger must be a positive integer");
      }
      endLedger = Math.min(end, endLedger);
    }
    let after: { opToid: bigint; index: number } | undefined;
    let startLedger: number;
    if (cursor !== undefined) {
      if (params.startLedger !== undefined && params.startLedger !== null) {
        throw new RpcError(INVALID_PARAMS, "ledger ranges and cursor cannot both be set");
      }
      after = parseEventCursor(cursor);
      startLedger = Number(after.opToid >> 32n);
      if (startLedger < oldest.sequence) {
        throw new RpcError(
          INVALID_REQUEST,
          `cursor must be between the oldest ledger: ${oldest.sequence} and the latest ledger: ${latest.sequence} for this rpc instance.`,
        );
      }
    } else {
      startLedger = this.checkStartLedger(params.startLedger);
      if (endLedger <= startLedger) {
        throw new RpcError(INVALID_PARAMS, "startLedger must be less than endLedger");
      }
    }

    const fromToid = after ? after.opToid : toid(startLedger, 0, 0);
    const toToid = toid(endLedger, 0, 0);
    const events = [];
    let full = false;
    for (const e of this.eventsFrom(fromToid, toToid)) {
      if (
        after &&
        (e.opToid < after.opToid || (e.opToid === after.opToid && e.index <= after.index))
      )
        continue;
      const topics = e.topics.map((t) => t.toXDR("base64"));
      if (!matches(filters, e, topics)) continue;
      if (events.length >= limit) {
        full = true;
        break;
      }
      // key order as Stellar RPC writes them (ledger/fixtures/rpc/getEvents.json)
      events.push({
        type: "contract",
        ledger: e.ledger,
        ledgerClosedAt: new Date(e.closeTime * 1000).toISOString().replace(/\.\d{3}Z$/, "Z"),
        contractId: e.contractId,
        id: e.id,
        transactionIndex: e.transactionIndex,
        operationIndex: e.operationIndex,
        inSuccessfulContractCall: true,
        topic: topics,
        value: e.value.toXDR("base64"),
        txHash: e.txHash,
      });
    }
    // A full page continues after its last event; otherwise after the whole searched range
    // (the last possible event id before endLedger), so polling with it sees only new events.
    const nextCursor = full ? events[events.length - 1].id : eventId(toToid - 1n, 9_999_999_999);
    return {
      events,
      latestLedger: latest.sequence,
      oldestLedger: oldest.sequence,
      latestLedgerCloseTime: String(latest.closeTime),
      oldestLedgerCloseTime: String(oldest.closeTime),
      cursor: nextCursor,
    };
  }

  /** getTransaction/getTransactions fields of a stored transaction. */
  private txInfo(t: TxRecord, createdAtAsString: boolean) {
    const state = this.core.state;
    // a transaction's operations are contiguous, ids = its paging token + 1 .. + n
    const first = lowerBound(state.ops, (o) => BigInt(o.id), BigInt(t.pagingToken) + 1n);
    const ops = state.ops.slice(first, first + t.operationCount).filter((o) => o.txHash === t.hash);
    const perOp = ops.map((op) =>
      opEvents(op, t, this.core.networkPassphrase).map(contractEventXdr),
    );
    const meta = new xdr.TransactionMeta(
      4,
      new xdr.TransactionMetaV4({
        ext: new xdr.ExtensionPoint(0),
        txChangesBefore: [],
        operations: perOp.map(
          (events) =>
            new xdr.OperationMetaV2({ ext: new xdr.ExtensionPoint(0), changes: [], events }),
        ),
        txChangesAfter: [],
        sorobanMeta: t.sorobanReturnValue
          ? new xdr.SorobanTransactionMetaV2({
              ext: new xdr.SorobanTransactionMetaExt(0),
              returnValue: xdr.ScVal.fromXDR(t.sorobanReturnValue, "base64"),
            })
          : null,
        events: [],
        diagnosticEvents: [],
      }),
    );
    return {
      status: t.successful ? "SUCCESS" : "FAILED",
      txHash: t.hash,
      applicationOrder: t.applicationOrder,
      feeBump: t.innerHash !== undefined,
      envelopeXdr: t.envelopeXdr,
      resultXdr: t.resultXdr,
      resultMetaXdr: meta.toXDR("base64"),
      events: {
        transactionEventsXdr: [],
        contractEventsXdr: perOp.map((events) => events.map((e) => e.toXDR("base64"))),
      },
      ledger: t.ledger,
      createdAt: createdAtAsString ? String(t.closeTime) : t.closeTime,
    };
  }

  private getTransaction(params: Params) {
    const hash = params.hash;
    if (typeof hash !== "string" || !/^[0-9a-fA-F]{64}$/.test(hash)) {
      throw new RpcError(INVALID_PARAMS, "hash must be a 64-character hex string");
    }
    const latest = this.latest();
    const oldest = this.oldest();
    const window = {
      latestLedger: latest.sequence,
      latestLedgerCloseTime: String(latest.closeTime),
      oldestLedger: oldest.sequence,
      oldestLedgerCloseTime: String(oldest.closeTime),
    };
    const t = this.core.state.findTx(hash.toLowerCase());
    if (!t || t.ledger < oldest.sequence) {
      return { status: "NOT_FOUND", txHash: hash.toLowerCase(), ...window };
    }
    const { status, txHash, ...info } = this.txInfo(t, true);
    return { status, txHash, ...window, ...info };
  }

  private getTransactions(params: Params) {
    const limit = limitOf(params.pagination, DEFAULT_TX_LIMIT, MAX_TX_LIMIT);
    const cursor = cursorOf(params.pagination);
    if (cursor !== undefined && params.startLedger !== undefined) {
      throw new RpcError(INVALID_PARAMS, "startLedger and cursor cannot both be set");
    }
    let after: bigint;
    if (cursor !== undefined) {
      if (!/^\d{1,19}$/.test(cursor)) throw new RpcError(INVALID_PARAMS, "invalid cursor");
      after = BigInt(cursor);
    } else {
      after = toid(this.checkStartLedger(params.startLedger), 0, 0) - 1n;
    }
    const latest = this.latest();
    const oldest = this.oldest();
    if (cursor !== undefined && Number(after >> 32n) < oldest.sequence) {
      throw new RpcError(
        INVALID_REQUEST,
        `cursor must be between the oldest ledger: ${oldest.sequence} and the latest ledger: ${latest.sequence} for this rpc instance.`,
      );
    }
    const minToken = toid(oldest.sequence, 0, 0);
    const out = [];
    let last = after;
    const txs = this.core.state.txs;
    const start = lowerBound(txs, txKey, after + 1n > minToken ? after + 1n : minToken);
    for (let i = start; i < txs.length && out.length < limit; i++) {
      out.push(this.txInfo(txs[i], false));
      last = txKey(txs[i]);
    }
    if (out.length < limit) last = toid(latest.sequence + 1, 0, 0) - 1n;
    return {
      transactions: out,
      latestLedger: latest.sequence,
      latestLedgerCloseTimestamp: latest.closeTime,
      oldestLedger: oldest.sequence,
      oldestLedgerCloseTimestamp: oldest.closeTime,
      cursor: last.toString(),
    };
  }

  private async sendTransaction(params: Params) {
    const envelopeXdr = params.transaction;
    if (typeof envelopeXdr !== "string" || envelopeXdr === "") {
      throw new RpcError(INVALID_PARAMS, "transaction must be a base64 TransactionEnvelope");
    }
    let hash: string;
    try {
      hash = parseEnvelope(envelopeXdr, this.core.networkPassphrase).hash;
    } catch {
      throw new RpcError(INVALID_PARAMS, "invalid_xdr: cannot decode the transaction envelope");
    }
    const latest = this.latest();
    const base = {
      hash,
      latestLedger: latest.sequence,
      latestLedgerCloseTime: String(latest.closeTime),
    };
    if (this.core.state.findTx(hash) || this.core.isPending(hash)) {
      return { status: "DUPLICATE", ...base };
    }
    const result = this.core.submit(envelopeXdr);
    if (this.core.isPending(hash)) return { status: "PENDING", ...base };
    const settled = await result;
    if (settled.kind === "rejected") {
      // errorResultXdr first, as Stellar RPC writes it (ledger/fixtures/rpc/sendTransaction-error.json)
      return { errorResultXdr: settled.resultXdr, status: "ERROR", ...base };
    }
    // Only possible if the transaction was applied in between (closeOnSubmit).
    return { status: settled.kind === "applied" ? "DUPLICATE" : "ERROR", ...base };
  }
  /** Accounts, trustlines, SAC instances and balances, wallet instances, used nonces. */
  private getLedgerEntries(params: Params) {
    const keys = params.keys;
    if (!Array.isArray(keys) || keys.length === 0) {
      throw new RpcError(INVALID_PARAMS, "keys must be a non-empty array of base64 LedgerKeys");
    }
    if (keys.length > MAX_LEDGER_KEYS) {
      throw new RpcError(
        INVALID_PARAMS,
        `key count (${keys.length}) exceeds maximum supported (${MAX_LEDGER_KEYS})`,
      );
    }
    const latest = this.latest().sequence;
    const sacs = this.core.sacs();
    const entries = [];
    for (const [i, raw] of keys.entries()) {
      let key: xdr.LedgerKey;
      try {
        if (typeof raw !== "string") throw new Error("not a string");
        key = xdr.LedgerKey.fromXDR(raw, "base64");
      } catch {
        throw new RpcError(
          INVALID_PARAMS,
          `cannot unmarshal key value ${JSON.stringify(raw)} at index ${i}`,
        );
      }
      const found = findLedgerEntry(key, this.core.state, sacs, latest);
      if (!found) continue;
      entries.push({
        key: key.toXDR("base64"),
        xdr: found.data.toXDR("base64"),
        lastModifiedLedgerSeq: found.lastModifiedLedgerSeq,
        ...(found.liveUntilLedgerSeq !== undefined
          ? { liveUntilLedgerSeq: found.liveUntilLedgerSeq }
          : {}),
      });
    }
    return { entries, latestLedger: latest };
  }

  /**
   * Runs a contract invocation against the current state without keeping anything, as Stellar
   * RPC's preflight does: the auth entries it needs (recorded, or the given ones enforced), its
   * footprint and resources (transactionData, minResourceFee), its return value, or `error`.
   */
  private simulateTransaction(params: Params) {
    const envelopeXdr = params.transaction;
    if (typeof envelopeXdr !== "string" || envelopeXdr === "") {
      throw new RpcError(INVALID_PARAMS, "transaction must be a base64 TransactionEnvelope");
    }
    let tx: Transaction;
    try {
      const decoded = TransactionBuilder.fromXDR(envelopeXdr, this.core.networkPassphrase);
      tx = decoded instanceof FeeBumpTransaction ? decoded.innerTransaction : decoded;
    } catch {
      throw new RpcError(INVALID_PARAMS, "could not unmarshal transaction");
    }
    const authMode = params.authMode ?? "";
    if (
      authMode !== "" &&
      authMode !== "enforce" &&
      authMode !== "record" &&
      authMode !== "record_allow_nonroot"
    ) {
      throw new RpcError(INVALID_PARAMS, `invalid authMode: ${JSON.stringify(authMode)}`);
    }
    const latestLedger = this.latest().sequence;
    if (tx.operations.length !== 1) {
      return { error: "Transaction contains more than one operation", latestLedger };
    }
    const op = tx.operations[0];
    if (op.type !== "invokeHostFunction") {
      return {
        error: `To perform a SimulateTransaction the transaction must contain an InvokeHostFunction operation (this ledger simulates no ${op.type})`,
        latestLedger,
      };
    }
    const given = op.auth ?? [];
    const mode =
      authMode === "enforce" || (authMode === "" && given.length > 0) ? "enforce" : "record";
    const state = this.core.state;
    const source = op.source ?? tx.source;
    try {
      const out = invoke(
        {
          passphrase: this.core.networkPassphrase,
          ledgerSeq: latestLedger + 1,
          baseReserve: this.core.baseReserve,
          sacs: this.core.sacs(),
          accounts: new AccountView(state), // never committed
          contracts: new ContractView(state), // never committed
        },
        {
          hostFunction: op.func,
          auth: given,
          source: source.startsWith("M") ? baseAccount(source) : source,
          mode,
        },
      );
      const sized = recommendedData(out, 0).data;
      const { data, minResourceFee } = recommendedData(out, assembledSize(tx, op, out.auth, sized));
      return {
        transactionData: data.toXDR("base64"),
        minResourceFee: minResourceFee.toString(),
        events: out.events.map((event) =>
          new xdr.DiagnosticEvent({ inSuccessfulContractCall: true, event }).toXDR("base64"),
        ),
        results: [
          { auth: out.auth.map((a) => a.toXDR("base64")), xdr: out.returnValue.toXDR("base64") },
        ],
        cost: { cpuInsns: String(out.instructions), memBytes: String(out.instructions / 2) },
        latestLedger,
      };
    } catch (err) {
      if (!(err instanceof HostError)) throw err;
      return {
        error: err.describe(),
        events: [],
        cost: { cpuInsns: "0", memBytes: "0" },
        latestLedger,
      };
    }
  }
}

/**
 * The size in bytes the transaction will have once assembled (SorobanTransactionData and auth
 * entries added), signed by its source and with each address credential's signature filled in:
 * the transaction-size part of the resource fee is computed from it.
 */
function assembledSize(
  tx: Transaction,
  op: Operation.InvokeHostFunction,
  auth: xdr.SorobanAuthorizationEntry[],
  data: xdr.SorobanTransactionData,
): number {
  const env = tx.toEnvelope();
  const current = env.toXDR().length;
  const ext = env.v1().tx().ext();
  const oldData = ext.switch() === 1 ? ext.sorobanData().toXDR().length : 0;
  const oldAuth = (op.auth ?? []).reduce((n, a) => n + a.toXDR().length, 0);
  const newAuth = auth.reduce((n, a) => n + a.toXDR().length, 0);
  const addressCredentials = auth.filter(
    (a) => a.credentials().switch().name === "sorobanCredentialsAddress",
  ).length;
  const signatures = env.v1().signatures().length === 0 ? 1 : 0;
  return (
    current -
    oldData +
    data.toXDR().length -
    oldAuth +
    newAuth +
    addressCredentials * 200 +
    signatures * 72 +
    100
  );
}
