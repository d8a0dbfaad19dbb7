import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { WebhookTarget } from "@/lib/webhooks/ssrf";

export type SendResult = { statusCode?: number; error?: string };

/**
 * One POST of `body` to the target, connecting only to the addresses the SSRF check
 * validated (a second DNS answer can never redirect the connection), with TLS
 * still verified against the host name. No redirects are followed (node:http never does),
 * no connection is reused, and the whole exchange is cut at `timeoutMs`. Never throws.
 */
export function postWebhook(input: {
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
      done({ error: `timed out after ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on("close", () => clearTimeout(timer));
    req.on("error", (err: NodeJS.ErrnoException) => {
      done({ error: err.code ? `${err.code}: ${err.message}` : err.message });
    });
    req.end(body);
  });
}
