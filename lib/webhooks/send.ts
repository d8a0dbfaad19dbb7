import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { DELIVERY_ERRORS, deliveryErrorOf } from "@/lib/domain/webhook-errors";
import { type EventRow, envelopeBody } from "@/lib/webhooks/envelope";
import {
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  SIGNATURE_V2_HEADER,
  signatureV2Header,
  signWebhookBody,
  TIMESTAMP_HEADER,
} from "@/lib/webhooks/sign";
import {
  assertPublicWebhookUrl,
  type Resolver,
  systemResolver,
  type WebhookTarget,
  WebhookUrlError,
} from "@/lib/webhooks/ssrf";
import { CONFIGURED_WEBHOOK_ID } from "@/lib/webhooks/subscriptions";

export const WEBHOOK_USER_AGENT = "StellarInvoicing-Webhooks/1.0";

export type SendResult = {
  statusCode?: number;
  /** One of the fixed messages of lib/domain/webhook-errors.ts: what the delivery log shows. */
  error?: string;
  /** What actually happened (the socket's code and message): for the server log only. */
  detail?: string;
};

/**
 * The network side of one delivery attempt: picks the address to connect to, signs the
 * event's envelope (both signature headers, docs/decisions.md, Webhooks) and POSTs it. Never
 * throws: a refused or unresolvable URL comes back as `error` like a failed request, always
 * one of the fixed messages (`URL not allowed`, `Connection failed`, ...), the cause in
 * `detail`.
 */
export async function sendWebhook(input: {
  subscriptionId: string;
  url: string;
  secret: string;
  /** A rotated-out secret still inside its overlap: V2 also carries its signature. */
  previousSecret?: string | null;
  event: EventRow;
  /** Read when the request goes out (the timestamp header). */
  now: () => Date;
  timeoutMs: number;
  allowLoopback: boolean;
  resolve?: Resolver;
}): Promise<SendResult> {
  let target: WebhookTarget;
  try {
    target = await resolveTarget(input);
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    return err instanceof WebhookUrlError
      ? { error: DELIVERY_ERRORS.notAllowed, detail }
      : { error: DELIVERY_ERRORS.connection, detail: `unreachable: ${detail}` };
  }
  const body = envelopeBody(input.event);
  const timestamp = Math.floor(input.now().getTime() / 1000);
  const secrets = input.previousSecret ? [input.secret, input.previousSecret] : [input.secret];
  return postWebhook({
    target,
    body,
    timeoutMs: input.timeoutMs,
    headers: {
      "content-type": "application/json",
      "user-agent": WEBHOOK_USER_AGENT,
      // The classic signature (the contract) always uses the current secret only.
      [SIGNATURE_HEADER]: signWebhookBody(input.secret, body),
      [SIGNATURE_V2_HEADER]: signatureV2Header(secrets, timestamp, body),
      [EVENT_ID_HEADER]: input.event.id,
      [TIMESTAMP_HEADER]: String(timestamp),
    },
  });
}

/**
 * Self-service URLs pass the SSRF check again on every attempt (DNS may have changed) and
 * the request is pinned to the address that passed. The configured endpoint (WEBHOOK_URL)
 * is the operator's own choice and may be internal: it is resolved but not restricted.
 */
async function resolveTarget(input: {
  subscriptionId: string;
  url: string;
  allowLoopback: boolean;
  resolve?: Resolver;
}): Promise<WebhookTarget> {
  const { url, allowLoopback, resolve } = input;
  if (input.subscriptionId !== CONFIGURED_WEBHOOK_ID) {
    return assertPublicWebhookUrl(url, { allowLoopback, resolve });
  }
  const parsed = new URL(url);
  const hostname = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  const family = isIP(hostname);
  const addresses = family
    ? [{ address: hostname, family: family === 6 ? (6 as const) : (4 as const) }]
    : await (resolve ?? systemResolver)(hostname);
  if (!addresses[0]) throw new Error(`the host ${hostname} could not be resolved`);
  return { url: parsed, hostname, address: addresses[0], addresses };
}

/**
 * One POST of `body` to the target, connecting only to the addresses the SSRF check
 * validated (a second DNS answer can never redirect the connection), with TLS
 * still verified against the host name. No redirects are followed (node:http never does),
 * no connection is reused, and the whole exchange is cut at `timeoutMs`. Never throws.
 */
function postWebhook(input: {
  target: WebhookTarget;
  body: Buffer;
  headers: Record<string, string>;
  timeoutMs: number;
}): Promise<SendResult> {
  const { target, body, headers, timeoutMs } = input;
  const pinned = target.address;
  // Node asks for every address when it may try several (happy eyeballs): only validated ones.
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(
        null,
        target.addresses.map((a) => ({ address: a.address, family: a.family })),
      );
    } else {
      callback(null, pinned.address, pinned.family);
    }
  };
  const transport = target.url.protocol === "https:" ? https : http;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const done = (result: SendResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const req = transport.request(
      target.url,
      {
        method: "POST",
        agent: false,
        lookup,
        headers: { ...headers, "content-length": String(body.length), connection: "close" },
      },
      (res) => {
        // The status is the answer; the body is drained and dropped (never stored).
        res.resume();
        res.on("error", () => {});
        done({ statusCode: res.statusCode });
      },
    );
    // Also bounds a response body that trickles after the status line.
    const timer = setTimeout(() => {
      done({ error: DELIVERY_ERRORS.timeout, detail: `timed out after ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on("close", () => clearTimeout(timer));
    req.on("error", (err: NodeJS.ErrnoException) => {
      done({
        error: deliveryErrorOf(err),
        detail: err.code ? `${err.code}: ${err.message}` : err.message,
      });
    });
    req.end(body);
  });
}
