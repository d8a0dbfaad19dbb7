import type { Config } from "@/lib/config";
import type { NetworkName } from "@/lib/schemas/common";
import { horizonSource } from "./horizon";
import type { LedgerSource } from "./interface";
import { rpcSource } from "./rpc";

export { LedgerSourceError, type LedgerSourceFailure } from "./errors";
export type {
  LedgerAccount,
  LedgerSource,
  LedgerSourceKind,
  PagedTransaction,
  PaymentsPage,
  SubmittedTransaction,
} from "./interface";

/**
 * The one place a network's ledger source is chosen (config `LEDGER_SOURCE`, default
 * `horizon`; ARCHITECTURE.md, Ledger sources). A new source adds its folder beside
 * `horizon/` and a case here (`rpc/`: Stellar RPC).
 */
export function ledgerSourceFor(
  config: Pick<Config, "horizon"> & Partial<Pick<Config, "ledgerSource" | "rpc" | "issuers">>,
  network: NetworkName,
): LedgerSource {
  const kind = config.ledgerSource?.[network] ?? "horizon";
  switch (kind) {
    case "horizon":
      return horizonSource(config, network);
    case "rpc":
      if (!config.rpc || !config.issuers)
        throw new Error("LEDGER_SOURCE=rpc needs the full config");
      return rpcSource(
        { horizon: config.horizon, rpc: config.rpc, issuers: config.issuers },
        network,
      );
  }
}
