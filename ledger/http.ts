/**
 * The Horizon-compatible HTTP API over a LedgerCore, plus the /local/* control endpoints and
 * failure injection. Bodies are pretty-printed like Horizon's; errors are RFC 7807 "problems"
 * with Horizon's type URLs.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { StrKey } from "@stellar/stellar-sdk";
import { formatStroops, toStroops } from "./amount";
import type { LedgerCore, SubmitResult } from "./core";
import { parseEnvelope } from "./envelope";
import { PathQueryError, strictReceivePaths, strictSendPaths } from "./paths";
import {
  renderAccount,
  renderFeeStats,
  renderLedger,
  renderOp,
  renderRoot,
  renderTx,
} from "./render";
import type { StellarRpc } from "./rpc";
import { goJson, serveStream } from "./sse";
import type { OpRecord, TxRecord } from "./state";

export type FailureMode =
  | null
  | {
      status: 429 | 503 | 504;
      /** how many requests to affect (default: all until cleared) */
      count?: number;
      /** only requests whose path matches */
      paths?: RegExp;
      /** 504 on POST /transactions: still queue the transaction, like a real timeout may */
      applyAnyway?: boolean;
    }
  | { delayMs: number; count?: number; paths?: RegExp };

export interface HttpOptions {
  /** how long POST /transactions waits for inclusion before answering 504 */
  submitTimeoutMs: number;
  /** SSE keep-alive comment interval (0 disables) */
  keepAliveMs: number;
  /** serve GET /friendbot */
  friendbot: boolean;
}

interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  extras?: Record<string, unknown>;
}

const HORIZON_ERRORS = "https://stellar.org/horizon-errors/";
const FRIENDBOT_ERRORS = "https://stellar.org/friendbot-errors/";
const HAL_JSON = "application/hal+json; charset=utf-8";
const PROBLEM_JSON = "application/problem+json; charset=utf-8";
const MAX_PAGE = 200;
const DEFAULT_PAGE = 10;

function problem(
  type: string,
  title: string,
  status: number,
  detail?: string,
  extras?: Record<string, unknown>,
): Problem {
  const p: Problem = { type: HORIZON_ERRORS + type, title, status };
  if (detail) p.detail = detail;
  if (extras) p.extras = extras;
  return p;
}

const NOT_FOUND = problem(
  "not_found",
  "Resource Missing",
  404,
  "The resource at the url requested was not found.  This usually occurs for one of two reasons:  The url requested is not valid, or no data in our database could be found with the parameters provided.",
);

function badRequest(field: string, reason: string): Problem {
  return problem(
    "bad_request",
    "Bad Request",
    400,
    "The request you sent was invalid in some way.",
    { invalid_field: field, reason },
  );
}

const SERVER_ERROR = problem(
  "server_error",
  "Internal Server Error",
  500,
  "An error occurred while processing this request.  This is usually due to a bug within the server software.  Trying this request again may succeed if the bug is transient. Otherwise, please contact the system administrator.",
);

const RATE_LIMITED = problem(
  "rate_limit_exceeded",
  "Rate Limit Exceeded",
  429,
  "The rate limit for the requesting IP address is over its alloted limit.  The allowed limit and requests left per time period are communicated to clients via the http response headers 'X-RateLimit-*' headers.",
);

const STALE_HISTORY = problem(
  "stale_history",
  "Historical DB Is Too Stale",
  503,
  "This horizon instance is configured to reject client requests when it can determine that the history database is lagging too far behind the connected instance of stellar-core.  If you operate this server, please ensure that the ingestion system is properly running.",
);

const TIMEOUT = problem(
  "timeout",
  "Timeout",
  504,
  "Your request timed out before completing.  Please try your request again. If you are submitting a transaction make sure you are sending exactly the same transaction (with the same sequence number).",
);

function submissionTimeout(envelopeXdr: string, hash: string | undefined): Problem {
  return problem(
    "transaction_submission_timeout",
    "Transaction Submission Timeout",
    504,
    "Your transaction submission request has timed out. This does not necessarily mean the submission has failed. Before resubmitting, please use the transaction hash provided in `extras.hash` to poll the GET /transactions endpoint for sometime and check if it was included in a ledger.",
    { envelope_xdr: envelopeXdr, hash: hash ?? "" },
  );
}

