"use client";

import { createContext, type ReactNode, useContext } from "react";
import { explorerTxUrl } from "@/lib/format";
import { type Explorers, STELLAR_EXPERT } from "@/lib/stellar/networks";

/**
 * The configured explorers (EXPLORER_TESTNET_URL / EXPLORER_MAINNET_URL), handed down by the
 * server-rendered page that knows the configuration (the checkout, the invoice page), so
 * client components link transactions where the operator chose (docs/decisions.md, Trying
 * it offline).
 */
const ExplorerContext = createContext<Explorers>(STELLAR_EXPERT);

export function ExplorerProvider({
  explorers,
  children,
}: {
  explorers: Explorers;
  children: ReactNode;
}) {
  return <ExplorerContext.Provider value={explorers}>{children}</ExplorerContext.Provider>;
}

/** `(hash, passphrase) => url` on the configured explorers. */
export function useExplorerTxUrl(): (hash: string, passphrase: string) => string {
  const explorers = useContext(ExplorerContext);
  return (hash, passphrase) => explorerTxUrl(hash, passphrase, explorers);
}
