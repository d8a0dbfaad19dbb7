import {
  createDocument,
  type ZodOpenApiComponentsObject,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from "zod-openapi";
import { rolesFor, teamAccessOf } from "@/lib/domain/team-access";
import type { ErrorPayload } from "@/lib/http/errors";
import { errorBody } from "@/lib/http/forms";
import {
  type AuthKind,
  errorsOf,
  isLimited,
  METHODS,
  type Method,
  methodsOf,
  type Operation,
  type Success,
  type Tag,
} from "@/lib/http/route";
import { NETWORK_VALUES, networkPassphraseSchema } from "@/lib/schemas/common";
import { errorA, errorB } from "@/lib/schemas/wire";
import { z } from "@/lib/zod";
import { buildWebhooks } from "./events";
import EXAMPLES from "./examples.json";
import { ROUTE_SPECS } from "./routes";

/**
 * The OpenAPI description of the whole API, in two versions from one source: 3.0 at
 * `/openapi.json` (what the spec promises, and what most tools read) and 3.1 at
 * `/openapi.3.1.json` (JSON Schema 2020-12 types, the `webhooks` section). Built with
 * zod-openapi from the operations
 * the routes declare (app/api/.../spec.ts, listed by ./routes): their request schemas
 * (lib/schemas), the response schemas of their serializers and the errors they declare, run
 * through the same code that answers requests (lib/http/errors.ts, lib/http/forms.ts).
 * The examples in ./examples.json are the output of the real serializers on sample rows;
 * tests/openapi.test.ts writes that file and fails when it is stale.
 */

/** Per response shape: the Form B payload, and the Form A one when it differs. */
type Examples = Record<string, { b: unknown; a?: unknown }>;

/** The deployment URL the examples are written with; each document puts its own in. */
export const EXAMPLE_APP_URL = "https://invoices.example.com";

const TAG_DESCRIPTIONS: Record<Tag | "Webhook events" | "Meta", string> = {
  Auth: "Wallet sign-in (nonce, signature, session token)",
  Invoices: "Create, send, list, cancel; public and owner views",
  Quotes:
    "Quotes (estimates): sent to the client, accepted or declined on its page, made into an invoice on acceptance",
  Clients: "Saved clients (upsert by email, favorites)",
  "Client portal":
    "The client's own pages: sign-in by emailed link or paying wallet, their documents and statement (a session cookie)",
  Profile: "Business profile: details, logo and defaults for new invoices",
  "Recurring invoices": "A template and a schedule: one invoice per period, sent on its date",
  "Payment links": "Single-amount checkout links",
  Payments: "Public payment flow: intent, submit, confirm, status",
  Prices: "XLM price in USD",
  Webhooks: "Register endpoints for events; delivery log and retry",
  Team: "Team access: invite wallets to one's books as accountant or member; open another wallet's books",
  "Webhook events": "What the service POSTs to your endpoints",
  Health: "Liveness and database reachability",
  Cron: "Background jobs for schedulers (CRON_SECRET)",
  Meta: "This description",
};

// ---- status descriptions and shared components --------------------------------------------

const STATUS_TEXT: Record<number, string> = {
  400: "Bad request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not found",
  409: "Conflict",
  413: "Payload too large",
  415: "Unsupported media type",
  429: "Too many requests",
  500: "Internal error",
  503: "Unavailable",
};

export const RATE_LIMIT_HEADERS = [
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "X-RateLimit-Policy",
] as const;

const HEADERS: NonNullable<ZodOpenApiComponentsObject["headers"]> = {
  "X-Request-Id": {
    description:
      "Id of this request, on every response (the caller's own `X-Request-Id` is echoed when it is 8-128 of `A-Za-z0-9_.:-`); the server log line of a 500 carries it.",
    required: true,
    schema: { type: "string", example: "5f0c6b2e-8a7d-4a34-9d0e-2c1f8f6f4b1a" },
  },
  "RateLimit-Limit": {
    description: "Requests allowed in the window of the most constraining limit that applied",
    schema: { type: "integer", example: 100 },
  },
  "RateLimit-Remaining": {
    description: "Requests left in that window",
    schema: { type: "integer", example: 99 },
  },
  "RateLimit-Reset": {
    description: "Unix time (seconds) when that window resets",
    schema: { type: "integer", example: 1768473060 },
  },
  "X-RateLimit-Limit": { description: "Same as RateLimit-Limit", schema: { type: "integer" } },
  "X-RateLimit-Remaining": {
    description: "Same as RateLimit-Remaining",
    schema: { type: "integer" },
  },
  "X-RateLimit-Reset": { description: "Same as RateLimit-Reset", schema: { type: "integer" } },
  "X-RateLimit-Policy": {
    description: "Every limit that applied, as `<limit>;w=<window seconds>`, comma separated",
    schema: { type: "string", example: "100;w=60" },
  },
  "Retry-After": {
    description: "Seconds to wait before retrying (on 429; also `retryAfter` in the body)",
    schema: { type: "integer", example: 42 },
  },
  "Idempotent-Replayed": {
    description:
      "`true` when this response is the stored answer to an earlier request with the same Idempotency-Key",
    schema: { type: "string", enum: ["true"] },
  },
  ETag: {
    description:
      "A tag of this body: send it back in `If-None-Match` and an unchanged answer is a bodiless 304",
    schema: { type: "string", example: 'W/"3q2-7w8cTn0zRz6l7a0aRbI8Zs"' },
  },
};

const ref = (kind: "headers" | "parameters", name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

const SECURITY: Record<AuthKind, Record<string, string[]>[]> = {
  none: [],
  // An empty requirement makes the credential optional: public endpoints read a Bearer token
  // (to count the global limit per wallet) but never require one.
  public: [{}, { bearerAuth: [] }],
  authed: [{ bearerAuth: [] }, { walletAddress: [], authNonce: [], authSignature: [] }],
  cron: [{ cronSecret: [] }],
};

const AUTH_NOTE: Record<AuthKind, string> = {
  none: "No authentication; not rate limited.",
  public: "Public: no credentials needed (a Bearer token, when sent, only keys the rate limit).",
  authed:
    "Requires `Authorization: Bearer <token>` or the three headers `x-wallet-address`, `x-auth-nonce`, `x-auth-signature` (a fresh nonce, one request each).",
  cron: "Requires `Authorization: Bearer <CRON_SECRET>`; not rate limited.",
};

const conditionalHeader = z.object({
  "If-None-Match": z.string().optional().meta({
    description:
      "Optional. The `ETag` of an earlier answer: while the status has not changed the answer is `304 Not Modified` with no body.",
    example: 'W/"3q2-7w8cTn0zRz6l7a0aRbI8Zs"',
  }),
});

const idempotencyHeader = z.object({
  "Idempotency-Key": z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/)
    .optional()
    .meta({
      description:
        "Optional. The first response to a key is stored for 24 hours and replayed (with `Idempotent-Replayed: true`) to any retry with the same key and body; the same key with another body is a 400, and a retry while the first request is still running is a 409.",
      example: "submit-9f86d081",
    }),
});

/**
 * Response headers. The rate-limit headers come with every response of a limited endpoint;
 * to keep the document readable they are listed on its successes and its 429.
 */
function headersFor(op: Operation, status: number) {
  const names: string[] = ["X-Request-Id"];
  if (isLimited(op) && (status < 300 || status === 429)) names.push(...RATE_LIMIT_HEADERS);
  if (status === 429) names.push("Retry-After");
  if (op.idempotent) names.push("Idempotent-Replayed");
  if (op.etag && (status === 200 || status === 304)) names.push("ETag");
  return Object.fromEntries(names.map((n) => [n, ref("headers", n)]));
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 60);

/** One status's errors: each as the Form B body the pipeline sends, the first in Form A too. */
function errorResponse(op: Operation, status: number, errors: ErrorPayload[]) {
  const examples: Record<string, { summary: string; value: unknown }> = {};
  for (const e of errors) {
    // Two messages may share their first 60 characters: each keeps its own example.
    let key = slug(e.message) || `error-${status}`;
    for (let n = 2; key in examples; n++) key = `${slug(e.message).slice(0, 56)}-${n}`;
    examples[key] = {
      summary: e.message,
      value: errorBody("B", e),
    };
  }
  examples.formA = {
    summary: `Form A (?envelope=true): ${errors[0].message}`,
    value: errorBody("A", errors[0]),
  };
  return {
    description: `${STATUS_TEXT[status] ?? "Error"}: ${errors.map((e) => `\`${e.message}\``).join("; ")}`,
    headers: headersFor(op, status),
    content: {
      "application/json": { schema: z.xor([errorB, errorA]), examples },
    },
  } satisfies ZodOpenApiResponseObject;
}

function successResponse(op: Operation, s: Success, examples: Examples): ZodOpenApiResponseObject {
  const headers = headersFor(op, s.status);
  if ("empty" in s) return { description: s.description, headers };
  if ("plain" in s) {
    return {
      description: s.description,
      headers,
      content: { "application/json": { schema: s.plain.schema, example: s.plain.example } },
    };
  }
  if ("raw" in s) {
    return {
      description: `${s.description}. Not enveloped (errors are JSON as usual).`,
      headers: {
        ...headers,
        ...Object.fromEntries(
          Object.entries(s.raw.headers ?? {}).map(([name, h]) => [
            name,
            { description: h.description, schema: { type: "string" } },
          ]),
        ),
      },
      content: {
        [s.raw.contentType]: {
          // 3.1's way; buildOpenApiDocument turns it into 3.0's `format: binary`.
          schema: { type: "string", contentMediaType: s.raw.contentType },
        },
      },
    };
  }
  const shape = s.serializer.shape;
  const example = examples[shape.name];
  return {
    description: `${s.description}. Form B by default; Form A (\`{success: true, data}\`) with \`?envelope=true\`${shape.same ? " (same payload)" : ""}.`,
    headers,
    content: {
      "application/json": {
        // anyOf, not oneOf: the query parameter picks the form, and a bare `{success: true}`
        // acknowledgement (Form B delete) would also match a Form A envelope.
        schema: z.union([shape.b, shape.envelope]),
        ...(example
          ? {
              examples: {
                formB: { summary: "Form B (default)", value: example.b },
                formA: {
                  summary: "Form A (?envelope=true)",
                  value: { success: true, data: example.a ?? example.b },
                },
              },
            }
          : {}),
      },
    },
  };
}

