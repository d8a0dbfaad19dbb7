import { createHmac, timingSafeEqual } from "node:crypto";

/** Header names of an outbound delivery (docs/decisions.md, Webhooks). */
export const SIGNATURE_HEADER = "X-Service-Signature";
export const EVENT_ID_HEADER = "X-Service-Event-Id";
export const TIMESTAMP_HEADER = "X-Service-Timestamp";

/**
 * Lowercase hex HMAC-SHA256 of the exact raw body bytes, keyed with the subscription's
 * secret (the whole `whsec_...` string, UTF-8). Sign the bytes you send, never a re-encoding.
 */
export function signWebhookBody(secret: string, rawBody: string | Uint8Array): string {
  return createHmac("sha256", secret).update(rawBody).digest("hex");
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
  if (typeof signature !== "string" || !/^[0-9a-fA-F]{64}$/.test(signature.trim())) return false;
  const expected = Buffer.from(signWebhookBody(secret, rawBody), "hex");
  const given = Buffer.from(signature.trim(), "hex");
  return expected.length === given.length && timingSafeEqual(expected, given);
}
