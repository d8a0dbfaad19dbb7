/**
 * startLedger(): one local Stellar ledger with a Horizon-compatible HTTP API, for one network
 * passphrase. Start one per network (testnet and public side by side).
 *
 *   const ledger = await startLedger({ networkPassphrase: Networks.TESTNET, closeOnSubmit: true });
 *   const server = new Horizon.Server(ledger.url, { allowHttp: true });
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type LedgerCore as Core, LedgerCore, type SubmitResult } from "./core";
import { type FailureMode, HorizonHttp } from "./http";
import { DEFAULT_RETENTION_LEDGERS, type RpcOptions, StellarRpc } from "./rpc";
import type { LedgerHeader } from "./state";

export type { FailureMode } from "./http";

export interface LedgerOptions {
  networkPassphrase: string;
  /** 0 (default) picks a free port */
  port?: number;
  /** default 127.0.0.1 */
  host?: string;
  /** ledger close interval; default 5000, 0 = only on close() / closeOnSubmit */
  closeIntervalMs?: number;
  /** close a ledger right after each submission (fast, deterministic tests) */
  closeOnSubmit?: boolean;
  /** stroops, default 100 */
  baseFee?: number;
  /** stroops, default 5_000_000 (0.5 XLM) */
  baseReserve?: number;
  /** issuer secrets for the local USDC / EURC (random keys when omitted) */
  issuers?: { USDC?: string; EURC?: string; [code: string]: string | undefined };
  /**
   * Fixed path-payment rate: units of the credit asset per 1 XLM. A string applies to every
   * local asset; a record sets it per asset code. Default { USDC: "0.1", EURC: "0.09" }.
   */
  xlmRate?: string | Record<string, string>;
  /** JSON file the state is loaded from at start and saved to after each close */
  snapshotFile?: string;
  /** clock in milliseconds (default Date.now); drives close times and time bounds */
  now?: () => number;
  /** how long POST /transactions waits for inclusion before a 504 (default 30000) */
  submitTimeoutMs?: number;
  /** serve /friendbot (default true) */
  friendbot?: boolean;
  /** SSE keep-alive comment interval, default 15000 (0 disables) */
  sseKeepAliveMs?: number;
  /**
   * Stellar RPC's history retention window in ledgers (default 120960, about 7 days of 5 s
   * ledgers): getEvents/getTransaction(s)/getLedgers serve nothing older than
   * latest - window + 1, reported as oldestLedger.
   */
  rpcRetentionLedgers?: number;
}

export interface LedgerInfo {
  sequence: number;
  hash: string;
  closedAt: string;
  transactionCount: number;
  failedTransactionCount: number;
  operationCount: number;
}

export interface IssuerKeys {
  code: string;
  /** public key */
  issuer: string;
  secret: string;
}

export interface LocalLedger {
  url: string;
  /** Stellar RPC endpoint (JSON-RPC 2.0): `${url}/rpc` */
  rpcUrl: string;
  networkPassphrase: string;
  issuers: { USDC: IssuerKeys; EURC: IssuerKeys; [code: string]: IssuerKeys };
  /** closes a ledger now, applying queued transactions */
  close(): Promise<LedgerInfo>;
  stop(): Promise<void>;
  setFailure(mode: FailureMode): void;
  /**
   * pays `amount` of `assetCode` ("XLM" or a local asset) to `account` in a real transaction (a
   * Stellar Asset Contract call for a `C...` address: the issuer's mint, the root's XLM transfer)
   */
  fund(account: string, amount: string, assetCode: string): Promise<SubmitResult>;
  /** the local smart wallet (C...) of an ed25519 signer, as `POST /local/smart-wallets` */
  smartWallet(signer: string): string;
  /** the engine, for tests that need to look inside */
  core: Core;
}

const DEFAULT_RATES: Record<string, string> = { USDC: "0.1", EURC: "0.09" };

function ledgerInfo(h: LedgerHeader): LedgerInfo {
  return {
    sequence: h.sequence,
    hash: h.hash,
    closedAt: new Date(h.closeTime * 1000).toISOString().replace(/\.\d{3}Z$/, "Z"),
    transactionCount: h.successfulTxCount + h.failedTxCount,
    failedTransactionCount: h.failedTxCount,
    operationCount: h.operationCount,
  };
}

export async function startLedger(opts: LedgerOptions): Promise<LocalLedger> {
  const issuerCodes = { USDC: undefined, EURC: undefined, ...opts.issuers };
  const rates =
    typeof opts.xlmRate === "string"
      ? Object.fromEntries(Object.keys(issuerCodes).map((c) => [c, opts.xlmRate as string]))
      : { ...DEFAULT_RATES, ...opts.xlmRate };
  const core = new LedgerCore({
    networkPassphrase: opts.networkPassphrase,
    baseFee: opts.baseFee ?? 100,
    baseReserve: opts.baseReserve ?? 5_000_000,
    issuers: issuerCodes,
    xlmRates: rates,
    snapshotFile: opts.snapshotFile,
    now: opts.now ?? Date.now,
  });
  const rpcOptions: RpcOptions = {
    retentionLedgers: opts.rpcRetentionLedgers ?? DEFAULT_RETENTION_LEDGERS,
  };
  const rpc = new StellarRpc(core, rpcOptions);
  const http = new HorizonHttp(
    core,
    {
      submitTimeoutMs: opts.submitTimeoutMs ?? 30_000,
      keepAliveMs: opts.sseKeepAliveMs ?? 15_000,
      friendbot: opts.friendbot ?? true,
    },
    rpc,
  );

  const closeNow = () => {
    try {
      core.closeLedger();
    } catch (err) {
      console.error("[ledger] closing a ledger failed:", err);
    }
  };
  let closeScheduled = false;
  const unsubscribe = opts.closeOnSubmit
    ? core.onSubmit(() => {
        if (closeScheduled) return;
        closeScheduled = true;
        setImmediate(() => {
          closeScheduled = false;
          closeNow();
        });
      })
    : () => {};
  const interval = opts.closeIntervalMs ?? 5000;
  const timer = interval > 0 ? setInterval(closeNow, interval) : undefined;
  timer?.unref();

  const server: Server = createServer(http.handle);
  const host = opts.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  if (opts.friendbot ?? true) rpcOptions.friendbotUrl = `http://${urlHost}:${port}/friendbot`;

  const issuers = {} as LocalLedger["issuers"];
  for (const [code, info] of Object.entries(core.issuers())) {
    issuers[code] = { code: info.code, issuer: info.issuer, secret: info.secret };
  }

  return {
    url: `http://${urlHost}:${port}`,
    rpcUrl: `http://${urlHost}:${port}/rpc`,
    networkPassphrase: opts.networkPassphrase,
    issuers,
    core,
    close: async () => ledgerInfo(core.closeLedger()),
    stop: async () => {
      if (timer) clearInterval(timer);
      unsubscribe();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
    setFailure: (mode) => {
      http.failure = mode ? { ...mode } : null;
    },
    fund: (account, amount, assetCode) => core.submit(core.fundTx(account, amount, assetCode)),
    smartWallet: (signer) => core.smartWallet(signer),
  };
}
