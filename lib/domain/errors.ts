// Domain errors describe what went wrong in business terms only. They know
// nothing of HTTP: lib/http/errors.ts is the single place that maps `kind` to a
// status code and a response body. The `message` strings are the API's documented
// messages (docs/decisions.md), so the HTTP layer can pass them through unchanged.

export const DOMAIN_ERROR_KINDS = [
  "validation",
  "not_found",
  "forbidden",
  "conflict",
  "business_rule",
  "unauthorized",
  "method_not_allowed",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "ledger",
  "network_busy",
  "unavailable",
] as const;

export type DomainErrorKind = (typeof DOMAIN_ERROR_KINDS)[number];

/** Field name (or dotted path such as `lineItems.0.rate`) to a message. */
export type ErrorDetails = Record<string, string>;

/**
 * A brand instead of `instanceof`: Next.js bundles the instrumentation hook (which builds the
 * shared runtime: database, rate limiter) apart from the routes, so an error class can exist
 * twice in one process and `instanceof` fails across the copies.
 */
const BRAND = Symbol.for("stellar-invoicing.DomainError");

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  readonly details?: ErrorDetails;
  readonly [BRAND] = true;

  constructor(message: string, details?: ErrorDetails) {
    super(message);
    this.name = new.target.name;
    if (details !== undefined) this.details = details;
  }
}

/**
 * The base class of one kind: every error below is `class XError extends ofKind("x") {}`,
 * so the kind is written once per class and recognised by the brand above.
 */
function ofKind<const K extends DomainErrorKind>(kind: K) {
  return class extends DomainError {
    readonly kind: K = kind;
  };
}

/** Malformed or out-of-bounds input (400). */
export class ValidationError extends ofKind("validation") {}
/** Unknown or deleted resource (404). */
export class NotFoundError extends ofKind("not_found") {}
/** The resource belongs to someone else (403). */
export class ForbiddenError extends ofKind("forbidden") {}
/** A uniqueness rule would be broken, e.g. a reused invoice number (409). */
export class ConflictError extends ofKind("conflict") {}
/**
 * Well-formed input that the current state does not allow, e.g. paying a
 * DRAFT invoice (400). `details` is optional for rules tied to one field.
 */
export class BusinessRuleError extends ofKind("business_rule") {}
/** Missing, invalid or expired credentials (401). */
export class UnauthorizedError extends ofKind("unauthorized") {}
/** The request body is larger than the service accepts (413). */
export class PayloadTooLargeError extends ofKind("payload_too_large") {}
/** The request body is not JSON (415). */
export class UnsupportedMediaTypeError extends ofKind("unsupported_media_type") {}
/** A dependency (database, ledger API, price source) cannot be reached (503). */
export class UnavailableError extends ofKind("unavailable") {}

/** A rate limit was reached (429); `retryAfterSeconds` feeds Retry-After and `retryAfter`. */
export class RateLimitedError extends ofKind("rate_limited") {
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The ledger rejected a transaction; `code` is the ledger result code (400). */
export class LedgerError extends ofKind("ledger") {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** The ledger API is rate limiting us (429 `Network is busy...`). */
export class NetworkBusyError extends ofKind("network_busy") {
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds = 5) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as Record<symbol, unknown>)[BRAND] === true &&
    DOMAIN_ERROR_KINDS.includes((error as DomainError).kind)
  );
}

/** The Retry-After of a 429 (rate limit, or the network busy), across bundle copies too. */
export function retryAfterOf(error: DomainError): number | undefined {
  const seconds = (error as Partial<RateLimitedError>).retryAfterSeconds;
  return error.kind === "rate_limited" || error.kind === "network_busy" ? seconds : undefined;
}
