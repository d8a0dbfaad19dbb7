import { createHash } from "node:crypto";
import type { Database } from "@/db/client";
import type { Config } from "@/lib/config";
import { INSUFFICIENT_SCOPE, scopeAllows } from "@/lib/domain/api-key-scopes";
import {
  ForbiddenError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
} from "@/lib/domain/errors";
import { teamAccessOf, teamRefusal } from "@/lib/domain/team-access";
import { logger } from "@/lib/logger";
import { authFailurePolicy, globalPolicy, walletSubject } from "@/lib/ratelimit/policies";
import type { RateLimitPolicy, RateLimitResult } from "@/lib/ratelimit/types";
import { getRuntime } from "@/lib/runtime";
import { looksLikeApiKey, verifyApiKey } from "@/lib/services/auth/api-keys";
import type { AuthedContext, ServiceContext } from "@/lib/services/context";
import { claimIdempotencyKey, finishIdempotencyKey } from "@/lib/services/idempotency";
import { liveRole } from "@/lib/services/team/access";
import { parseWith, readJsonBody } from "./body";
import { clientIp } from "./client-ip";
import { internalErrorPayload, toErrorPayload } from "./errors";
import { etagOf, noneMatchHits } from "./etag";
import {
  type AnySerializer,
  errorBody,
  pickForm,
  type Serializer,
  successBody,
  type WireContext,
  type WireForm,
} from "./forms";
import { requestIdOf } from "./request-id";
import { textResponse } from "./response-text";
import type { AuthKind, HandlerInput, JsonSuccess, Operation, RouteHandler } from "./route";

export const AUTH_REQUIRED = "Authentication required";

// ---- replies (what a handler may return besides a bare value) ------------------------------

const REPLY = Symbol("reply");

export type Reply =
  | { [REPLY]: true; kind: "json"; status: number; value: unknown; serializer: AnySerializer }
  | { [REPLY]: true; kind: "raw"; response: Response };

/** A JSON answer with another status or serializer than the operation's first success. */
export function reply<T>(value: T, serializer: Serializer<T>, status = 200): Reply {
  return { [REPLY]: true, kind: "json", status, value, serializer };
}

/** A non-JSON answer (a PDF, say); it still gets the request id and rate-limit headers. */
export function rawReply(response: Response): Reply {
  return { [REPLY]: true, kind: "raw", response };
}

/** What a handler returned, as a reply: a bare value goes out with the first JSON success. */
function toReply(op: Operation, result: unknown): Reply {
  if (typeof result === "object" && result !== null && REPLY in result) return result as Reply;
  const first = op.responses.find((r): r is JsonSuccess => "serializer" in r);
  if (!first) throw new Error(`${op.operationId} returned a value but declares no JSON success`);
  return reply(result, first.serializer, first.status);
}

type Params = Record<string, string>;

export function invalidIdempotencyKey() {
  return new ValidationError("Invalid Idempotency-Key", {
    "Idempotency-Key": "1 to 255 visible ASCII characters",
  });
}

/**
 * The request pipeline of every operation (lib/http/route.ts declares them): request id and
 * form, credentials (`op.auth`), the global limit and the operation's own (`op.limit`),
 * idempotency, the query and the body against their schemas, then the handler; its value
 * goes out through the operation's serializer, and anything thrown through lib/http/errors.ts.
 */
