import { createHmac, timingSafeEqual } from "node:crypto";

/** Header names of an outbound delivery (docs/decisions.md, Webhooks). */
export const SIGNATURE_HEADER = "X-Service-Signature";
/** `t=<unix seconds>,v1=<hex>[,v1=<hex>]`: signs the time with the body (replay protection). */
export const SIGNATURE_V2_HEADER = "X-Service-Signature-V2";
export const EVENT_ID_HEADER = "X-Service-Event-Id";
export const TIMESTAMP_HEADER = "X-Service-Timestamp";
/** A receiver accepts a V2 signature whose `t` is at most this far from its clock. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * Lowercase hex HMAC-SHA256 of the exact raw body bytes, keyed with the subscription's
 * secret (the whole `whsec_...` string, UTF-8). Sign the bytes you send, never a re-encoding.
 */
export function signWebhookBody(secret: string, rawBody: string | Uint8Array): string {
  return createHmac("sha256", secret).update(rawBody).digest("hex");
}

/** Constant-time comparison of a 64-hex-digit header value with a computed signature. */
function sameSignature(expectedHex: string, given: string): boolean {
  if (!/^[0-9a-fA-F]{64}$/.test(given)) return false;
  const a = Buffer.from(expectedHex, "hex");
  const b = Buffer.from(given, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Receiver side: true when `signature` (the header value) is the HMAC of `rawBody`.
 * Compares in constant time; a missing or malformed header is simply false.
 */
export function verifyWebhookSignature(
  secret: string,
  rawBody: string | Uint8Array,
  signature: string | null | undefined,
): boolean {
  if (typeof signature !== "string") return false;
  return sameSignature(signWebhookBody(secret, rawBody), signature.trim());
}

/** Hex HMAC-SHA256 of `<t>.<raw body>`: the `v1` value of the V2 header. */
export function signWebhookPayloadV2(
  secret: string,
  timestamp: number,
  rawBody: string | Uint8Array,
): string {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex");
}

/**
 * The V2 header value: `t=<timestamp>` then one `v1=` per secret, in the order given (the
 * current secret first, then a rotated-out one still inside its overlap).
 */
export function signatureV2Header(
  secrets: readonly string[],
  timestamp: number,
  rawBody: string | Uint8Array,
): string {
  const v1 = secrets.map((s) => `v1=${signWebhookPayloadV2(s, timestamp, rawBody)}`);
  return [`t=${timestamp}`, ...v1].join(",");
}

export type VerifyV2Options = {
  /** The receiver's clock (default: now). */
  now?: Date;
  /** Default SIGNATURE_TOLERANCE_SECONDS. */
  toleranceSeconds?: number;
};

/**
 * Receiver side of `X-Service-Signature-V2`: true when `t` is within the tolerance of `now`
 * and some `v1=` entry is the HMAC of `<t>.<rawBody>` under one of `secrets` (pass both the
 * new and the old secret while you switch after a rotation). Constant-time per comparison;
 * a missing or malformed header is simply false.
 */
export function verifyWebhookSignatureV2(
  secrets: string | readonly string[],
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  opts: VerifyV2Options = {},
): boolean {
  if (typeof header !== "string") return false;
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t" && timestamp === undefined && /^\d{1,12}$/.test(value)) {
      timestamp = Number(value);
    } else if (key === "v1") {
      candidates.push(value);
    }
  }
  if (timestamp === undefined || candidates.length === 0) return false;
  const nowSeconds = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  const tolerance = opts.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  if (Math.abs(nowSeconds - timestamp) > tolerance) return false;
  const keys = typeof secrets === "string" ? [secrets] : secrets;
  let ok = false;
  for (const secret of keys) {
    const expected = signWebhookPayloadV2(secret, timestamp, rawBody);
    // No early exit: every candidate is compared whatever matched before.
    for (const given of candidates) ok = sameSignature(expected, given) || ok;
  }
  return ok;
}
