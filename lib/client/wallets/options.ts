import type { Config } from "@/lib/config";
import { NETWORK_NAMES, type NetworkName } from "@/lib/stellar/networks";
import type { WalletOptions } from "./catalog";

/**
 * Read on the server (server components hand the result to the pickers as a prop): the
 * WalletConnect project id, and the networks the demo wallet may be offered on. The demo
 * wallet's rule (docs/decisions.md, Wallets): DEMO_WALLET is on (dev:offline sets it) AND the
 * network's Horizon URL host is loopback, where `<horizon>/friendbot` and `/local/fund` fund
 * it. A Horizon on any other host never gets a demo wallet, whatever DEMO_WALLET says.
 */
export function walletOptions(config: Pick<Config, "horizon" | "wallets">): WalletOptions {
  const demoLedgers: WalletOptions["demoLedgers"] = {};
  for (const network of NETWORK_NAMES) {
    // The page reaches the ledger through this app (app/demo-ledger/[network]/[...path]).
    if (demoLedgerUrl(config, network)) demoLedgers[network] = `/demo-ledger/${network}`;
  }
  return { walletConnectProjectId: config.wallets.walletConnectProjectId ?? null, demoLedgers };
}

/** The local ledger's Horizon URL the demo wallet may use on `network`, else null. */
export function demoLedgerUrl(
  config: Pick<Config, "horizon" | "wallets">,
  network: string,
): string | null {
  if (!config.wallets.demo || !(NETWORK_NAMES as readonly string[]).includes(network)) return null;
  const url = config.horizon[network as NetworkName];
  return isLoopbackUrl(url) ? url : null;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

export function isLoopbackUrl(url: string): boolean {
  try {
    return LOOPBACK.test(new URL(url).hostname);
  } catch {
    return false;
  }
}
