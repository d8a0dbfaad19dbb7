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
