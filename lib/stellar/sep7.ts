import { NETWORK_PASSPHRASES } from "@/lib/config";
import type { AssetRef } from "./assets";

/**
 * SEP-7 `web+stellar:pay` request: destination, amount, asset_code and asset_issuer
 * (non-native only), memo with memo_type=MEMO_TEXT, and network_passphrase whenever the
 * network is not the public one (wallets assume mainnet without it). Values URL-encoded.
 */
export function buildSep7PayUri(opts: {
  destination: string;
  amount: string;
  asset: AssetRef;
  memo: string;
  networkPassphrase: string;
}): string {
  const params: [string, string][] = [
    ["destination", opts.destination],
    ["amount", opts.amount],
    ["asset_code", opts.asset.code],
  ];
  if (opts.asset.issuer) params.push(["asset_issuer", opts.asset.issuer]);
  params.push(["memo", opts.memo], ["memo_type", "MEMO_TEXT"]);
  if (opts.networkPassphrase !== NETWORK_PASSPHRASES.mainnet) {
    params.push(["network_passphrase", opts.networkPassphrase]);
  }
  return `web+stellar:pay?${params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&")}`;
}

/** Parses a `web+stellar:pay` URI back into its parameters (used by tests and tools). */
export function parseSep7PayUri(uri: string): Record<string, string> {
  const match = /^web\+stellar:pay\?(.*)$/.exec(uri);
  if (!match) throw new Error("not a web+stellar:pay URI");
  return Object.fromEntries(
    match[1].split("&").map((pair) => {
      const [k, v = ""] = pair.split("=");
      return [decodeURIComponent(k), decodeURIComponent(v)];
    }),
  );
}
