import { createHash, randomUUID } from "node:crypto";
import type { z } from "zod";
import type { Database } from "@/db/client";
import type { Config } from "@/lib/config";
import { RateLimitedError, UnauthorizedError, ValidationError } from "@/lib/domain/errors";
import { logger } from "@/lib/logger";
import { authFailurePolicy, globalPolicy } from "@/lib/ratelimit/policies";
import type { RateLimitPolicy, RateLimitResult } from "@/lib/ratelimit/types";
import { getRuntime } from "@/lib/runtime";
import { consumeSignedNonce } from "@/lib/services/auth/nonce";
import { verifySessionToken } from "@/lib/services/auth/token";
import type { AuthedContext, ServiceContext } from "@/lib/services/context";
import { claimIdempotencyKey, finishIdempotencyKey } from "@/lib/services/idempotency";
import { parseWith, readJsonBody } from "./body";
import { clientIp } from "./client-ip";
import { INTERNAL_ERROR, toErrorPayload } from "./errors";
import { errorBody, pickForm, type Serializer, successBody, type WireForm } from "./forms";

export const AUTH_REQUIRED = "Authentication required";

type Params = Record<string, string>;

export type Reply =
  | { kind: "json"; status: number; value: unknown; serializer: Serializer<unknown> }
  | { kind: "empty"; status: number }
  | { kind: "raw"; response: Response };

/** A non-JSON answer (a PDF, say); it still gets the request id and rate-limit headers. */
export function rawReply(response: Response): Reply {
  return { kind: "raw", response };
}

export function reply<T>(value: T, serializer: Serializer<T>, status = 200): Reply {
  return { kind: "json", status, value, serializer: serializer as Serializer<unknown> };
}

export type EndpointInput<C extends ServiceContext, P extends Params> = {
  ctx: C;
  params: P;
  query: URLSearchParams;
  form: WireForm;
  headers: Headers;
  ip: string;
  /** Who the global limit counts this request against: `w:<wallet>` or `ip:<address>`. */
  subject: string;
  /** Reads and validates the JSON body; `message` is the 400 message on failure. */
  body: <S extends z.ZodType>(schema: S, message?: string) => Promise<z.infer<S>>;
  /** Applies an extra per-endpoint limit (counted here, after authentication). */
  limit: (policy: RateLimitPolicy, subject: string) => Promise<void>;
};

type AuthMode = "required" | "optional" | "cron";

type Options = {
  /** Message of an unexpected 500 on this endpoint (spec 4.3 names some). */
  internalError?: string;
  /** Honour `Idempotency-Key`: the first response is stored and replayed for 24 hours. */
  idempotent?: boolean;
};

type NextContext = { params?: Promise<Record<string, string | string[]>> };
export type RouteHandler = (req: Request, context: NextContext) => Promise<Response>;

export function publicEndpoint<P extends Params = Params>(
  handler: (input: EndpointInput<ServiceContext, P>) => Promise<Reply>,
  options: Options = {},
): RouteHandler {
  return build<ServiceContext, P>("optional", handler, options);
}

export function authedEndpoint<P extends Params = Params>(
  handler: (input: EndpointInput<AuthedContext, P>) => Promise<Reply>,
  options: Options = {},
): RouteHandler {
  return build<AuthedContext, P>("required", handler, options);
}

export function cronEndpoint(
  handler: (input: EndpointInput<ServiceContext, Params>) => Promise<Reply>,
): RouteHandler {
  return build<ServiceContext, Params>("cron", handler, {});
}

