import { TransactionBuilder } from "@stellar/stellar-base";
import type { Config } from "@/lib/config";
import { NETWORK_PASSPHRASES } from "@/lib/config";
import type { NetworkName } from "@/lib/schemas/common";
import { LedgerSourceError } from "../errors";
import type { RpcEventsBody, RpcTransactionBody } from "./transform";

/**
 * Stellar RPC through the SDK's own client (`rpc.Server` of `@stellar/stellar-sdk/minimal/rpc`,
 * fetch-based, loaded on first use so a Horizon-only process never loads it: ARCHITECTURE.md,
 * Memory), answering the raw JSON bodies the transform reads. Failures are classified once
 * here as `LedgerSourceError` (source "rpc"), as horizon/client.ts does for Horizon.
 */
export type RpcClient = {
  network: NetworkName;
  passphrase: string;
  url: string;
  getEvents: (req: EventsRequest) => Promise<RpcEventsBody>;
  getTransaction: (hash: string) => Promise<RpcTransactionBody>;
  getLatestLedger: () => Promise<{ sequence: number; closeTime?: string }>;
  getLedgers: (startLedger: number, limit: number) => Promise<LedgersBody>;
  getHealth: () => Promise<{ latestLedger: number; oldestLedger: number }>;
  sendTransaction: (envelopeXdr: string) => Promise<SendBody>;
};

export type EventsRequest = {
  filters: { type?: "contract"; contractIds?: string[]; topics?: string[][] }[];
  limit: number;
} & ({ startLedger: number } | { cursor: string });

export type LedgersBody = {
  ledgers: { sequence: number; ledgerCloseTime: string }[];
  latestLedger: number;
  oldestLedger: number;
};

export type SendBody = {
  status: "PENDING" | "DUPLICATE" | "TRY_AGAIN_LATER" | "ERROR";
  hash: string;
  errorResultXdr?: string;
};

/** A JSON-RPC error as Stellar RPC answers it (the SDK throws the error object itself). */
export type RpcCallError = { code: number; message: string };

export function isRpcCallError(err: unknown): err is RpcCallError {
  return (
    typeof err === "object" &&
    err !== null &&
    typeof (err as RpcCallError).code === "number" &&
    typeof (err as RpcCallError).message === "string" &&
    !(err instanceof Error)
  );
}

type Server = import("@stellar/stellar-sdk/minimal/rpc").Server;
const servers = new Map<string, Promise<Server>>();

function serverFor(url: string, timeoutMs: number): Promise<Server> {
  const key = `${url}\n${timeoutMs}`;
  let s = servers.get(key);
  if (!s) {
    s = import("@stellar/stellar-sdk/minimal/rpc").then(
      (m) => new m.Server(url, { allowHttp: url.startsWith("http:"), timeout: timeoutMs }),
    );
    servers.set(key, s);
  }
  return s;
}

export function rpcFor(
  config: Pick<Config, "rpc"> & { horizon: { timeoutMs: number } },
  network: NetworkName,
): RpcClient {
  const url = config.rpc[network];
  if (!url) {
    throw new Error(`LEDGER_SOURCE=rpc on ${network} needs RPC_${network.toUpperCase()}_URL`);
  }
  const passphrase = NETWORK_PASSPHRASES[network];
  const timeoutMs = config.horizon.timeoutMs;
  const call = async <T>(run: (s: Server) => Promise<T>): Promise<T> => {
    const server = await serverFor(url, timeoutMs);
    try {
      return await run(server);
    } catch (err) {
      throw classify(err);
    }
  };
  return {
    network,
    passphrase,
    url,
    getEvents: (req) =>
      call(
        (s) =>
          s._getEvents(
            req as Parameters<Server["_getEvents"]>[0],
          ) as unknown as Promise<RpcEventsBody>,
      ),
    getTransaction: (hash) =>
      call((s) => s._getTransaction(hash) as unknown as Promise<RpcTransactionBody>),
    getLatestLedger: () => call((s) => s._getLatestLedger()),
    getLedgers: (startLedger, limit) =>
      call(
        (s) =>
          s._getLedgers({ startLedger, pagination: { limit } }) as unknown as Promise<LedgersBody>,
      ),
    getHealth: () => call((s) => s.getHealth()),
    sendTransaction: (envelopeXdr) =>
      call((s) => {
        let tx: ReturnType<typeof TransactionBuilder.fromXDR>;
        try {
          tx = TransactionBuilder.fromXDR(envelopeXdr, passphrase);
        } catch {
          throw new LedgerSourceError(
            { kind: "bad_request", detail: "the transaction envelope does not decode" },
            400,
            "rpc",
          );
        }
        return s._sendTransaction(
          tx as unknown as Parameters<Server["_sendTransaction"]>[0],
        ) as unknown as Promise<SendBody>;
      }),
  };
}

/** Any failure of a call as a LedgerSourceError (a JSON-RPC error keeps its message). */
export function classify(err: unknown): LedgerSourceError {
  if (err instanceof LedgerSourceError) return err;
  if (isRpcCallError(err)) {
    // -32600/-32602: the request (a range outside retention, a bad cursor); others: the node.
    if (err.code === -32600 || err.code === -32602) {
      return new LedgerSourceError({ kind: "bad_request", detail: err.message }, 400, "rpc");
    }
    return new LedgerSourceError({ kind: "unavailable", detail: err.message }, 500, "rpc");
  }
  const e = err as {
    name?: string;
    message?: string;
    response?: { status?: number; headers?: { get?: (h: string) => string | null } };
  };
  const status = e.response?.status;
  if (status === 429) {
    const retryAfter = Number(e.response?.headers?.get?.("retry-after") ?? "5");
    return new LedgerSourceError(
      { kind: "rate_limited", retryAfter: Number.isFinite(retryAfter) ? retryAfter : 5 },
      429,
      "rpc",
    );
  }
  if (status === 504 || e.name === "TimeoutError" || /timeout/i.test(e.message ?? "")) {
    return new LedgerSourceError({ kind: "timeout" }, status ?? 0, "rpc");
  }
  if (status === 404) return new LedgerSourceError({ kind: "not_found" }, 404, "rpc");
  return new LedgerSourceError(
    { kind: "unavailable", detail: String(e.message ?? err) },
    status ?? 0,
    "rpc",
  );
}
