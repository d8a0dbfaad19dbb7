import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import type { Config } from "@/lib/config";

export type ClientIpRule = Pick<Config, "trustProxy" | "trustedProxyHeader">;

/** The address every caller shares when none can be trusted: limits stay, spoofing gains nothing. */
export const UNKNOWN_IP = "unknown";

const SOCKET_HEADER = "x-client-ip";
const PROOF_HEADER = "x-client-ip-proof";
/** Process-wide, so server.ts (its own bundle) and the routes (Next's bundle) share it. */
const PROOF_SLOT = Symbol.for("stellar-invoicing.client-ip-proof");
type ProofHolder = { [PROOF_SLOT]?: string };

/**
 * server.ts, for every request: drops whatever the client sent in our own headers and records
 * the socket address with a per-process secret, so the routes can tell our front set it.
 * A request that did not come through server.ts (`next start`, a standalone build) carries no
 * valid proof, and its `x-client-ip` is ignored (docs/decisions.md, Limits).
 */
export function recordSocketAddress(
  headers: Record<string, string | string[] | undefined>,
  remoteAddress: string | undefined,
): void {
  const holder = globalThis as ProofHolder;
  holder[PROOF_SLOT] ??= randomBytes(24).toString("hex");
  headers[SOCKET_HEADER] = remoteAddress ?? UNKNOWN_IP;
  headers[PROOF_HEADER] = holder[PROOF_SLOT];
}

/** Headers a client may not set: server.ts deletes them before anything reads them. */
export const FRONT_HEADERS = [SOCKET_HEADER, PROOF_HEADER] as const;

/**
 * The client address that keys IP limits, by one rule (docs/decisions.md, Limits):
 * - TRUST_PROXY off: the socket address, as server.ts recorded it; nothing the client sends
 *   counts. Without server.ts in front the address is unknown (every such caller shares one
 *   bucket).
 * - TRUST_PROXY on: the header TRUSTED_PROXY_HEADER names, written by the proxy in front.
 *   For X-Forwarded-For that is its right-most entry: the proxy appends the address it saw,
 *   so entries left of it are whatever the client claimed. Without the header, the socket
 *   address.
 * Values that are not IP addresses are ignored.
 */
export function clientIp(headers: Headers, rule: ClientIpRule): string {
  if (rule.trustProxy) {
    const hops = headers.get(rule.trustedProxyHeader)?.split(",") ?? [];
    const last = hops.pop()?.trim();
    if (last) return normalize(last);
  }
  return socketAddress(headers);
}

function socketAddress(headers: Headers): string {
  const proof = (globalThis as ProofHolder)[PROOF_SLOT];
  if (!proof || headers.get(PROOF_HEADER) !== proof) return UNKNOWN_IP;
  return normalize(headers.get(SOCKET_HEADER) ?? UNKNOWN_IP);
}

function normalize(raw: string): string {
  let v = raw.trim().toLowerCase();
  if (v.startsWith("[") && v.includes("]")) v = v.slice(1, v.indexOf("]"));
  if (v.startsWith("::ffff:") && isIP(v.slice(7)) === 4) v = v.slice(7);
  return isIP(v) ? v : UNKNOWN_IP;
}
