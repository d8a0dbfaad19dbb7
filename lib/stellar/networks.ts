/**
 * The two Stellar networks the service bills on, by name and passphrase. Plain constants with
 * no imports, so the browser (lib/format.ts) and the request schemas share them with
 * the server (lib/config.ts re-exports them).
 */
export const NETWORK_PASSPHRASES = {
  testnet: "Test SDF Network ; September 2015",
  mainnet: "Public Global Stellar Network ; September 2015",
} as const;

export type NetworkName = keyof typeof NETWORK_PASSPHRASES;

export const NETWORK_NAMES: readonly NetworkName[] = ["testnet", "mainnet"];

/** A passphrase's network name; anything but the public network's is testnet. */
export const networkOf = (passphrase: string): NetworkName =>
  passphrase === NETWORK_PASSPHRASES.mainnet ? "mainnet" : "testnet";

/** Per network, the explorer URL a transaction hash is appended to (lib/format.ts explorerTxUrl). */
export type Explorers = Record<NetworkName, string>;

/**
 * The default explorers (EXPLORER_TESTNET_URL / EXPLORER_MAINNET_URL, lib/config.ts): here, so
 * that server.ts checks the configuration without loading lib/format.ts and what it loads
 * (the money and tax rules, big.js; docs/decisions.md, Cold start).
 */
export const STELLAR_EXPERT: Explorers = {
  testnet: "https://stellar.expert/explorer/testnet/tx/",
  mainnet: "https://stellar.expert/explorer/public/tx/",
};