function build<C extends ServiceContext, P extends Params>(
  mode: AuthMode,
  handler: (input: EndpointInput<C, P>) => Promise<Reply>,
  options: Options,
): RouteHandler {
  return async (req, context) => {
    const url = new URL(req.url);
    const form = pickForm(url);
    const requestId = requestIdFrom(req.headers);
    const limits: RateLimitResult[] = [];
    let idempotency: { scope: string; key: string; db: Database } | undefined;
    const finish = async (response: Response): Promise<Response> => {
      if (!idempotency) return response;
      const body = await response
        .clone()
        .json()
        .catch(() => null);
      await finishIdempotencyKey(idempotency.db, {
        scope: idempotency.scope,
        key: idempotency.key,
        response: { status: response.status, body },
      }).catch((err) =>
        logger.error("storing an idempotent response failed", { requestId, error: String(err) }),
      );
      return response;
    };
    try {
      const runtime = await getRuntime();
      const { config, rateLimiter } = runtime;
      const now = () => new Date();
      const ctx: ServiceContext = {
        db: runtime.database.db,
        config,
        now,
        logger,
        requestId,
      };
      const ip = clientIp(req.headers, config.trustProxy);
      const hit = async (policy: RateLimitPolicy, subject: string) => {
        if (!config.rateLimitsEnabled) return;
        const result = await rateLimiter.hit(policy, subject, now());
        limits.push(result);
        if (!result.allowed) {
          const retryAfter = Math.max(1, Math.ceil((result.resetAt.getTime() - Date.now()) / 1000));
          throw new RateLimitedError(policy.message, retryAfter);
        }
      };

      let wallet: string | undefined;
      if (mode === "cron") {
        assertCron(req.headers, config);
      } else {
        try {
          wallet = await authenticate(req.headers, ctx, mode === "required");
        } catch (err) {
          // Failed credentials also count against the caller's address.
          if (err instanceof UnauthorizedError) await hit(authFailurePolicy, ip);
          throw err;
        }
        await hit(
          globalPolicy(config.rateLimitGlobalPerMinute),
          wallet ? `w:${wallet}` : `ip:${ip}`,
        );
      }

      const params = Object.fromEntries(
        Object.entries((await context?.params) ?? {}).map(([k, v]) => [
          k,
          Array.isArray(v) ? v.join("/") : v,
        ]),
      ) as P;
      const fullCtx = (wallet ? { ...ctx, wallet } : ctx) as C;
      let rawBody: Promise<unknown> | undefined;
      const readBody = () => {
        rawBody ??= readJsonBody(req, config.maxBodyBytes);
        return rawBody;
      };
      const key = options.idempotent ? req.headers.get("idempotency-key") : null;
      if (key !== null) {
        if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
          throw new ValidationError("Invalid Idempotency-Key", {
            "Idempotency-Key": "1 to 255 visible ASCII characters",
          });
        }
        const scope = `${req.method} ${url.pathname.replace(/^\/api\/v1\//, "/api/")}`;
        const requestHash = createHash("sha256")
          .update(`${form}:${JSON.stringify((await readBody()) ?? null)}`)
          .digest("hex");
        const claim = await claimIdempotencyKey(ctx.db, { scope, key, requestHash, now: now() });
        if (claim.kind === "replay") {
          const replay = json(claim.response.body, claim.response.status, requestId, limits);
          replay.headers.set("idempotent-replayed", "true");
          return replay;
        }
        idempotency = { scope, key, db: ctx.db };
      }
      const result = await handler({
        ctx: fullCtx,
        params,
        query: url.searchParams,
        form,
        headers: req.headers,
        ip,
        subject: wallet ? `w:${wallet}` : `ip:${ip}`,
        body: async (schema, message) => parseWith(schema, await readBody(), message),
        limit: hit,
      });
      return await finish(respond(result, form, requestId, limits));
    } catch (err) {
      const payload = toErrorPayload(err);
      if (payload) {
        if (payload.status >= 500) logger.warn("request failed", { requestId, error: String(err) });
        return finish(
          json(errorBody(form, payload), payload.status, requestId, limits, payload.retryAfter),
        );
      }
      logger.error("unhandled error", {
        requestId,
        method: req.method,
        path: url.pathname,
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      });
      const message = options.internalError ?? INTERNAL_ERROR;
      return finish(
        json(
          errorBody(form, { status: 500, code: "INTERNAL_ERROR", message }),
          500,
          requestId,
          limits,
        ),
      );
    }
  };
}

/**
 * Bearer token (Form B) or the three Form A headers (one request per nonce).
 * Public endpoints look at a Bearer token only, so a payer's page never burns a nonce.
 */