function requestBody(op: Operation): ZodOpenApiOperationObject["requestBody"] {
  if (!op.body) return undefined;
  const { schema, examples } = op.body;
  // An optional schema (the cancel reason) is an optional body.
  const required = !schema.safeParse(undefined).success;
  return {
    required,
    description:
      "JSON (`Content-Type: application/json`, at most MAX_BODY_BYTES). Both body forms are accepted; unknown fields are a 400.",
    content: {
      "application/json": {
        schema: schema instanceof z.ZodOptional ? schema.unwrap() : schema,
        examples,
      },
    },
  };
}

function buildOperation(
  op: Operation,
  method: Method,
  examples: Examples,
): ZodOpenApiOperationObject {
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  for (const s of op.responses) {
    // Several successes of one status (a statement as JSON, CSV or PDF): one response, its
    // content types side by side.
    const key = String(s.status);
    const next = successResponse(op, s, examples);
    const prev = responses[key];
    responses[key] = prev
      ? {
          ...prev,
          description: `${prev.description} ${next.description}`,
          headers: { ...prev.headers, ...next.headers },
          content: { ...prev.content, ...next.content },
        }
      : next;
  }
  if (op.etag) {
    responses["304"] = {
      description: "Not Modified: the `If-None-Match` tag is the current body's; no body",
      headers: headersFor(op, 304),
    };
  }
  const byStatus = new Map<number, ErrorPayload[]>();
  for (const e of errorsOf(op)) byStatus.set(e.status, [...(byStatus.get(e.status) ?? []), e]);
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    responses[String(status)] = errorResponse(op, status, byStatus.get(status) ?? []);
  }
  const notes = [
    op.description,
    AUTH_NOTE[op.auth],
    op.limit ? `Limit: ${op.limit.note}, on top of the global limit.` : undefined,
    op.auth === "authed"
      ? op.scope
        ? `API keys: a key with ${op.scope.map((s) => `\`${s}\``).join(" or ")} may call it.`
        : "API keys: not allowed (a signed-in wallet only)."
      : undefined,
    op.auth === "authed" ? teamNote(op) : undefined,
  ].filter(Boolean);
  // One operation on two methods (the cron routes) gets one id per method.
  const suffix = methodsOf(op).length > 1 ? method[0] + method.slice(1).toLowerCase() : "";
  return {
    operationId: op.operationId + suffix,
    tags: [op.tag],
    summary: op.summary,
    description: notes.join("\n\n"),
    ...(op.auth === "authed" ? { "x-team-roles": ["owner", ...rolesFor(teamAccessOf(op))] } : {}),
    security: op.scope ? [...SECURITY[op.auth], { apiKeyAuth: [...op.scope] }] : SECURITY[op.auth],
    // Health answers the same body whatever the query: no envelope parameter.
    ...(op.auth === "none"
      ? {}
      : {
          parameters: [ref("parameters", "envelope")],
          requestParams: {
            ...(op.params ? { path: op.params } : {}),
            ...(op.query ? { query: op.query } : {}),
            ...(op.idempotent ? { header: idempotencyHeader } : {}),
            ...(op.etag ? { header: conditionalHeader } : {}),
          },
        }),
    requestBody: requestBody(op),
    responses: responses as ZodOpenApiOperationObject["responses"],
  };
}

/** Who of a team may call an authed operation, from the pipeline's one rule. */
function teamNote(op: Operation): string {
  const roles = rolesFor(teamAccessOf(op));
  if (roles.length === 0)
    return "Team: the owner of the books only (not an accountant or a member).";
  return `Team: the owner, and on the owner's books ${roles.map((r) => (r === "accountant" ? "an accountant" : "a member")).join(" or ")} (\`x-team-roles\`).`;
}

