import { NETWORK_PASSPHRASES } from "@/lib/config";
import { ValidationError } from "@/lib/domain/errors";
import type { NetworkName, NetworkPassphrase } from "@/lib/schemas/common";

/** `network` (testnet/mainnet, Form A) and `networkPassphrase` (Form B) must agree when both are sent. */
export function resolveNetwork(
  network: NetworkName | undefined,
  passphrase: NetworkPassphrase | undefined,
): NetworkPassphrase | undefined {
  const fromName = network ? NETWORK_PASSPHRASES[network] : undefined;
  if (fromName && passphrase && fromName !== passphrase) {
    throw new ValidationError("Invalid network passphrase", {
      network: "network and networkPassphrase name different networks",
    });
  }
  return fromName ?? passphrase;
}

export function networkName(passphrase: string): NetworkName {
  return passphrase === NETWORK_PASSPHRASES.mainnet ? "mainnet" : "testnet";
}