async function authenticate(
  headers: Headers,
  ctx: ServiceContext,
  required: boolean,
): Promise<string | undefined> {
  const authorization = headers.get("authorization");
  if (authorization?.startsWith("Bearer ")) {
    const token = authorization.slice("Bearer ".length).trim();
    try {
      return await verifySessionToken({ secret: ctx.config.jwtSecret, token, now: ctx.now() });
    } catch (err) {
      if (required) throw err;
      return undefined;
    }
  }
  if (!required) return undefined;
  const address = headers.get("x-wallet-address");
  const nonce = headers.get("x-auth-nonce");
  const signature = headers.get("x-auth-signature");
  if (address && nonce && signature) {
    return consumeSignedNonce(ctx, { walletAddress: address, nonce, signature });
  }
  throw new UnauthorizedError(AUTH_REQUIRED);
}

function assertCron(headers: Headers, config: Config) {
  const expected = config.cronSecret;
  const got = headers.get("authorization");
  if (!expected || got !== `Bearer ${expected}`) {
    throw new UnauthorizedError(AUTH_REQUIRED);
  }
}

function requestIdFrom(headers: Headers): string {
  const incoming = headers.get("x-request-id");
  return incoming && /^[\w.:-]{8,128}$/.test(incoming) ? incoming : randomUUID();
}

function respond(
  result: Reply,
  form: WireForm,
  requestId: string,
  limits: RateLimitResult[],
): Response {
  if (result.kind === "raw") {
    for (const [k, v] of baseHeaders(requestId, limits)) {
      if (!result.response.headers.has(k)) result.response.headers.set(k, v);
    }
    return result.response;
  }
  if (result.kind === "empty") {
    return new Response(null, { status: result.status, headers: baseHeaders(requestId, limits) });
  }
  return json(successBody(form, result.value, result.serializer), result.status, requestId, limits);
}

export function json(
  body: unknown,
  status: number,
  requestId: string,
  limits: RateLimitResult[] = [],
  retryAfter?: number,
): Response {
  const headers = baseHeaders(requestId, limits);
  headers.set("content-type", "application/json; charset=utf-8");
  if (retryAfter !== undefined) headers.set("retry-after", String(retryAfter));
  return new Response(JSON.stringify(body), { status, headers });
}

/** Rate-limit headers describe the most constraining limit that applied to the request. */
function baseHeaders(requestId: string, limits: RateLimitResult[]): Headers {
  // The page headers of next.config.ts (CSP, framing) skip /api: they mean nothing on JSON and
  // cost about 8% of the hot endpoints' throughput (bench/results.md); nosniff still applies.
  const headers = new Headers({
    "x-request-id": requestId,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  if (limits.length) {
    const tightest = limits.reduce((a, b) =>
      !b.allowed || (a.allowed && b.remaining < a.remaining) ? b : a,
    );
    const reset = Math.ceil(tightest.resetAt.getTime() / 1000);
    headers.set("ratelimit-limit", String(tightest.policy.limit));
    headers.set("ratelimit-remaining", String(tightest.remaining));
    headers.set("ratelimit-reset", String(reset));
    headers.set("x-ratelimit-limit", String(tightest.policy.limit));
    headers.set("x-ratelimit-remaining", String(tightest.remaining));
    headers.set("x-ratelimit-reset", String(reset));
    headers.set(
      "x-ratelimit-policy",
      limits.map((l) => `${l.policy.limit};w=${l.policy.windowSeconds}`).join(", "),
    );
  }
  return headers;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/**
 * Exports every method for a route file: the given handlers, and a JSON 405 for the rest
 * (Next.js would answer an empty 405).
 */
export function methods(
  handlers: Partial<Record<Method, RouteHandler>>,
): Record<Method, RouteHandler> {
  const allowed = METHODS.filter((m) => handlers[m]);
  const notAllowed: RouteHandler = async (req) => {
    const form = pickForm(new URL(req.url));
    const response = json(
      errorBody(form, { status: 405, code: "VALIDATION_ERROR", message: "Method not allowed" }),
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