/** The paths of every registered operation (methods in METHODS order), and this document's. */
function buildPaths(examples: Examples, version: OpenApiVersion): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of ROUTE_SPECS) paths[op.path] ??= {};
  for (const method of METHODS) {
    for (const op of ROUTE_SPECS.filter((o) => methodsOf(o).includes(method))) {
      paths[op.path][method.toLowerCase() as Lowercase<Method>] = buildOperation(
        op,
        method,
        examples,
      );
    }
  }
  for (const [path, v] of Object.entries(DOCUMENT_PATHS) as [string, OpenApiVersion][]) {
    paths[path] = {
      get: {
        operationId: v === "3.0" ? "getOpenApiDocument" : "getOpenApiDocument31",
        tags: ["Meta"],
        summary: `The OpenAPI ${v} document${v === version ? " (this one)" : ""}`,
        description: `OpenAPI ${v === "3.0" ? "3.0.3" : "3.1.0"}, generated from the zod schemas that validate requests, as is the other version (\`/openapi.json\`: 3.0.3; \`/openapi.3.1.json\`: 3.1.0, with the \`webhooks\` section, which 3.0 carries as \`x-webhooks\`). Rendered at \`/docs\`. Not rate limited.`,
        security: [],
        responses: {
          "200": {
            description: "The document",
            headers: { "X-Request-Id": ref("headers", "X-Request-Id") },
            content: { "application/json": { schema: { type: "object" } } },
          },
        },
      },
    };
  }
  return paths;
}

