import { type DomainErrorKind, isDomainError, retryAfterOf } from "@/lib/domain/errors";
import type { ErrorCode } from "@/lib/schemas/wire";

/**
 * The one table from error to HTTP status and error code (docs/decisions.md). The OpenAPI
 * document runs the errors each route declares through toErrorPayload below, so it shows
 * exactly what the wrapper answers.
 */
export const ERROR_TABLE: Record<DomainErrorKind, { status: number; code: ErrorCode }> = {
  validation: { status: 400, code: "VALIDATION_ERROR" },
  business_rule: { status: 400, code: "VALIDATION_ERROR" },
  unauthorized: { status: 401, code: "UNAUTHORIZED" },
  forbidden: { status: 403, code: "FORBIDDEN" },
  not_found: { status: 404, code: "NOT_FOUND" },
  method_not_allowed: { status: 405, code: "VALIDATION_ERROR" },
  conflict: { status: 409, code: "CONFLICT" },
  payload_too_large: { status: 413, code: "VALIDATION_ERROR" },
  unsupported_media_type: { status: 415, code: "VALIDATION_ERROR" },
  rate_limited: { status: 429, code: "RATE_LIMIT_EXCEEDED" },
  ledger: { status: 400, code: "LEDGER_ERROR" },
  network_busy: { status: 429, code: "RATE_LIMIT_EXCEEDED" },
  unavailable: { status: 503, code: "UNAVAILABLE" },
};

export const DATABASE_UNAVAILABLE = "Service temporarily unavailable. Please try again later.";
export const INTERNAL_ERROR = "Internal server error";

export type ErrorPayload = {
  status: number;
  code: ErrorCode;
  message: string;
  details?: Record<string, string>;
  retryAfter?: number;
};

/** Maps anything thrown to a payload; `null` means unexpected (a 500 that must be logged). */
export function toErrorPayload(err: unknown): ErrorPayload | null {
  if (isDomainError(err)) {
    const { status, code } = ERROR_TABLE[err.kind];
    return {
      status,
      code,
      message: err.message,
      details: err.details,
      retryAfter: retryAfterOf(err),
    };
  }
  if (isDatabaseUnavailable(err)) return DATABASE_UNAVAILABLE_PAYLOAD;
  return null;
}

export const DATABASE_UNAVAILABLE_PAYLOAD: ErrorPayload = {
  ...ERROR_TABLE.unavailable,
  message: DATABASE_UNAVAILABLE,
};

/** An unexpected error: a 500 that shows no internals (`message` is the route's own). */
export function internalErrorPayload(message = INTERNAL_ERROR): ErrorPayload {
  return { status: 500, code: "INTERNAL_ERROR", message };
}

const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "QUERY_TIMEOUT", // db/client.ts: the server did not answer in time
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "53300", // too_many_connections
]);

/** True when the error (or one it wraps) says the database cannot be reached right now. */
export function isDatabaseUnavailable(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (CONNECTION_CODES.has(code) || code.startsWith("08"))) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
