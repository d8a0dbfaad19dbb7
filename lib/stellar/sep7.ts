import { Keypair } from "@stellar/stellar-base";
import { type Config, NETWORK_PASSPHRASES } from "@/lib/config";
import type { AssetRef } from "./assets";

/**
 * Who signs the SEP-7 URIs (docs/decisions.md, SEP-7 request signing): the key of
 * SEP7_SIGNING_SECRET, whose public key /.well-known/stellar.toml publishes as
 * URI_REQUEST_SIGNING_KEY on `originDomain` (the host of APP_URL).
 */
export type Sep7Signer = { originDomain: string; keypair: Keypair };

/** The configured signer, or undefined when SEP7_SIGNING_SECRET is unset (URIs stay unsigned). */
export function sep7Signer(config: Pick<Config, "appUrl" | "sep7SigningSecret">) {
  if (!config.sep7SigningSecret) return undefined;
  return {
    originDomain: new URL(config.appUrl).host,
    keypair: Keypair.fromSecret(config.sep7SigningSecret),
  } satisfies Sep7Signer;
}

/** SEP-7 signing payload: 35 zero bytes, a 4, then "stellar.sep.7 - URI Scheme" + the URI. */
export function sep7SignaturePayload(uri: string): Buffer {
  return Buffer.concat([
    Buffer.alloc(35, 0),
    Buffer.from([4]),
    Buffer.from(`stellar.sep.7 - URI Scheme${uri}`, "utf8"),
  ]);
}

/** Appends `signature` (base64 ed25519 over the payload, URL-encoded) as the last parameter. */
export function signSep7Uri(uri: string, keypair: Keypair): string {
  const signature = keypair.sign(sep7SignaturePayload(uri)).toString("base64");
  return `${uri}&signature=${encodeURIComponent(signature)}`;
}

/**
 * SEP-7 `web+stellar:pay` request: destination (a G account, or an invoice's M... muxed
 * address, which SEP-7 allows beside a memo: the memo is kept, docs/decisions.md, Muxed
 * addresses), amount, asset_code and asset_issuer
 * (non-native only), memo with memo_type=MEMO_TEXT, and network_passphrase whenever the
 * network is not the public one (wallets assume mainnet without it). Values URL-encoded.
 * With a signer, origin_domain follows and the signature comes last.
 */
export function buildSep7PayUri(opts: {
  destination: string;
  amount: string;
  asset: AssetRef;
  memo: string;
  networkPassphrase: string;
  signer?: Sep7Signer;
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
  if (opts.signer) params.push(["origin_domain", opts.signer.originDomain]);
  const uri = `web+stellar:pay?${params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&")}`;
  return opts.signer ? signSep7Uri(uri, opts.signer.keypair) : uri;
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

/**
 * The service's stellar.toml (SEP-1): who runs it, and URI_REQUEST_SIGNING_KEY (the key SEP-7
 * wallets verify `signature` with) only when SEP7_SIGNING_SECRET is set. No NETWORK_PASSPHRASE:
 * the service serves both networks. Strings are TOML basic strings (JSON escapes are valid).
 */
export function stellarToml(
  config: Pick<Config, "appUrl" | "serviceName" | "sep7SigningSecret">,
): string {
  const signer = sep7Signer(config);
  const lines = ['VERSION = "2.7.0"', ""];
  if (signer) lines.push(`URI_REQUEST_SIGNING_KEY = "${signer.keypair.publicKey()}"`, "");
  lines.push(
    "[DOCUMENTATION]",
    `ORG_NAME = ${JSON.stringify(config.serviceName)}`,
    `ORG_URL = ${JSON.stringify(config.appUrl)}`,
  );
  return `${lines.join("\n")}\n`;
}
