import type { Config } from "@/lib/config";
import { type ApiKeyScope, INSUFFICIENT_SCOPE } from "@/lib/domain/api-key-scopes";
import {
  ConflictError,
  type DomainError,
  ForbiddenError,
  NetworkBusyError,
  RateLimitedError,
  UnauthorizedError,
  UnavailableError,
  UnsupportedMediaTypeError,
  ValidationError,
} from "@/lib/domain/errors";
import { BOOKS_CLOSED, type TeamAccess, teamAccessOf, teamRefusal } from "@/lib/domain/team-access";
import { globalPolicy } from "@/lib/ratelimit/policies";
import type { RateLimitPolicy } from "@/lib/ratelimit/types";
import { INVALID_SIGNATURE, INVALID_TOKEN } from "@/lib/services/auth/messages";
import type { AuthedContext, ServiceContext } from "@/lib/services/context";
import { KEY_IN_PROGRESS, KEY_REUSED } from "@/lib/services/idempotency";
import { NETWORK_BUSY, NETWORK_UNAVAILABLE } from "@/lib/stellar/errors";
import type { z } from "@/lib/zod";
import { INVALID_REQUEST, MALFORMED_JSON, NOT_JSON, tooLarge } from "./body";
import {
  AUTH_REQUIRED,
  endpoint,
  invalidIdempotencyKey,
  json,
  type Reply,
  requestIdFrom,
} from "./endpoint";
import {
  DATABASE_UNAVAILABLE_PAYLOAD,
  ERROR_TABLE,
  type ErrorPayload,
  internalErrorPayload,
  toErrorPayload,
} from "./errors";
import { type AnySerializer, errorBody, pickForm, type WireForm } from "./forms";

export { rawReply, reply } from "./endpoint";

/**
 * One operation of the API, declared in app/api/<path>/spec.ts beside the route.ts that
 * handles it. The same object configures the request pipeline (lib/http/endpoint.ts: auth,
 * limits, body, query, idempotency, the 500 message) and describes the operation in the
 * OpenAPI document (lib/openapi/document.ts, through the registry lib/openapi/routes.ts), so
 * what the document says is what the route does. The contract sits in its own small file so
 * route.ts stays the wiring (a few lines per method) and the registry loads contracts, not
 * handlers.
 */

/** none: a plain handler (no credentials, no limits); public: optional Bearer; cron: the
 * CRON_SECRET. */
export type AuthKind = "none" | "public" | "authed" | "cron";

/** The document's sections (lib/openapi/document.ts describes each). */
export type Tag =
  | "Auth"
  | "Invoices"
  | "Quotes"
  | "Clients"
  | "Client portal"
  | "Profile"
  | "Recurring invoices"
  | "Payment links"
  | "Payments"
  | "Prices"
  | "Webhooks"
  | "Team"
  | "Health"
  | "Cron";

type Example = { summary: string; value: unknown };

export type BodySpec<S extends z.ZodType = z.ZodType> = {
  /** An optional schema (`.optional()`) makes the body optional: absent, it is `undefined`. */
  schema: S;
  /** The 400 message when the body fails its schema (default `Invalid request`). */
  message?: string;
  /** A larger body than MAX_BODY_BYTES this operation takes (the profile's logo). */
  maxBytes?: number;
  /** Request examples for the document; tests/openapi.test.ts parses each with `schema`. */
  examples: Record<string, Example>;
};

/** A limit on top of the global one (counted after authentication, before the body is read). */
export type LimitSpec = {
  policy: (config: Config) => RateLimitPolicy;
  /** `caller`: the wallet of a valid token, else the client IP; `ip`: always the client IP. */
  per: "caller" | "ip";
  /** For the document, e.g. "20 invoices per hour per wallet". */
  note: string;
};

/** A JSON success in both forms, written by a serializer (lib/serializers, typed by lib/schemas) */
export type JsonSuccess = { status: number; description: string; serializer: AnySerializer };
/** A non-JSON body (the invoice PDF): no envelope. */
export type RawSuccess = {
  status: number;
  description: string;
  raw: { contentType: string; headers?: Record<string, { description: string }> };
};
/** A JSON body that is never enveloped (health). */
export type PlainSuccess = {
  status: number;
  description: string;
  plain: { schema: z.ZodType; example: unknown };
};
/** No body at all (204: sign-out). */
export type EmptySuccess = { status: 204; description: string; empty: true };
export type Success = JsonSuccess | RawSuccess | PlainSuccess | EmptySuccess;