function transactionFailed(
  envelopeXdr: string,
  codes: TxRecord["resultCodes"],
  resultXdr: string,
): Problem {
  return problem(
    "transaction_failed",
    "Transaction Failed",
    400,
    "The transaction failed when submitted to the stellar network. The `extras.result_codes` field on this response contains further details.  Descriptions of each code can be found at: https://developers.stellar.org/api/errors/http-status-codes/horizon-specific/transaction-failed/",
    { envelope_xdr: envelopeXdr, result_codes: codes, result_xdr: resultXdr },
  );
}

function transactionMalformed(envelopeXdr: string): Problem {
  return problem(
    "transaction_malformed",
    "Transaction Malformed",
    400,
    "Horizon could not decode the transaction envelope in this request. A transaction should be an XDR TransactionEnvelope struct encoded using base64.  The envelope read from this request is echoed in the `extras.envelope_xdr` field of this response for your convenience.",
    { envelope_xdr: envelopeXdr },
  );
}

interface PageQuery {
  /** undefined: from the start (asc) or the end (desc) */
  cursor: bigint | undefined;
  cursorParam: string;
  order: "asc" | "desc";
  limit: number;
  includeFailed: boolean;
  join: boolean;
}

class HttpError extends Error {
  constructor(
    readonly problem: Problem,
    readonly headers: Record<string, string> = {},
  ) {
    super(problem.title);
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function readBody(req: IncomingMessage, max = 1_000_000): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) throw new HttpError(badRequest("body", "request body too large"));
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = (await readBody(req)).trim();
  if (!text) return {};
  try {
    const v = JSON.parse(text);
    return v && typeof v === "object" ? (v as Record<string, unknown>) : {};
  } catch {
    throw new HttpError(badRequest("body", "invalid JSON"));
  }
}

/** Index of the first element whose token is > `cursor` (tokens ascending). */
function firstAfter<T>(items: T[], token: (t: T) => bigint, cursor: bigint): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (token(items[mid]) <= cursor) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Records after (asc) or before (desc) the cursor that pass `filter`, at most `limit`. */
function selectPage<T>(
  items: T[],
  token: (t: T) => bigint,
  pq: Pick<PageQuery, "cursor" | "order" | "limit">,
  filter: (t: T) => boolean,
): T[] {
  const out: T[] = [];
  if (pq.order === "asc") {
    const start = pq.cursor === undefined ? 0 : firstAfter(items, token, pq.cursor);
    for (let i = start; i < items.length && out.length < pq.limit; i++) {
      if (filter(items[i])) out.push(items[i]);
    }
  } else {
    const end = pq.cursor === undefined ? items.length : firstAfter(items, token, pq.cursor - 1n);
    for (let i = end - 1; i >= 0 && out.length < pq.limit; i--) {
      if (filter(items[i])) out.push(items[i]);
    }
  }
  return out;
}

/** Which records of a collection an endpoint lists (an account's, a ledger's, ...). */
type Scope = (record: OpRecord | TxRecord) => boolean;

const opToken = (o: OpRecord) => BigInt(o.id);
const txToken = (t: TxRecord) => BigInt(t.pagingToken);

export class HorizonHttp {
  failure: FailureMode = null;

  constructor(
    private readonly core: LedgerCore,
    private readonly opts: HttpOptions,
    /** Stellar RPC (JSON-RPC 2.0) served at POST /rpc and POST / */
    private readonly rpc?: StellarRpc,
  ) {}

  handle = (req: IncomingMessage, res: ServerResponse): void => {
    this.route(req, res).catch((err: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (err instanceof HttpError) this.sendProblem(res, err.problem, err.headers);
      else {
        console.error("[ledger] request failed:", err);
        this.sendProblem(res, SERVER_ERROR);
      }
    });
  };

  private baseUrl(req: IncomingMessage): string {
    return `http://${req.headers.host ?? "localhost"}`;
  }

  private send(
    res: ServerResponse,
    status: number,
    body: unknown,
    contentType = HAL_JSON,
    headers: Record<string, string> = {},
  ): void {
    res.writeHead(status, {
      "Content-Type": contentType,
      "Access-Control-Allow-Origin": "*",
      // like Horizon, so browser clients can read them (the SDK reads Date for time bounds)
      "Access-Control-Expose-Headers": "Date, Latest-Ledger",
      "Latest-Ledger": String(this.core.latest().sequence),
      ...headers,
    });
    res.end(goJson(body, 2));
  }