const DESCRIPTION = `
Invoices and payment links paid in XLM, USDC or EURC on the Stellar network. Every request and response body is JSON.

## Response forms
- **Form B** (default): the bare payload; amounts are exact decimal strings; errors are \`{"error": "<message>", "code": "...", "details"?, "retryAfter"?}\`.
- **Form A** (query parameter \`envelope=true\` on any endpoint): \`{"success": true, "data": ...}\` with the Form A shapes (\`items\`, numbers, \`totalAmount\`, \`paymentLink\`, \`auditLog\`); errors are \`{"success": false, "error": {"code", "message", "details"?, "retryAfter"?}}\`.

Every success response below is an \`anyOf\` of the two forms (errors a \`oneOf\`), with an example of each. Request bodies accept both forms (\`lineItems\` or \`items\`, strings or numbers, \`networkPassphrase\` or \`network\`, \`signedTransactionXdr\` or \`signedXdr\`, \`senderPublicKey\` or \`payerAddress\`); unknown fields are rejected.

## Errors
\`code\` is one of \`VALIDATION_ERROR\` (400; also 405, 413, 415), \`UNAUTHORIZED\` (401), \`FORBIDDEN\` (403), \`NOT_FOUND\` (404), \`CONFLICT\` (409), \`RATE_LIMIT_EXCEEDED\` (429), \`LEDGER_ERROR\` (400), \`UNAVAILABLE\` (503), \`INTERNAL_ERROR\` (500). Messages are stable, word for word: each operation lists those it can answer; \`details\` maps a field to a message. Unknown \`/api\` paths answer a JSON 404 \`Not found\`, unsupported methods a JSON 405 \`Method not allowed\` with \`Allow\`. A 500 never shows internals.

## Authentication
Passwordless: \`POST /api/auth/nonce\`, sign the returned message with the wallet's ed25519 key, exchange it at \`POST /api/auth/session\` for a one-hour JWT, then send \`Authorization: Bearer <token>\`. Instead of a token, one request may carry the three headers \`x-wallet-address\`, \`x-auth-nonce\` and \`x-auth-signature\` (a fresh nonce, signed the same way). Cron routes take \`Authorization: Bearer <CRON_SECRET>\`.

## Team access
A freelancer invites another wallet (\`POST /api/team\`) as \`accountant\` (reads: invoices, quotes, credit notes, payments, clients, statements, exports, the dashboard, events) or \`member\` (reads and writes, but API keys, webhooks, the profile, the team and refunds). The invited wallet signs in as itself, lists its books (\`GET /api/team/books\`) and opens them with \`POST /api/team/books/{owner}/session\`: the token answered acts on the owner's books as the member, within its role; every write is audited with the member's wallet. Invitations expire after 7 days unaccepted; revocation takes effect on the next request. Each operation names the roles that may call it (\`x-team-roles\`); another role is 403. API keys and header credentials act for their own wallet only, never on other books.

## Rate limits
100 requests per minute, keyed by wallet with a valid token and by client IP otherwise; failed credentials also count against the IP (30 per minute); some endpoints add their own limit. Limited responses carry \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\` (Unix seconds), their \`X-RateLimit-*\` twins and \`X-RateLimit-Policy\`; a 429 adds \`Retry-After\` and \`retryAfter\` in the body. \`/api/health\` is not limited.

## Versioning and tracing
\`/api/v1/...\` answers exactly like \`/api/...\`. Every response carries \`X-Request-Id\`.

## Webhooks
Events are POSTed to registered endpoints, signed with \`X-Service-Signature\` (hex HMAC-SHA256 of the raw body); see the \`webhooks\` section.
`.trim();

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const COMBINATORS = ["anyOf", "oneOf", "allOf", "$ref", "enum", "const"];