export type Operation<
  A extends AuthKind = AuthKind,
  P extends z.ZodObject = z.ZodObject,
  Q extends z.ZodObject = z.ZodObject,
  B extends z.ZodType = z.ZodType,
  R extends readonly Success[] = readonly Success[],
> = {
  /** Two methods (GET and POST for the cron routes) share one operation. */
  method: Method | readonly Method[];
  /** The OpenAPI path: the route's folder under app/, `[id]` as `{id}`. */
  path: string;
  operationId: string;
  tag: Tag;
  summary: string;
  description?: string;
  auth: A;
  /** Authed operations a restricted API key may call: the scopes that allow it (any one
   * suffices, lib/domain/api-key-scopes.ts). Without it only a signed-in wallet may. */
  scope?: readonly ApiKeyScope[];
  /** Authed operations: which team roles may call it on the owner's books (read: accountant
   * and member; write: member; owner: neither). Left out, `teamAccessOf` in
   * lib/domain/team-access.ts derives it from `scope` and the method. */
  team?: TeamAccess;
  limit?: LimitSpec;
  /** Path parameters, for the document and the handler's types (ids are not validated: an
   * unknown id is the service's 404). */
  params?: P;
  /** Validated by the pipeline (`envelope` aside); failures are a 400. */
  query?: Q;
  body?: BodySpec<B>;
  /** Honour `Idempotency-Key`: the first response is stored and replayed for 24 hours. */
  idempotent?: boolean;
  /** A 200 carries an `ETag` (a hash of its body) and `If-None-Match` naming it gets a 304. */
  etag?: boolean;
  /** Talks to Horizon: may answer 429 `Network is busy` and 503 `Stellar network ...`. */
  ledger?: boolean;
  /** Message of an unexpected 500 on this operation (default `Internal server error`). */
  internalError?: string;
  /** The first JSON success is what a handler's bare return value is serialized with. */
  responses: R;
  /** What the operation itself can answer; lib/http/errors.ts gives each its status and code.
   * The errors the pipeline adds (auth, limits, body, 500, 503) are listed by `errorsOf`. */
  errors?: readonly DomainError[];
};

// ---- handlers -------------------------------------------------------------------------------

type NextContext = { params?: Promise<Record<string, string | string[]>> };
export type RouteHandler = ((req: Request, context: NextContext) => Promise<Response>) & {
  /** Set by defineRoute and plainRoute; the registry (lib/openapi/routes.ts) reads it. */
  operation?: Operation;
};

type FirstValue<R extends readonly Success[]> = R extends readonly [infer F, ...infer Rest]
  ? F extends { serializer: { b: (value: infer T, ...rest: never[]) => unknown } }
    ? T
    : Rest extends readonly Success[]
      ? FirstValue<Rest>
      : never
  : never;

export type HandlerInput<A extends AuthKind, P, Q, B> = {
  ctx: A extends "authed" ? AuthedContext : ServiceContext;
  params: P;
  query: Q;
  body: B;
  form: WireForm;
  /** The request itself, for the few handlers that need more (a stream's end, the caller's address). */
  request: Request;
};

export type Handler<A extends AuthKind, P extends z.ZodObject, Q extends z.ZodObject, B, R> = (
  input: HandlerInput<A, z.output<P>, z.output<Q>, B>,
) => Promise<R | Reply>;

/** Declares an operation (in a spec.ts), keeping the literal types defineRoute reads. */
export function operation<
  const R extends readonly Success[],
  A extends AuthKind,
  P extends z.ZodObject = z.ZodObject<Record<never, never>>,
  Q extends z.ZodObject = z.ZodObject<Record<never, never>>,
  B extends z.ZodType = z.ZodUndefined,
>(op: Operation<A, P, Q, B, R>): Operation<A, P, Q, B, R> {
  return op;
}

/**
 * The handler of an operation: it gets the authenticated context, the path parameters, the
 * validated query and body, and returns the value to serialize (or a `reply(...)`).
 */
export function defineRoute<
  const R extends readonly Success[],
  A extends AuthKind,
  P extends z.ZodObject,
  Q extends z.ZodObject,
  B extends z.ZodType,
>(
  op: Operation<A, P, Q, B, R>,
  handler: Handler<A, P, Q, z.output<B>, FirstValue<R>>,
): RouteHandler {
  const route: RouteHandler = endpoint(op as Operation, handler as never);
  route.operation = op as Operation;
  return route;
}

/** A handler outside the pipeline (health), described all the same. */
export function plainRoute(
  op: Operation<"none", z.ZodObject, z.ZodObject, z.ZodType, readonly Success[]>,
  handler: (req: Request) => Promise<Response>,
): RouteHandler {
  const route: RouteHandler = (req) => handler(req);
  route.operation = op;
  return route;
}