export function endpoint(
  op: Operation,
  handler: (input: HandlerInput<AuthKind, Params, unknown, unknown>) => Promise<unknown>,
): RouteHandler {
  return async (req, context) => {
    const url = new URL(req.url);
    const form = pickForm(url);
    const requestId = requestIdFrom(req.headers);
    const limits: RateLimitResult[] = [];
    let idempotency: { scope: string; key: string; db: Database } | undefined;
    // Hits of limits that count only successes (creations), handed back when the request fails.
    const uncounted: { result: RateLimitResult; subject: string }[] = [];
    let release = async (): Promise<void> => {};
    const finish = async (response: Response, replayed = false): Promise<Response> => {
      if (response.status >= 400 || replayed) await release();
      if (!idempotency || replayed) return response;
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
        statusCache: runtime.statusCache,
      };
      const ip = `ip:${clientIp(req.headers, config)}`;
      const hit = async (policy: RateLimitPolicy, subjects: string[]) => {
        if (!config.rateLimitsEnabled) return;
        for (const subject of subjects) {
          const result = await rateLimiter.hit(policy, subject, now());
          limits.push(result);
          if (!result.allowed) {
            // A refused create created nothing either: it must not push the count past the
            // successes (concurrent refusals would otherwise eat the wallet's budget).
            if (policy.successesOnly) uncounted.push({ result, subject });
            const retryAfter = Math.max(
              1,
              Math.ceil((result.resetAt.getTime() - Date.now()) / 1000),
            );
            throw new RateLimitedError(policy.message, retryAfter);
          }
          if (policy.successesOnly) uncounted.push({ result, subject });
        }
      };
      ctx.limitCaller = (policy, key) => hit(policy, [key ? `${ip} ${key}` : ip]);
      release = async () => {
        for (const { result, subject } of uncounted.splice(0)) {
          await rateLimiter
            .release(result, subject)
            .catch((err) =>
              logger.warn("releasing a limit hit failed", { requestId, error: String(err) }),
            );
        }
      };

      let wallet: string | undefined;
      let caller = [ip];
      if (op.auth === "cron") {
        assertCron(req.headers, config);
      } else {
        try {
          wallet = await authenticate(req.headers, ctx, op);
        } catch (err) {
          // Failed credentials also count against the caller's address.
          if (err instanceof UnauthorizedError) await hit(authFailurePolicy, [ip]);
          throw err;
        }
        // A team member's books token (docs/decisions.md, Team access): the live membership
        // is read on every request; the services then see the owner's wallet, and
        // ctx.member says who acts (the audit's actor, the limits' subject).
        const books = op.auth === "authed" ? ctx.session?.books : undefined;
        if (wallet && books) {
          ctx.member = { wallet, role: await liveRole(ctx, { owner: books, member: wallet }) };
          wallet = books;
        }
        // Signed-in endpoints count per wallet (a member's own, on any books); public ones
        // always per IP, and a token adds its wallet's count, never replaces the IP's
        // (docs/decisions.md, Limits).
        const counted = ctx.member?.wallet ?? wallet;
        if (counted)
          caller = op.auth === "authed" ? [walletSubject(counted)] : [ip, walletSubject(counted)];
        await hit(globalPolicy(config.rateLimitGlobalPerMinute), caller);
        // After the count: a key knocking on operations it may not call uses its budget too.
        if (ctx.apiKey && (!op.scope || !scopeAllows(ctx.apiKey.scopes, op.scope))) {
          throw new ForbiddenError(INSUFFICIENT_SCOPE);
        }
        // A member's role, against the operation's one decision (lib/domain/team-access.ts).
        if (ctx.member) {
          const refusal = teamRefusal(ctx.member.role, teamAccessOf(op));
          if (refusal) throw new ForbiddenError(refusal);
        }
      }
      if (op.limit) await hit(op.limit.policy(config), op.limit.per === "ip" ? [ip] : caller);

      const params = Object.fromEntries(
        Object.entries((await context?.params) ?? {}).map(([k, v]) => [
          k,
          Array.isArray(v) ? v.join("/") : v,
        ]),
      );
      const fullCtx = wallet ? { ...ctx, wallet } : ctx;
      const key = op.idempotent ? req.headers.get("idempotency-key") : null;
      if (key !== null && !/^[\x21-\x7e]{1,255}$/.test(key)) throw invalidIdempotencyKey();
      const query = op.query ? parseWith(op.query, queryObject(url.searchParams)) : undefined;
      const body = op.body
        ? parseWith(
            op.body.schema,
            await readJsonBody(req, Math.max(config.maxBodyBytes, op.body.maxBytes ?? 0)),
            op.body.message,
          )
        : undefined;
      if (key !== null) {
        // Keys belong to their caller (the wallet, else the address) and endpoint; the
        // fingerprint is of the validated request (docs/decisions.md, Limits).
        // A member's key is also per books: the same key in two books never replays.
        const books = ctx.member ? ` books:${wallet}` : "";
        const scope = `${caller[caller.length - 1]}${books} ${req.method} ${url.pathname.replace(/^\/api\/v1\//, "/api/")}`;
        const requestHash = createHash("sha256")
          .update(`${form}:${JSON.stringify({ query, body }, jsonSafe) ?? ""}`)
          .digest("hex");
        const claim = await claimIdempotencyKey(ctx.db, { scope, key, requestHash, now: now() });
        if (claim.kind === "replay") {
          const replay = json(claim.response.body, claim.response.status, requestId, limits);
          replay.headers.set("idempotent-replayed", "true");
          return await finish(replay, true);
        }
        idempotency = { scope, key, db: ctx.db };
      }
      const result = await handler({
        ctx: fullCtx as AuthedContext,
        params,
        query,
        body,
        form,
        request: req,
      });
      const wire = { appUrl: config.appUrl, now: now() };
      const validators = op.etag ? { ifNoneMatch: req.headers.get("if-none-match") } : undefined;
      return await finish(respond(toReply(op, result), form, wire, requestId, limits, validators));
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
      const internal = internalErrorPayload(op.internalError);
      return finish(json(errorBody(form, internal), 500, requestId, limits));
    }
  };
}

