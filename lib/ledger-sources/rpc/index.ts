import { Address, xdr } from "@stellar/stellar-base";
import type { Config } from "@/lib/config";
import type { Logger } from "@/lib/logger";
import type { NetworkName } from "@/lib/schemas/common";
import { LedgerSourceError } from "../errors";
import { horizonSource } from "../horizon";
import type { LedgerSource, PaymentsPage } from "../interface";
import { type EventsRequest, type RpcClient, rpcFor } from "./client";
import { followLedgers } from "./ledger-poll";
import {
  pageFromEvents,
  resultCodes,
  type SacContracts,
  sacContracts,
  transactionFromRpc,
} from "./transform";

/**
 * Events a getEvents page asks for: at mainnet volume (about 1,000 operations a ledger) one
 * request reads a ledger's transfers whole, where Horizon's 200 a page needs several
 * (bench/results.md). The watcher's own page size is a floor.
 */
export const RPC_EVENTS_PAGE = 2_000;
/** How long a submit waits for its transaction to be applied (Horizon's own wait is ~30 s). */
const SUBMIT_WAIT_MS = 35_000;
const SUBMIT_POLL_MS = 500;
/** cursorBefore reads at most this many pages of ledgers. */
const LOOKBACK_PAGES = 4;
const LEDGERS_PAGE = 200;

const symbol = (s: string) => xdr.ScVal.scvSymbol(s).toXDR("base64");
/** Every `transfer` and `mint` of the contracts (CAP-67's topics: ARCHITECTURE.md, Ledger sources). */
const TOPICS = [
  [symbol("transfer"), "**"],
  [symbol("mint"), "**"],
];
/** getEvents' limits: 5 filters of at most 5 topic filters each. */
const MAX_FILTERS = 5;
const TOPICS_PER_FILTER = 5;
/** A wallet takes three topic filters: transfers to it, mints to it, transfers from it. */
const TOPICS_PER_WALLET = 3;
export const RPC_WALLET_FILTER_LIMIT = Math.floor(
  (MAX_FILTERS * TOPICS_PER_FILTER) / TOPICS_PER_WALLET,
);

/**
 * The getEvents filters: every transfer and mint of our contracts, or, for at most
 * RPC_WALLET_FILTER_LIMIT wallets, only those to or from them (refunds are from them).
 */
export function eventFilters(
  contractIds: string[],
  wallets?: readonly string[],
): EventsRequest["filters"] {
  if (!wallets || wallets.length === 0 || wallets.length > RPC_WALLET_FILTER_LIMIT) {
    return [{ type: "contract", contractIds, topics: TOPICS }];
  }
  const topics = wallets.flatMap((w) => {
    const address = new Address(w).toScVal().toXDR("base64");
    return [
      [symbol("transfer"), "*", address, "**"],
      [symbol("mint"), address, "**"],
      [symbol("transfer"), address, "**"],
    ];
  });
  const filters: EventsRequest["filters"] = [];
  for (let i = 0; i < topics.length; i += TOPICS_PER_FILTER) {
    filters.push({ type: "contract", contractIds, topics: topics.slice(i, i + TOPICS_PER_FILTER) });
  }
  return filters;
}

/**
 * A cursor of the RPC source: a ledger number ("from this ledger on", getEvents' startLedger)
 * or an event cursor as getEvents answers it ("<TOID>-<index>": after that event).
 */
export function firstUnreadLedger(cursor: string): number {
  if (/^\d+$/.test(cursor)) return Number(cursor);
  const toid = BigInt(cursor.split("-")[0] ?? "0");
  const ledger = Number(toid >> 32n);
  // A cursor at the very end of a ledger (every transaction and operation bit set) has read it.
  return (toid & 0xffffffffn) === 0xffffffffn ? ledger + 1 : ledger;
}

type RpcConfig = Pick<Config, "horizon" | "rpc" | "issuers">;

/**
 * The Stellar RPC ledger source: the network's payments from the CAP-67 `transfer` and
 * `mint` events of the Stellar Asset Contracts of XLM and the trusted USDC and EURC
 * (getEvents), transactions from getTransaction, submit by sendTransaction then getTransaction,
 * the wake-up by polling getLatestLedger on the ledgers' beat (./ledger-poll.ts). RPC has no
 * account, fee-stats or path-finding reads that the local ledger serves: `account`, `baseFee`
 * and `strictReceivePaths` go to the network's Horizon (docs/decisions.md, Stellar RPC).
 */
export function rpcSource(config: RpcConfig, network: NetworkName): LedgerSource {
  const rpc = rpcFor(config, network);
  const issuers = config.issuers[network];
  const contracts = sacContracts(rpc.passphrase, [
    { code: "XLM", issuer: null },
    { code: "USDC", issuer: issuers.USDC },
    { code: "EURC", issuer: issuers.EURC },
  ]);
  return rpcSourceOf(rpc, contracts, horizonSource(config, network));
}

