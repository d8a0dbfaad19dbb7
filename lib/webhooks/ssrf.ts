import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { logger } from "@/lib/logger";
import { withTimeout } from "@/lib/timeout";

/**
 * SSRF guard for outbound webhooks (docs/decisions.md, Webhooks; after documenso's
 * assert-webhook-url). A webhook URL must be https and every address its host resolves to
 * must be public unicast.
 * Refused: private (10/8, 172.16/12, 192.168/16), CGNAT (100.64/10, which also holds
 * Alibaba's metadata 100.100.100.200), loopback (127/8, ::1), link-local (169.254/16 with
 * the cloud metadata address 169.254.169.254, fe80::/10), unspecified (0.0.0.0/8, ::),
 * unique-local (fc00::/7, e.g. AWS's fd00:ec2::254), multicast, broadcast, reserved and
 * documentation ranges, and IPv6 forms that embed one of those IPv4 addresses (mapped,
 * compatible, 6to4, NAT64). IPv6 must otherwise lie in global unicast 2000::/3.
 *
 * `allowLoopback` (WEBHOOK_ALLOW_LOOPBACK, development and tests only) lets loopback
 * addresses through, and plain http only when the host is a loopback name or literal.
 */

/**
 * The 400 of a refused URL names its cause with one of four fixed messages (issue 28: offline,
 * every host failed with the same words and nobody could tell a missing DNS answer from a
 * private address); `details.url` (`WebhookUrlError.reason`) gives the particulars. The
 * address a name resolves to is never named, only its kind (docs/decisions.md, Webhooks).
 */
/** Not a URL, credentials in it, no host. */
export const WEBHOOK_URL_REFUSED = "Webhook URL must be a public https URL";
/** Another scheme, or http to anything but a loopback host under WEBHOOK_ALLOW_LOOPBACK. */
export const WEBHOOK_URL_NOT_HTTPS = "Webhook URL must use https";
/** The host name has no address (or the lookup failed or timed out). */
export const WEBHOOK_URL_NO_DNS = "Webhook URL host has no DNS answer";
/** The host is, or resolves to, an address that is not public unicast. */
export const WEBHOOK_URL_PRIVATE = "Webhook URL resolves to a private address";

export type WebhookUrlRefusal = "invalid" | "not-https" | "no-dns" | "private";

export class WebhookUrlError extends Error {
  /** Why, for `details.url` of the 400 (the server log has it for a refused delivery). */
  readonly reason: string;
  readonly refusal: WebhookUrlRefusal;

  constructor(refusal: WebhookUrlRefusal, reason: string) {
    super(`${webhookUrlRefusalMessage(refusal)}: ${reason}`);
    this.name = "WebhookUrlError";
    this.refusal = refusal;
    this.reason = reason;
  }
}

/** The fixed message of the 400 for each kind of refusal. */
export function webhookUrlRefusalMessage(refusal: WebhookUrlRefusal): string {
  switch (refusal) {
    case "not-https":
      return WEBHOOK_URL_NOT_HTTPS;
    case "no-dns":
      return WEBHOOK_URL_NO_DNS;
    case "private":
      return WEBHOOK_URL_PRIVATE;
    default:
      return WEBHOOK_URL_REFUSED;
  }
}

const notHttps = () => new WebhookUrlError("not-https", "the scheme must be https");

export type ResolvedAddress = { address: string; family: 4 | 6 };
/** Resolves a host name to every address it has (node:dns `lookup(host, {all: true})`). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export type WebhookTarget = {
  url: URL;
  /** Host name without IPv6 brackets. */
  hostname: string;
  /** The validated address the request must connect to (pinned: no second DNS answer). */
  address: ResolvedAddress;
  /** Every validated address, IPv4 first (`address` is the first): connection fallbacks. */
  addresses: ResolvedAddress[];
};

const LOOKUP_TIMEOUT_MS = 3000;

export const systemResolver: Resolver = async (hostname) => {
  const found = await withTimeout(
    dnsLookup(hostname, { all: true, verbatim: true }),
    LOOKUP_TIMEOUT_MS,
    () => new Error("DNS lookup timed out"),
  );
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/**
 * Parses and checks `raw`, resolves its host and checks every address. Throws
 * WebhookUrlError; returns the first validated address to connect to.
 */
export async function assertPublicWebhookUrl(
  raw: string,
  opts: { allowLoopback: boolean; resolve?: Resolver },
): Promise<WebhookTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlError("invalid", "not a valid URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw notHttps();
  }
  if (url.username || url.password) {
    throw new WebhookUrlError("invalid", "credentials in the URL are not allowed");
  }
  // WHATWG URL has already normalised IPv4 spellings (0x7f.1, 2130706433) to dotted quads.
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!hostname) throw new WebhookUrlError("invalid", "the URL has no host");
  if (url.protocol === "http:" && !(opts.allowLoopback && isLoopbackName(hostname))) {
    throw notHttps();
  }

  let addresses: ResolvedAddress[];
  const literal = isIP(hostname);
  if (literal) {
    addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await (opts.resolve ?? systemResolver)(hostname);
    } catch (err) {
      logger.info("webhook URL refused", { host: hostname, detail: String(err) });
      addresses = [];
    }
    if (addresses.length === 0)
      throw new WebhookUrlError("no-dns", `no DNS answer for ${hostname}`);
  }
  for (const a of addresses) {
    const kind = classifyAddress(a.address);
    if (kind === "public") continue;
    if (kind === "loopback" && opts.allowLoopback) continue;
    // The kind, never the address a name resolves to: the log has it.
    logger.info("webhook URL refused", { host: hostname, address: a.address, kind });
    throw new WebhookUrlError(
      "private",
      literal ? `${hostname} is a ${kind} address` : `${hostname} resolves to a ${kind} address`,
    );
  }
  if (
    url.protocol === "http:" &&
    addresses.some((a) => classifyAddress(a.address) !== "loopback")
  ) {
    throw notHttps();
  }
  const ordered = [
    ...addresses.filter((a) => a.family === 4),
    ...addresses.filter((a) => a.family === 6),
  ];
  return { url, hostname, address: ordered[0], addresses: ordered };
}