  private sendProblem(res: ServerResponse, p: Problem, headers: Record<string, string> = {}): void {
    this.send(res, p.status, p, PROBLEM_JSON, headers);
  }

  /** Applies the failure switch. Returns true when the request has been answered. */
  private async injectFailure(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
  ): Promise<boolean> {
    const mode = this.failure;
    if (!mode || path.startsWith("/local/")) return false;
    if (mode.paths && !mode.paths.test(path)) return false;
    if (mode.count !== undefined) {
      mode.count -= 1;
      if (mode.count <= 0) this.failure = null;
    }
    if ("delayMs" in mode) {
      await sleep(mode.delayMs);
      return false;
    }
    if (mode.status === 429) {
      this.sendProblem(res, RATE_LIMITED, {
        "X-RateLimit-Limit": "3600",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": "60",
      });
    } else if (mode.status === 503) {
      this.sendProblem(res, STALE_HISTORY);
    } else if (req.method === "POST" && path === "/transactions") {
      const envelopeXdr = new URLSearchParams(await readBody(req)).get("tx") ?? "";
      let hash: string | undefined;
      try {
        hash = parseEnvelope(envelopeXdr, this.core.networkPassphrase).hash;
      } catch {
        hash = undefined;
      }
      if (mode.applyAnyway) void this.core.submit(envelopeXdr);
      this.sendProblem(res, submissionTimeout(envelopeXdr, hash));
    } else {
      this.sendProblem(res, TIMEOUT);
    }
    return true;
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://local");
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const method = req.method ?? "GET";

    if (method === "OPTIONS") {
      res.writeHead(204, {
        "Access-Control-Allow-Origin": "*",
        "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
        "Access-Control-Allow-Headers": req.headers["access-control-request-headers"] ?? "*",
        "Access-Control-Max-Age": "600",
      });
      res.end();
      return;
    }
    if (await this.injectFailure(req, res, path)) return;

    const seg = path.split("/").filter(Boolean);
    const base = this.baseUrl(req);

    if (path.startsWith("/local/")) return this.local(req, res, method, seg[1]);
    if (method === "POST" && (path === "/rpc" || path === "/") && this.rpc) {
      const response = await this.rpc.handle(await readBody(req, 5_000_000));
      return this.send(res, 200, response, "application/json");
    }
    if (method === "POST" && path === "/transactions") return this.submit(req, res, base);
    if (seg[0] === "friendbot" && seg.length === 1 && (method === "GET" || method === "POST")) {
      return this.friendbot(req, res, url);
    }
    if (method !== "GET") return this.sendProblem(res, NOT_FOUND);

    const state = this.core.state;
    switch (seg[0]) {
      case undefined:
        return this.send(
          res,
          200,
          renderRoot(
            base,
            this.core.latest(),
            state.ledgers[0]?.sequence ?? 1,
            state.networkPassphrase,
            this.opts.friendbot,
          ),
        );
      case "fee_stats":
        return this.feeStats(res);
      case "paths":
        if (seg[1] === "strict-receive" || seg[1] === "strict-send") {
          return this.paths(res, url, seg[1]);
        }
        break;
      case "accounts": {
        const id = seg[1];
        if (!id || seg.length > 3) break;
        if (!StrKey.isValidEd25519PublicKey(id)) {
          throw new HttpError(
            badRequest(
              "account_id",
              "Account ID must start with `G` and contain 56 alphanum characters",
            ),
          );
        }
        if (seg.length === 2) {
          const account = state.getAccount(id);
          if (!account) break;
          return this.send(res, 200, renderAccount(base, account));
        }
        const forAccount: Scope = (r) => r.participants.includes(id);
        return this.collection(req, res, url, base, seg[2], forAccount, false);
      }
      case "payments":
      case "operations":
      case "transactions":
      case "ledgers": {
        if (seg.length === 1)
          return this.collection(req, res, url, base, seg[0], () => true, false);
        if (seg[0] === "transactions") return this.transaction(req, res, url, base, seg);
        if (seg[0] === "operations" && seg.length === 2) {
          const op = /^\d+$/.test(seg[1])
            ? state.ops[firstAfter(state.ops, opToken, BigInt(seg[1]) - 1n)]
            : undefined;
          if (!op || op.id !== seg[1]) break;
          const join = url.searchParams.get("join") === "transactions";
          return this.send(
            res,
            200,
            renderOp(base, op, join ? state.findTx(op.txHash) : undefined),
          );
        }
        if (seg[0] === "ledgers" && /^\d+$/.test(seg[1])) {
          const ledger = state.findLedger(Number(seg[1]));
          if (!ledger || seg.length > 3) break;
          if (seg.length === 2) return this.send(res, 200, renderLedger(base, ledger));
          const inLedger: Scope = (r) => r.ledger === ledger.sequence;
          return this.collection(req, res, url, base, seg[2], inLedger, false);
        }
        break;
      }
    }
    this.sendProblem(res, NOT_FOUND);
  }