export function rpcSourceOf(
  rpc: RpcClient,
  contracts: SacContracts,
  horizon: Pick<LedgerSource, "account" | "baseFee" | "strictReceivePaths">,
): LedgerSource {
  const contractIds = [...contracts.keys()];
  return {
    kind: "rpc",
    network: rpc.network,
    passphrase: rpc.passphrase,
    walletFilterLimit: RPC_WALLET_FILTER_LIMIT,

    async paymentsPage(cursor, limit, scope) {
      const pageLimit = Math.max(limit, RPC_EVENTS_PAGE);
      const filters = eventFilters(contractIds, scope?.wallets);
      const req: EventsRequest = /^\d+$/.test(cursor)
        ? { filters, limit: pageLimit, startLedger: Number(cursor) }
        : { filters, limit: pageLimit, cursor };
      try {
        const body = await rpc.getEvents(req);
        return pageFromEvents(body, contracts, cursor, pageLimit);
      } catch (err) {
        if (!(err instanceof LedgerSourceError) || err.failure.kind !== "bad_request") throw err;
        return outsideRange(rpc, cursor, err);
      }
    },

    async latestCursor() {
      const latest = await rpc.getLatestLedger();
      return String(latest.sequence);
    },

    cursorBefore: (at) => ledgerBefore(rpc, at),

    async transaction(hash) {
      const body = await rpc.getTransaction(hash.toLowerCase());
      return transactionFromRpc(body, rpc.passphrase, contracts);
    },

    async submit(envelopeXdr) {
      const sent = await rpc.sendTransaction(envelopeXdr);
      if (sent.status === "ERROR") {
        const codes = sent.errorResultXdr
          ? resultCodes(sent.errorResultXdr)
          : { transaction: "tx_failed", operations: [] };
        throw new LedgerSourceError(
          { kind: "transaction_failed", ...codes, resultXdr: sent.errorResultXdr },
          400,
          "rpc",
        );
      }
      if (sent.status === "TRY_AGAIN_LATER") {
        throw new LedgerSourceError({ kind: "unavailable", detail: "TRY_AGAIN_LATER" }, 503, "rpc");
      }
      const deadline = Date.now() + SUBMIT_WAIT_MS;
      for (;;) {
        const body = await rpc.getTransaction(sent.hash);
        if (body.status === "SUCCESS") {
          return { hash: sent.hash, ledger: body.ledger ?? 0, successful: true };
        }
        if (body.status === "FAILED") {
          const codes = body.resultXdr
            ? resultCodes(body.resultXdr)
            : { transaction: "tx_failed", operations: [] };
          throw new LedgerSourceError(
            { kind: "transaction_failed", ...codes, resultXdr: body.resultXdr },
            400,
            "rpc",
          );
        }
        if (Date.now() >= deadline) throw new LedgerSourceError({ kind: "timeout" }, 504, "rpc");
        await new Promise((r) => setTimeout(r, SUBMIT_POLL_MS));
      }
    },

    account: (id) => horizon.account(id),
    baseFee: () => horizon.baseFee(),
    strictReceivePaths: (opts) => horizon.strictReceivePaths(opts),

    followLedgers: (onActivity: () => void, logger: Logger) =>
      followLedgers(rpc, onActivity, logger),
  };
}

/**
 * getEvents refused the range: a cursor older than RPC's retention (its history is gone) is
 * a gap, reported on the page (`gap`) with the cursor moved to the oldest ledger RPC keeps;
 * a start past the latest ledger is an empty page. Anything else is the error it was.
 */
async function outsideRange(
  rpc: RpcClient,
  cursor: string,
  err: LedgerSourceError,
): Promise<PaymentsPage> {
  const health = await rpc.getHealth();
  const first = firstUnreadLedger(cursor);
  if (first < health.oldestLedger) {
    return {
      transactions: [],
      read: 0,
      cursor: String(health.oldestLedger),
      full: true,
      gap: { fromLedger: first, toLedger: health.oldestLedger - 1 },
    };
  }
  if (first > health.latestLedger) {
    return { transactions: [], read: 0, cursor, full: false };
  }
  throw err;
}

/**
 * The newest ledger closed at or before `target`, as a ledger cursor: from the latest ledger's
 * close time and number, an estimate at 5 s a ledger, then pages of getLedgers back from it
 * (at most LOOKBACK_PAGES); when the target is older than RPC's history, its oldest ledger.
 */
async function ledgerBefore(
  rpc: RpcClient,
  target: Date,
): Promise<{ cursor: string; requests: number }> {
  const health = await rpc.getHealth();
  let requests = 1;
  const targetS = Math.floor(target.getTime() / 1000);
  let start = Math.max(health.oldestLedger, health.latestLedger - LEDGERS_PAGE + 1);
  for (let page = 0; page < LOOKBACK_PAGES; page++) {
    const body = await rpc.getLedgers(start, LEDGERS_PAGE);
    requests++;
    const closed = body.ledgers.filter((l) => Number(l.ledgerCloseTime) <= targetS);
    if (closed.length > 0 && closed.length < body.ledgers.length) {
      return { cursor: String(closed.at(-1)?.sequence), requests };
    }
    if (closed.length === body.ledgers.length && closed.length > 0) {
      // Everything on the page closed before the target: the target is newer than the page.
      return { cursor: String(closed.at(-1)?.sequence), requests };
    }
    if (start <= health.oldestLedger) break;
    start = Math.max(health.oldestLedger, start - LEDGERS_PAGE);
  }
  return { cursor: String(start), requests };
}