/**
 * Plainer JSON Schema for readers and renderers, same meaning: `anyOf [X, {type: null}]`
 * becomes `type: [X, "null"]`; `additionalProperties: {}` becomes `true`; zod's long
 * date-time regex and the safe-integer bounds are dropped (`format: date-time` and `integer`
 * say it). Example values are left alone.
 */
function tidy(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) tidy(item);
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key !== "example" && key !== "examples") tidy(value);
  }
  const anyOf = node.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nullAt = anyOf.findIndex(
      (s) => isObject(s) && s.type === "null" && Object.keys(s).length === 1,
    );
    const other = anyOf[1 - nullAt];
    if (
      nullAt !== -1 &&
      isObject(other) &&
      "type" in other &&
      !COMBINATORS.some((k) => k in other)
    ) {
      const types = Array.isArray(other.type) ? other.type : [other.type];
      delete node.anyOf;
      Object.assign(node, { ...other, ...node, type: [...types, "null"] });
    }
  }
  if (isObject(node.additionalProperties) && Object.keys(node.additionalProperties).length === 0) {
    node.additionalProperties = true;
  }
  if (node.format === "date-time" && typeof node.pattern === "string") delete node.pattern;
  if (node.type === "integer" || (Array.isArray(node.type) && node.type.includes("integer"))) {
    if (node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum;
    if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
  }
}

/** The examples are written with EXAMPLE_APP_URL; links point at this deployment instead. */
function withAppUrl(examples: Examples, appUrl: string): Examples {
  return JSON.parse(JSON.stringify(examples).replaceAll(EXAMPLE_APP_URL, appUrl));
}

/** The two versions served, each at its path (app/openapi.json, app/openapi.3.1.json). */
export type OpenApiVersion = "3.0" | "3.1";
export const DOCUMENT_PATHS: Record<string, OpenApiVersion> = {
  "/openapi.json": "3.0",
  "/openapi.3.1.json": "3.1",
};

/**
 * What zod's `openapi-3.0` target leaves in 3.1's dialect, rewritten for 3.0 (same meaning):
 * a schema's `examples` array becomes its first `example`, `const` a one-value `enum`, a raw
 * body's `contentMediaType` `format: binary`. Example values are left alone; the `examples`
 * maps of media types and parameters are objects and stay.
 */
function to30(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) to30(item);
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key !== "example" && key !== "value") to30(value);
  }
  if (Array.isArray(node.examples)) {
    if (node.example === undefined && node.examples.length > 0) node.example = node.examples[0];
    delete node.examples;
  }
  if ("const" in node) {
    node.enum = [node.const];
    delete node.const;
  }
  if ("contentMediaType" in node) {
    delete node.contentMediaType;
    node.format = "binary";
  }
}