/** Validated values as JSON for the fingerprint (amounts may be bigint). */
const jsonSafe = (_key: string, value: unknown) =>
  typeof value === "bigint" ? value.toString() : value;

/** The query string for zod: the last value of a repeated key wins; `envelope` is the form's. */
function queryObject(query: URLSearchParams): Record<string, string> {
  const object = Object.fromEntries(query.entries());
  delete object.envelope;
  return object;
}

/**
 * Bearer token (Form B) or the three Form A headers (one request per nonce).
 * Public endpoints look at a Bearer token only, so a payer's page never burns a nonce.
 */
async function authenticate(
  headers: Headers,
  ctx: ServiceContext,
  op: Operation,
): Promise<string | undefined> {
  const required = op.auth === "authed";
  const authorization = headers.get("authorization");
  if (authorization?.startsWith("Bearer ")) {
    const token = authorization.slice("Bearer ".length).trim();
    // A restricted API key works on the signed-in operations its scopes name, and nowhere
    // else; public operations treat it as no credential (docs/decisions.md, API keys).
    if (looksLikeApiKey(token)) {
      if (!required) return undefined;
      const key = await verifyApiKey(ctx, token);
      ctx.apiKey = key;
      return key.wallet;
    }
    try {
      // Loaded on the first session token (the JWT library, the Stellar key checks): a public
      // read answers without them (docs/decisions.md, Cold start).
      const { verifySessionToken } = await import("@/lib/services/auth/token");
      return await verifySessionToken(ctx, token);
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
    const { consumeSignedNonce } = await import("@/lib/services/auth/nonce");
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

export function requestIdFrom(headers: Headers): string {
  return requestIdOf(headers.get("x-request-id"));
}

function respond(
  result: Reply,
  form: WireForm,
  wire: WireContext,
  requestId: string,
  limits: RateLimitResult[],
  /** Set for operations with `etag`: the body's tag goes out, and a 304 when it matches. */
  validators?: { ifNoneMatch: string | null },
): Response {
  if (result.kind === "raw") {
    for (const [k, v] of baseHeaders(requestId, limits)) {
      if (!result.response.headers.has(k)) result.response.headers.set(k, v);
    }
    return result.response;
  }
  const body = successBody(form, result.value, result.serializer, wire);
  if (process.env.NODE_ENV === "development") checkBody(result.serializer, form, body, requestId);
  if (!validators || result.status !== 200) return json(body, result.status, requestId, limits);
  const text = JSON.stringify(body);
  const etag = etagOf(text);
  const headers = baseHeaders(requestId, limits);
  // Stored, but asked again every time: the tag makes the unchanged answer a bodiless 304.
  headers.set("cache-control", "no-cache");
  headers.set("etag", etag);
  if (noneMatchHits(validators.ifNoneMatch, etag))
    return new Response(null, { status: 304, headers });
  headers.set("content-type", "application/json; charset=utf-8");
  return textResponse(text, { status: 200, headers });
}

/**
 * Development only: a body its schema does not accept is logged. The types already keep a
 * serializer to its schema's fields; this catches values (a malformed id, a wrong enum).
 */
function checkBody(serializer: AnySerializer, form: WireForm, body: unknown, requestId: string) {
  const schema = form === "A" ? serializer.shape.envelope : serializer.shape.b;
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    logger.warn("response does not match its schema", {
      requestId,
      shape: serializer.shape.name,
      issues: parsed.error.issues.slice(0, 5),
    });
  }
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
  return textResponse(JSON.stringify(body), { status, headers });
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