export function operationOf(handler: unknown): Operation | undefined {
  return (handler as RouteHandler | undefined)?.operation;
}

export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type Method = (typeof METHODS)[number];

export const methodsOf = (op: Operation): readonly Method[] =>
  typeof op.method === "string" ? [op.method] : op.method;

/**
 * Exports every method for a route file: each route under its operation's method(s), and a
 * JSON 405 for the rest (Next.js would answer an empty 405).
 */
export function methods(...routes: RouteHandler[]): Record<Method, RouteHandler> {
  const handlers: Partial<Record<Method, RouteHandler>> = {};
  for (const route of routes) {
    for (const m of methodsOf(route.operation as Operation)) handlers[m] = route;
  }
  const allowed = METHODS.filter((m) => handlers[m]);
  const notAllowed: RouteHandler = async (req) => {
    const form = pickForm(new URL(req.url));
    const response = json(
      errorBody(form, { ...ERROR_TABLE.method_not_allowed, message: "Method not allowed" }),
      405,
      requestIdFrom(req.headers),
    );
    response.headers.set("allow", allowed.join(", "));
    return response;
  };
  return Object.fromEntries(METHODS.map((m) => [m, handlers[m] ?? notAllowed])) as Record<
    Method,
    RouteHandler
  >;
}

// ---- what the pipeline itself can answer (for the document) ---------------------------------

/** MAX_BODY_BYTES by default (lib/config.ts), for the 413 message the document shows. */
const DEFAULT_MAX_BODY_BYTES = 100_000;
/** The default limits (lib/config.ts), for the 429 messages the document shows. */
export const LIMIT_DEFAULTS = {
  rateLimits: {
    invoicesPerHour: 20,
    linksPerHour: 60,
    payIntentPer5Minutes: 10,
    pricePerMinute: 30,
    costlyPerMinute: 30,
  },
} as Config;
const EXAMPLE_RETRY_AFTER = 42;
const TOO_MANY = globalPolicy(100).message;

const payload = (err: DomainError) => toErrorPayload(err) as ErrorPayload;

/** True when the global limit (and so the rate-limit headers) applies to the operation. */
export const isLimited = (op: Operation) => op.auth === "public" || op.auth === "authed";

/**
 * Every error an operation can answer, as the pipeline sends it: the body checks, the
 * credentials, the operation's own errors, the limits, the ledger, then 500 and 503.
 */
export function errorsOf(op: Operation): ErrorPayload[] {
  if (op.auth === "none") return [];
  const list: DomainError[] = [];
  if (op.body) {
    list.push(
      new ValidationError(INVALID_REQUEST, { body: MALFORMED_JSON }),
      tooLarge(DEFAULT_MAX_BODY_BYTES),
      new UnsupportedMediaTypeError(NOT_JSON),
    );
  }
  if (op.auth === "authed") {
    list.push(
      new UnauthorizedError(AUTH_REQUIRED),
      new UnauthorizedError(INVALID_TOKEN),
      new UnauthorizedError(INVALID_SIGNATURE),
      new ForbiddenError(INSUFFICIENT_SCOPE),
      new ForbiddenError(BOOKS_CLOSED),
    );
    // What a team member's books token gets when its role may not call the operation.
    const access = teamAccessOf(op);
    for (const role of ["accountant", "member"] as const) {
      const refusal = teamRefusal(role, access);
      if (refusal) list.push(new ForbiddenError(refusal));
    }
  }
  if (op.auth === "cron") list.push(new UnauthorizedError(AUTH_REQUIRED));
  if (op.idempotent) {
    // The key's own checks (lib/services/idempotency.ts).
    list.push(
      invalidIdempotencyKey(),
      new ValidationError(KEY_REUSED),
      new ConflictError(KEY_IN_PROGRESS),
    );
  }
  list.push(...(op.errors ?? []));
  if (op.limit) {
    list.push(new RateLimitedError(op.limit.policy(LIMIT_DEFAULTS).message, EXAMPLE_RETRY_AFTER));
  }
  if (isLimited(op)) list.push(new RateLimitedError(TOO_MANY, EXAMPLE_RETRY_AFTER));
  if (op.ledger) {
    list.push(new NetworkBusyError(NETWORK_BUSY), new UnavailableError(NETWORK_UNAVAILABLE));
  }
  const payloads = list.map(payload);
  payloads.push(internalErrorPayload(op.internalError), DATABASE_UNAVAILABLE_PAYLOAD);
  const seen = new Set<string>();
  return payloads.filter((e) => {
    const key = `${e.status} ${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