function isLoopbackName(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, "");
  if (h === "localhost" || h.endsWith(".localhost")) return true;
  return isIP(h) !== 0 && classifyAddress(h) === "loopback";
}

export type AddressKind =
  | "public"
  | "private"
  | "loopback"
  | "link-local"
  | "unspecified"
  | "multicast"
  | "reserved"
  | "invalid";

/** IPv4 ranges that are not public unicast, as [first octets, prefix length, kind]. */
const V4_RANGES: [string, number, AddressKind][] = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "private"], // CGNAT (RFC 6598)
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"], // includes 169.254.169.254 (cloud metadata)
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"], // IETF protocol assignments
  ["192.0.2.0", 24, "reserved"], // TEST-NET-1
  ["192.88.99.0", 24, "reserved"], // 6to4 relay anycast
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved"], // benchmarking
  ["198.51.100.0", 24, "reserved"], // TEST-NET-2
  ["203.0.113.0", 24, "reserved"], // TEST-NET-3
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"], // includes 255.255.255.255 (broadcast)
];

/** Classifies one IP address (v4 or v6 text); anything unparsable is `invalid`. */
export function classifyAddress(address: string): AddressKind {
  const version = isIP(address);
  if (version === 4) return classifyV4(v4ToInt(address));
  if (version === 6) {
    const bytes = parseV6(address);
    return bytes ? classifyV6(bytes) : "invalid";
  }
  return "invalid";
}

function v4ToInt(address: string): number {
  return address.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

function classifyV4(n: number): AddressKind {
  for (const [base, bits, kind] of V4_RANGES) {
    const size = 2 ** (32 - bits);
    const start = v4ToInt(base);
    if (n >= start && n < start + size) return kind;
  }
  return "public";
}

function classifyV6(b: Uint8Array): AddressKind {
  const allZero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const v4At = (i: number) => ((b[i] << 24) >>> 0) + (b[i + 1] << 16) + (b[i + 2] << 8) + b[i + 3];
  if (allZero(0, 16)) return "unspecified";
  if (allZero(0, 15) && b[15] === 1) return "loopback";
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (deprecated compatible) reach the IPv4 address.
  if (allZero(0, 10) && b[10] === 0xff && b[11] === 0xff) return classifyV4(v4At(12));
  if (allZero(0, 12)) return classifyV4(v4At(12));
  // NAT64 64:ff9b::/96 and 6to4 2002::/16 embed an IPv4 destination.
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && allZero(4, 12)) {
    return classifyV4(v4At(12));
  }
  if (b[0] === 0x20 && b[1] === 0x02) return classifyV4(v4At(2));
  if (b[0] === 0xff) return "multicast";
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0x80) return "link-local";
  if ((b[0] & 0xfe) === 0xfc) return "private"; // unique local fc00::/7
  if ((b[0] & 0xe0) !== 0x20) return "reserved"; // outside global unicast 2000::/3
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return "reserved"; // docs
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x00 && b[3] === 0x00) return "reserved"; // Teredo
  return "public";
}

/** IPv6 text (already accepted by net.isIP) to 16 bytes; handles `::` and a dotted tail. */
function parseV6(address: string): Uint8Array | null {
  let text = address.toLowerCase();
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  const words: number[] = [];
  const pushGroups = (part: string): boolean => {
    if (!part) return true;
    for (const group of part.split(":")) {
      if (group.includes(".")) {
        if (isIP(group) !== 4) return false;
        const n = v4ToInt(group);
        words.push(n >>> 16, n & 0xffff);
      } else {
        if (!/^[0-9a-f]{1,4}$/.test(group)) return false;
        words.push(Number.parseInt(group, 16));
      }
    }
    return true;
  };
  const halves = text.split("::");
  if (halves.length > 2) return null;
  if (!pushGroups(halves[0])) return null;
  const head = words.length;
  if (!pushGroups(halves[1] ?? "")) return null;
  if (halves.length === 2) {
    const missing = 8 - words.length;
    if (missing < 0) return null;
    words.splice(head, 0, ...new Array<number>(missing).fill(0));
  }
  if (words.length !== 8) return null;
  const bytes = new Uint8Array(16);
  words.forEach((w, i) => {
    bytes[i * 2] = w >> 8;
    bytes[i * 2 + 1] = w & 0xff;
  });
  return bytes;
}