  private async transaction(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    base: string,
    seg: string[],
  ): Promise<void> {
    const hash = seg[1];
    if (!/^[0-9a-f]{64}$/.test(hash) || seg.length > 3) {
      if (seg.length > 3) return this.sendProblem(res, NOT_FOUND);
      throw new HttpError(
        badRequest("tx_id", "Transaction hash must be a hex-encoded, lowercase SHA-256 hash"),
      );
    }
    const tx = this.core.state.findTx(hash);
    if (!tx) return this.sendProblem(res, NOT_FOUND);
    if (seg.length === 2) return this.send(res, 200, renderTx(base, tx, hash));
    // Operations of one transaction are listed whether it failed or not, as Horizon does.
    const inTx: Scope = (r) => "txHash" in r && r.txHash === tx.hash;
    return this.collection(req, res, url, base, seg[2], inTx, true);
  }

  private parsePageQuery(req: IncomingMessage, url: URL): PageQuery {
    const q = url.searchParams;
    let cursorParam = q.get("cursor") ?? "";
    const lastEventId = req.headers["last-event-id"];
    if (typeof lastEventId === "string" && lastEventId !== "") cursorParam = lastEventId;
    if (cursorParam === "now") {
      cursorParam = ((BigInt(this.core.latest().sequence) << 32n) | 0xffffffffn).toString();
    }
    let cursor: bigint | undefined;
    if (cursorParam !== "") {
      if (!/^\d+$/.test(cursorParam)) throw new HttpError(badRequest("cursor", "invalid value"));
      cursor = BigInt(cursorParam);
    }
    const orderParam = q.get("order") ?? "";
    if (!["", "asc", "desc"].includes(orderParam)) {
      throw new HttpError(badRequest("order", "order: invalid value, must be asc or desc"));
    }
    const limitParam = q.get("limit") ?? "";
    let limit = DEFAULT_PAGE;
    if (limitParam !== "") {
      if (!/^-?\d+$/.test(limitParam))
        throw new HttpError(badRequest("limit", "unparseable value"));
      limit = Number(limitParam);
      if (limit <= 0) {
        throw new HttpError(badRequest("limit", "invalid limit: non-positive value provided"));
      }
      if (limit > MAX_PAGE) {
        throw new HttpError(
          badRequest(
            "limit",
            `invalid limit: value provided that is over limit max of ${MAX_PAGE}`,
          ),
        );
      }
    }
    const includeFailed = q.get("include_failed") ?? "";
    if (!["", "true", "false"].includes(includeFailed)) {
      throw new HttpError(badRequest("include_failed", "unparseable value"));
    }
    const join = q.get("join") ?? "";
    if (join !== "" && join !== "transactions") {
      throw new HttpError(badRequest("join", "Accepted values: transactions"));
    }
    return {
      cursor,
      cursorParam,
      order: orderParam === "desc" ? "desc" : "asc",
      limit,
      includeFailed: includeFailed === "true",
      join: join === "transactions",
    };
  }

