import type { Config } from "@/lib/config";
import { trimAmount } from "@/lib/domain/money";
import type { PaymentOperation, PaymentTransaction } from "@/lib/domain/payment-match";
import type { NetworkName } from "@/lib/schemas/common";
import { LedgerSourceError } from "../errors";
import type { LedgerAccount, LedgerSource } from "../interface";
import { type HorizonClient, horizonFor } from "./client";
import { followLedgers } from "./ledger-stream";
import {
  assetParam,
  type HorizonPage,
  type HorizonPathRecord,
  type HorizonPaymentRecord,
  type HorizonTransaction,
  operationFromRecord,
  pageFromRecords,
  pathFromRecord,
  transactionFromRecord,
} from "./transform";

/** A cursor created while invoices are already open looks back at most this many pages of ledgers. */
const LOOKBACK_PAGES = 4;

/**
 * The Horizon ledger source: the network's payments from `/payments?join=transactions`
 * (all accounts, the memo joined), transactions from `/transactions/:hash` and its payments,
 * submit by `POST /transactions`, the wake-up from the SSE stream of `/ledgers`.
 */
export function horizonSource(config: Pick<Config, "horizon">, network: NetworkName): LedgerSource {
  return horizonSourceOf(horizonFor(config, network));
}

export function horizonSourceOf(horizon: HorizonClient): LedgerSource {
  return {
    kind: "horizon",
    network: horizon.network,
    passphrase: horizon.passphrase,

    async paymentsPage(cursor, limit) {
      const body = await horizon.get<HorizonPage<HorizonPaymentRecord>>("/payments", {
        cursor,
        order: "asc",
        limit,
        join: "transactions",
      });
      return pageFromRecords(body._embedded.records, cursor, limit);
    },

    async latestCursor() {
      const page = await horizon.get<HorizonPage<{ paging_token: string }>>("/ledgers", {
        order: "desc",
        limit: 1,
      });
      return page._embedded.records[0]?.paging_token ?? "0";
    },

    cursorBefore: (at) => ledgerCursorBefore(horizon, at),

    transaction: (hash) => fetchPaymentTransaction(horizon, hash),

    async submit(envelopeXdr) {
      const res = await horizon.submit(envelopeXdr);
      return { hash: res.hash, ledger: res.ledger, successful: res.successful };
    },

    async account(id) {
      try {
        return await horizon.get<LedgerAccount>(`/accounts/${id}`);
      } catch (err) {
        if (err instanceof LedgerSourceError && err.failure.kind === "not_found") return null;
        throw err;
      }
    },

    async baseFee() {
      const stats = await horizon.get<{ last_ledger_base_fee: string }>("/fee_stats");
      const fee = Number(stats.last_ledger_base_fee);
      return Number.isInteger(fee) && fee > 0 ? fee : 100;
    },

    async strictReceivePaths(opts) {
      const dest = opts.destAsset;
      const page = await horizon.get<{ _embedded: { records: HorizonPathRecord[] } }>(
        "/paths/strict-receive",
        {
          ...(typeof opts.source === "string"
            ? { source_account: opts.source }
            : { source_assets: opts.source.map(assetParam).join(",") }),
          destination_asset_type:
            dest.issuer === null
              ? "native"
              : dest.code.length <= 4
                ? "credit_alphanum4"
                : "credit_alphanum12",
          destination_asset_code: dest.issuer === null ? undefined : dest.code,
          destination_asset_issuer: dest.issuer ?? undefined,
          destination_amount: trimAmount(opts.destAmount),
        },
      );
      return page._embedded.records.map(pathFromRecord);
    },

    followLedgers: (onActivity, logger) => followLedgers(horizon, onActivity, logger),
  };
}

/** The transaction and all its payment operations, or null when the network does not know it. */
async function fetchPaymentTransaction(
  horizon: HorizonClient,
  hash: string,
): Promise<PaymentTransaction | null> {
  try {
    const tx = await horizon.get<HorizonTransaction>(`/transactions/${hash}`);
    const operations: PaymentOperation[] = [];
    let path: string | null = `/transactions/${tx.fee_bump_transaction?.hash ?? tx.hash}/payments`;
    let query: Record<string, string | number> | undefined = { limit: 200, include_failed: "true" };
    // A transaction has at most 100 operations: one page, but follow `next` to be safe.
    for (let pages = 0; path && pages < 5; pages++) {
      const page: HorizonPage<HorizonPaymentRecord> = await horizon.get(path, query);
      for (const r of page._embedded.records) {
        const op = operationFromRecord(r);
        if (op) operations.push(op);
      }
      path =
        page._embedded.records.length === 200 && page._links?.next
          ? relative(horizon, page._links.next.href)
          : null;
      query = undefined;
    }
    return transactionFromRecord(tx, operations);
  } catch (err) {
    if (err instanceof LedgerSourceError && err.failure.kind === "not_found") return null;
    throw err;
  }
}

/**
 * Paging token of the newest ledger closed at or before `target`, walking /ledgers newest
 * first for at most LOOKBACK_PAGES pages of 200 (about an hour of 5-second ledgers); when the
 * target is older still, the oldest ledger seen.
 */
async function ledgerCursorBefore(
  horizon: HorizonClient,
  target: Date,
): Promise<{ cursor: string; requests: number }> {
  let path: string | null = "/ledgers";
  let query: Record<string, string | number> | undefined = { order: "desc", limit: 200 };
  let oldest = "0";
  let requests = 0;
  while (path && requests < LOOKBACK_PAGES) {
    const page: HorizonPage<{ paging_token: string; closed_at: string }> = await horizon.get(
      path,
      query,
    );
    requests++;
    for (const ledger of page._embedded.records) {
      if (new Date(ledger.closed_at).getTime() <= target.getTime()) {
        return { cursor: ledger.paging_token, requests };
      }
      oldest = ledger.paging_token;
    }
    if (page._embedded.records.length < 200 || !page._links?.next) {
      // Reached the first ledger of the network: start from the very beginning.
      return { cursor: "0", requests };
    }
    path = relative(horizon, page._links.next.href);
    query = undefined;
  }
  return { cursor: oldest, requests };
}

/** Horizon's `next` links are absolute; our client wants a path and query of the same server. */
function relative(horizon: HorizonClient, href: string): string {
  const u = new URL(href);
  const base = new URL(horizon.baseUrl);
  const prefix = base.pathname.replace(/\/+$/, "");
  return u.pathname.slice(prefix.length) + u.search;
}
