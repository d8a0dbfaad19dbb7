import type { Config } from "@/lib/config";
import { CURRENCIES, type Currency } from "@/lib/domain/money";
import type { NetworkName } from "@/lib/schemas/common";

export type AssetRef = { code: Currency; issuer: string | null };

/** The invoice currency on a network, with its one trusted issuer (null for XLM). */
export function assetFor(
  config: Pick<Config, "issuers">,
  network: NetworkName,
  code: Currency,
): AssetRef {
  return code === "XLM" ? { code, issuer: null } : { code, issuer: config.issuers[network][code] };
}

/**
 * Every invoice currency on a network with its trusted issuer: the asset contracts whose
 * `transfer` a smart wallet pays with (lib/stellar/soroban.ts).
 */
export function networkAssets(config: Pick<Config, "issuers">, network: NetworkName): AssetRef[] {
  return CURRENCIES.map((code) => assetFor(config, network, code));
}