  /** A HAL page (or an SSE stream) of payments, operations, transactions or ledgers. */
  private collection(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    base: string,
    kind: string,
    scope: Scope,
    alwaysIncludeFailed: boolean,
  ): void {
    const pq = this.parsePageQuery(req, url);
    const state = this.core.state;
    const includeFailed = alwaysIncludeFailed || pq.includeFailed;
    let fetch: (
      cursor: bigint | undefined,
      order: "asc" | "desc",
      limit: number,
    ) => Array<{
      token: bigint;
      json: unknown;
    }>;
    if (kind === "payments" || kind === "operations") {
      const paymentsOnly = kind === "payments";
      const filter = (o: OpRecord) =>
        (!paymentsOnly || o.isPayment) && (includeFailed || o.successful) && scope(o);
      fetch = (cursor, order, limit) =>
        selectPage(state.ops, opToken, { cursor, order, limit }, filter).map((o) => ({
          token: opToken(o),
          json: renderOp(base, o, pq.join ? state.findTx(o.txHash) : undefined),
        }));
    } else if (kind === "transactions") {
      const filter = (t: TxRecord) => (includeFailed || t.successful) && scope(t);
      fetch = (cursor, order, limit) =>
        selectPage(state.txs, txToken, { cursor, order, limit }, filter).map((t) => ({
          token: txToken(t),
          json: renderTx(base, t),
        }));
    } else if (kind === "ledgers" && url.pathname.replace(/\/+$/, "") === "/ledgers") {
      const ledgerToken = (l: { sequence: number }) => BigInt(l.sequence) << 32n;
      fetch = (cursor, order, limit) =>
        selectPage(state.ledgers, ledgerToken, { cursor, order, limit }, () => true).map((l) => ({
          token: ledgerToken(l),
          json: renderLedger(base, l),
        }));
    } else {
      this.sendProblem(res, NOT_FOUND);
      return;
    }

    if ((req.headers.accept ?? "").includes("text/event-stream")) {
      serveStream(req, res, {
        cursor: pq.cursor ?? -1n,
        limit: pq.limit,
        keepAliveMs: this.opts.keepAliveMs,
        fetch: (cursor, limit) => fetch(cursor, "asc", limit),
        subscribe: (fn) => this.core.onClose(fn),
      });
      return;
    }

    const records = fetch(pq.cursor, pq.order, pq.limit);
    this.send(res, 200, this.page(base, url, pq, records));
  }

  /** HAL page links as Horizon builds them (support/render/hal/page.go). */
  private page(
    base: string,
    url: URL,
    pq: PageQuery,
    records: Array<{ token: bigint; json: unknown }>,
  ): Record<string, unknown> {
    const href = (cursor: string, order: string) => {
      const params = new URLSearchParams(url.searchParams);
      params.set("cursor", cursor);
      params.set("limit", String(pq.limit));
      params.set("order", order);
      params.sort();
      return `${base}${url.pathname}?${params.toString()}`;
    };
    const first = records[0]?.token.toString() ?? pq.cursorParam;
    const last = records[records.length - 1]?.token.toString() ?? pq.cursorParam;
    return {
      _links: {
        self: { href: href(pq.cursorParam, pq.order) },
        next: { href: href(last, pq.order) },
        prev: { href: href(first, pq.order === "asc" ? "desc" : "asc") },
      },
      _embedded: { records: records.map((r) => r.json) },
    };
  }

  /** Horizon's path finding over the ledger's conversions (ledger/paths.ts). */
  private paths(res: ServerResponse, url: URL, kind: "strict-receive" | "strict-send"): void {
    const ctx = {
      state: this.core.state,
      rates: this.core.rates(),
      baseReserve: this.core.baseReserve,
    };
    try {
      const find = kind === "strict-receive" ? strictReceivePaths : strictSendPaths;
      this.send(res, 200, { _embedded: { records: find(ctx, url.searchParams) } });
    } catch (err) {
      if (err instanceof PathQueryError) throw new HttpError(badRequest(err.field, err.reason));
      throw err;
    }
  }

  private feeStats(res: ServerResponse): void {
    const state = this.core.state;
    const latest = this.core.latest();
    const since = latest.sequence - 4;
    const recentLedgers = state.ledgers.filter((l) => l.sequence >= since);
    const recentTxs: TxRecord[] = [];
    for (let i = state.txs.length - 1; i >= 0 && state.txs[i].ledger >= since; i--) {
      recentTxs.push(state.txs[i]);
    }
    this.send(res, 200, renderFeeStats(latest, recentTxs, recentLedgers));
  }

