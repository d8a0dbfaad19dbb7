/**
 * What a webhook delivery's `lastError` may say (docs/decisions.md, Webhooks): a small, fixed
 * set that names the kind of failure and nothing of the network behind it. The delivery log
 * is read by whoever registered the URL, so a socket's own words (ECONNREFUSED against
 * ECONNRESET, the address and port, the TLS library's message) would let the log scan the
 * service's network; the server log keeps them (`webhook delivery failed`).
 */
export const DELIVERY_ERRORS = {
  /** No complete answer within WEBHOOK_TIMEOUT_MS. */
  timeout: "Timed out",
  /** The host did not resolve, or the connection was refused, reset or closed before an answer. */
  connection: "Connection failed",
  /** The TLS handshake or the certificate check failed. */
  tls: "TLS error",
  /** The URL now resolves to an address webhooks may not reach (checked on every attempt). */
  notAllowed: "URL not allowed",
  /** The event was deleted (retention) before the delivery could be sent. */
  eventGone: "Event no longer available",
  /** The endpoint was deleted; its pending deliveries are closed. */
  deleted: "Webhook deleted",
} as const;

/** The receiver answered with a status other than 2xx. */
export const httpStatusError = (status: number) => `HTTP ${status}`;

/** The endpoint failed continuously for WEBHOOK_DISABLE_AFTER_MS and was disabled. */
export const disabledError = (days: number) => `Webhook disabled after failing for ${days} days`;

/** Every value `lastError` can take (null aside), for the schema and the OpenAPI document. */
export const DELIVERY_ERROR_PATTERN = new RegExp(
  `^(?:${[
    ...Object.values(DELIVERY_ERRORS),
    "HTTP [1-5][0-9]{2}",
    "Webhook disabled after failing for [0-9]+ days",
  ].join("|")})$`,
);

export const DELIVERY_ERROR_DESCRIPTION = `Why the last attempt failed, one of: ${Object.values(
  DELIVERY_ERRORS,
)
  .map((m) => `\`${m}\``)
  .join(
    ", ",
  )}, \`HTTP <status>\` (the receiver answered a status other than 2xx), \`Webhook disabled after failing for <n> days\`. Never a network detail.`;

/** TLS failures as node reports them (handshake, protocol, certificate checks). */
const TLS_CODE =
  /^(?:ERR_TLS_|ERR_SSL_|EPROTO$|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH$)/;

/** The fixed `lastError` of a failed request, from node's error (its code, else its text). */
export function deliveryErrorOf(err: { code?: string; message?: string }): string {
  const code = err.code ?? "";
  if (TLS_CODE.test(code) || /\b(?:SSL|TLS)\b|certificate/i.test(err.message ?? "")) {
    return DELIVERY_ERRORS.tls;
  }
  if (code === "ETIMEDOUT" || code === "ESOCKETTIMEDOUT") return DELIVERY_ERRORS.timeout;
  return DELIVERY_ERRORS.connection;
}

/**
 * The `lastError` the API answers: a value of the fixed set as stored, and any older free-text
 * value (rows written before the set existed) mapped onto it, so no network detail is shown.
 */
export function publicDeliveryError(stored: string | null): string | null {
  if (stored === null || DELIVERY_ERROR_PATTERN.test(stored)) return stored;
  if (/^timed out/i.test(stored)) return DELIVERY_ERRORS.timeout;
  if (/^Refused:/.test(stored)) return DELIVERY_ERRORS.notAllowed;
  const code = /^([A-Z][A-Z0-9_]+):/.exec(stored)?.[1];
  return deliveryErrorOf({ code, message: stored });
}