/**
 * Builds the document for a deployment whose public URL is `appUrl`: OpenAPI 3.1.0 by default,
 * or 3.0.3 (`version: "3.0"`), the same operations and schemas written in 3.0's dialect
 * (`nullable`, boolean exclusive bounds, `format: binary`; the webhook events under
 * `x-webhooks`, since 3.0 has no `webhooks`).
 */
export function buildOpenApiDocument(appUrl: string, version: OpenApiVersion = "3.1") {
  const base = appUrl.replace(/\/+$/, "");
  const paths = buildPaths(withAppUrl(EXAMPLES as Examples, base), version);
  const webhooks = buildWebhooks();
  const document = createDocument(
    {
      openapi: version === "3.0" ? "3.0.3" : "3.1.0",
      info: {
        title: "Stellar Invoicing API",
        version: "1.0.0",
        description: DESCRIPTION,
      },
      servers: [{ url: base, description: "This deployment" }],
      tags: Object.entries(TAG_DESCRIPTIONS).map(([name, description]) => ({ name, description })),
      paths,
      webhooks,
      components: {
        securitySchemes: {
          bearerAuth: {
            type: "http",
            scheme: "bearer",
            bearerFormat: "JWT",
            description: "Session token from `POST /api/auth/session` (HS256, valid one hour).",
          },
          apiKeyAuth: {
            type: "http",
            scheme: "bearer",
            bearerFormat: "sk_test_... / sk_live_...",
            description:
              "A restricted API key from `POST /api/keys`; the requirement lists the scopes that allow the operation (any one).",
          },
          walletAddress: {
            type: "apiKey",
            in: "header",
            name: "x-wallet-address",
            description:
              "Form A credentials, with `x-auth-nonce` and `x-auth-signature`: the wallet.",
          },
          authNonce: {
            type: "apiKey",
            in: "header",
            name: "x-auth-nonce",
            description: "A fresh nonce from `POST /api/auth/nonce` (consumed by this request).",
          },
          authSignature: {
            type: "apiKey",
            in: "header",
            name: "x-auth-signature",
            description: "ed25519 signature (hex or base64) of the nonce's message, raw or SEP-53.",
          },
          cronSecret: {
            type: "http",
            scheme: "bearer",
            description: "`Authorization: Bearer <CRON_SECRET>` for the cron routes.",
          },
        },
        parameters: {
          envelope: {
            name: "envelope",
            in: "query",
            required: false,
            description:
              "`true` selects Form A: the `{success, data}` envelope and Form A shapes (errors `{success: false, error}`). Any other value, or none, is Form B.",
            schema: { type: "string", enum: ["true"] },
          },
        },
        headers: HEADERS,
      },
    },
    {
      override: ({ jsonSchema, zodSchema, io }) => {
        // The passphrase is a refined string in lib/schemas; its two values are an enum here.
        if (zodSchema === networkPassphraseSchema) jsonSchema.enum = [...NETWORK_VALUES];
        // New response fields are non-breaking and clients ignore unknown fields
        // (docs/decisions.md), so responses do not close their objects. Requests stay strict
        // (unknown fields are a 400).
        if (io === "output" && jsonSchema.additionalProperties === false) {
          delete jsonSchema.additionalProperties;
        }
      },
    },
  );
  if (version === "3.0") {
    // 3.0 has no webhooks section: the events go under `x-webhooks` (as Redoc reads them).
    const { webhooks: events, ...rest } = document;
    const converted = { ...rest, "x-webhooks": events };
    to30(converted);
    return converted as typeof document;
  }
  tidy(document.paths);
  tidy(document.webhooks);
  tidy(document.components?.schemas);
  return document;
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

const cached = new Map<
  OpenApiVersion,
  { appUrl: string; document: OpenApiDocument; json: string }
>();

/** The document for `appUrl` in `version`, built once per process (it never changes at run time). */
export function getOpenApiDocument(
  appUrl: string,
  version: OpenApiVersion = "3.1",
): { document: OpenApiDocument; json: string } {
  let entry = cached.get(version);
  if (entry?.appUrl !== appUrl) {
    const document = buildOpenApiDocument(appUrl, version);
    entry = { appUrl, document, json: JSON.stringify(document) };
    cached.set(version, entry);
  }
  return entry;
}