  private awaitSubmission(
    envelopeXdr: string,
  ): Promise<SubmitResult | { kind: "timeout"; hash?: string }> {
    let hash: string | undefined;
    try {
      hash = parseEnvelope(envelopeXdr, this.core.networkPassphrase).hash;
    } catch {
      hash = undefined;
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<{ kind: "timeout"; hash?: string }>((resolve) => {
      timer = setTimeout(() => resolve({ kind: "timeout", hash }), this.opts.submitTimeoutMs);
    });
    return Promise.race([this.core.submit(envelopeXdr), timeout]).finally(() =>
      clearTimeout(timer),
    );
  }

  private async submit(req: IncomingMessage, res: ServerResponse, base: string): Promise<void> {
    const contentType = (req.headers["content-type"] ?? "").split(";")[0].trim();
    if (contentType && contentType !== "application/x-www-form-urlencoded") {
      return this.sendProblem(
        res,
        problem(
          "unsupported_media_type",
          "Unsupported Media Type",
          415,
          "The request has an unsupported content type. Presently, the only supported content type is application/x-www-form-urlencoded.",
        ),
      );
    }
    const envelopeXdr = new URLSearchParams(await readBody(req)).get("tx") ?? "";
    const result = await this.awaitSubmission(envelopeXdr);
    switch (result.kind) {
      case "timeout":
        return this.sendProblem(res, submissionTimeout(envelopeXdr, result.hash));
      case "malformed":
        return this.sendProblem(res, transactionMalformed(envelopeXdr));
      case "rejected":
        return this.sendProblem(
          res,
          transactionFailed(envelopeXdr, result.codes, result.resultXdr),
        );
      case "applied":
        if (result.record.successful) {
          return this.send(res, 200, renderTx(base, result.record));
        }
        return this.sendProblem(
          res,
          transactionFailed(envelopeXdr, result.record.resultCodes, result.record.resultXdr),
        );
    }
  }

  private async friendbot(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (!this.opts.friendbot) return this.sendProblem(res, NOT_FOUND);
    let addr = url.searchParams.get("addr") ?? "";
    if (!addr && req.method === "POST") {
      addr = new URLSearchParams(await readBody(req)).get("addr") ?? "";
    }
    if (!StrKey.isValidEd25519PublicKey(addr)) {
      return this.sendProblem(res, {
        ...badRequest("addr", "base32 decode failed: illegal base32 data"),
        type: `${FRIENDBOT_ERRORS}bad_request`,
      });
    }
    const alreadyFunded = {
      type: `${FRIENDBOT_ERRORS}bad_request`,
      title: "Bad Request",
      status: 400,
      detail: "account already funded to starting balance",
    };
    if (this.core.state.getAccount(addr)) return this.sendProblem(res, alreadyFunded);
    const envelopeXdr = this.core.friendbotTx(addr);
    const result = await this.awaitSubmission(envelopeXdr);
    if (result.kind === "applied" && result.record.successful) {
      return this.send(res, 200, {
        successful: true,
        hash: result.record.hash,
        envelope_xdr: envelopeXdr,
      });
    }
    if (
      result.kind === "applied" &&
      result.record.resultCodes.operations?.[0] === "op_already_exists"
    ) {
      return this.sendProblem(res, alreadyFunded);
    }
    this.sendFailedLocalTx(res, envelopeXdr, result, "friendbot transaction failed");
  }

  private sendFailedLocalTx(
    res: ServerResponse,
    envelopeXdr: string,
    result: SubmitResult | { kind: "timeout"; hash?: string },
    detail: string,
  ): void {
    if (result.kind === "timeout") {
      this.sendProblem(res, submissionTimeout(envelopeXdr, result.hash));
      return;
    }
    if (result.kind === "malformed") {
      this.sendProblem(res, transactionMalformed(envelopeXdr));
      return;
    }
    const codes = result.kind === "applied" ? result.record.resultCodes : result.codes;
    const resultXdr = result.kind === "applied" ? result.record.resultXdr : result.resultXdr;
    const p = transactionFailed(envelopeXdr, codes, resultXdr);
    p.detail = `${detail}: ${[codes.transaction, ...(codes.operations ?? [])].join(", ")}`;
    this.sendProblem(res, p);
  }

  private async local(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    action: string | undefined,
  ): Promise<void> {
    const core = this.core;
    if (method === "GET" && action === "issuers") {
      const out: Record<string, { code: string; issuer: string }> = {};
      for (const [code, info] of Object.entries(core.issuers())) {
        out[code] = { code: info.code, issuer: info.issuer };
      }
      return this.send(res, 200, out, "application/json");
    }
    if (method === "POST" && action === "close") {
      const ledger = core.closeLedger();
      return this.send(res, 200, renderLedger(this.baseUrl(req), ledger));
    }
    if (action === "failure" && method === "GET") {
      return this.send(res, 200, describeFailure(this.failure), "application/json");
    }
    if (action === "failure" && method === "POST") {
      this.failure = parseFailure(await readJson(req));
      return this.send(res, 200, describeFailure(this.failure), "application/json");
    }
    if (method === "POST" && action === "smart-wallets") {
      // A local smart wallet (ledger/soroban.ts): a C address authorized by `signer`'s ed25519
      // signature over Soroban authorization entries. Deterministic per signer, idempotent.
      const body = await readJson(req);
      const signer = String(body.signer ?? "");
      if (!StrKey.isValidEd25519PublicKey(signer)) {
        throw new HttpError(badRequest("signer", "invalid ed25519 public key (G...)"));
      }
      const contractId = core.smartWallet(signer);
      return this.send(res, 200, { contractId, signer }, "application/json");
    }
    if (method === "POST" && action === "fund") {
      const body = await readJson(req);
      const account = String(body.account ?? "");
      const assetCode = String(body.assetCode ?? body.asset_code ?? "XLM");
      const amount = String(body.amount ?? "");
      if (!StrKey.isValidEd25519PublicKey(account) && !StrKey.isValidContract(account)) {
        throw new HttpError(badRequest("account", "invalid address"));
      }
      let stroops: bigint;
      try {
        stroops = toStroops(amount);
      } catch {
        throw new HttpError(badRequest("amount", "invalid amount"));
      }
      if (stroops <= 0n) throw new HttpError(badRequest("amount", "amount must be positive"));
      if (assetCode !== "XLM" && assetCode !== "native" && !core.issuers()[assetCode]) {
        throw new HttpError(
          badRequest(
            "assetCode",
            `unknown asset; known: XLM, ${Object.keys(core.issuers()).join(", ")}`,
          ),
        );
      }
      let envelopeXdr: string;
      try {
        envelopeXdr = core.fundTx(account, amount, assetCode);
      } catch (err) {
        // a contract address the asset contract refuses (e.g. an amount that overflows)
        throw new HttpError(
          badRequest("account", err instanceof Error ? err.message : String(err)),
        );
      }
      const result = await this.awaitSubmission(envelopeXdr);
      if (result.kind === "applied" && result.record.successful) {
        const info = core.issuers()[assetCode];
        return this.send(
          res,
          200,
          {
            successful: true,
            hash: result.record.hash,
            ledger: result.record.ledger,
            account,
            amount: formatStroops(stroops),
            asset_code: info ? info.code : "XLM",
            ...(info ? { asset_issuer: info.issuer } : {}),
          },
          "application/json",
        );
      }
      const info = core.issuers()[assetCode];
      const hint = info
        ? `funding ${assetCode} needs an existing account with a trustline to ${assetCode}:${info.issuer}`
        : "funding XLM needs an existing account";
      return this.sendFailedLocalTx(res, envelopeXdr, result, hint);
    }
    this.sendProblem(res, NOT_FOUND);
  }
}

function parseFailure(body: Record<string, unknown>): FailureMode {
  const count = typeof body.count === "number" ? body.count : undefined;
  const paths = typeof body.paths === "string" && body.paths ? new RegExp(body.paths) : undefined;
  if (typeof body.delayMs === "number") return { delayMs: body.delayMs, count, paths };
  const status = Number(body.status);
  if (status === 429 || status === 503 || status === 504) {
    return { status, count, paths, applyAnyway: body.applyAnyway === true };
  }
  return null;
}

function describeFailure(mode: FailureMode): Record<string, unknown> {
  if (!mode) return { failure: null };
  return { failure: { ...mode, paths: mode.paths?.source } };
}
