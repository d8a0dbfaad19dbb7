import type { Server, ServerOptions } from "node:http";
import type { Socket } from "node:net";
import type { Config } from "@/lib/config";

/**
 * What server.ts's node:http front gives a slow or greedy client (docs/decisions.md, Limits):
 *
 * - `headersTimeout`: a request's headers must arrive within HEADERS_TIMEOUT_MS (10 s; a
 *   checkout's browser sends them at once), `requestTimeout`: the whole request within
 *   REQUEST_TIMEOUT_MS (30 s: the largest body, a 300 KB profile with its logo, on a slow
 *   link). Node checks open connections every `connectionsCheckingInterval`, so that is a
 *   second, not its default 30 s; a late client gets 408 and is closed. Responses are not
 *   bounded: a payment-status stream stays open as long as the checkout.
 * - at most MAX_CONNECTIONS_PER_IP open connections per client socket address: one more is
 *   answered 429 and closed before anything is read. Behind a trusted proxy (TRUST_PROXY)
 *   every connection is the proxy's, so the cap is the proxy's job and not applied here.
 */
export function frontServerOptions(config: Pick<Config, "front">): ServerOptions {
  const { headersTimeoutMs, requestTimeoutMs } = config.front;
  return {
    headersTimeout: headersTimeoutMs,
    requestTimeout: requestTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, headersTimeoutMs),
  };
}

export const TOO_MANY_CONNECTIONS = "Too many open connections";

const REFUSAL_BODY = JSON.stringify({
  error: TOO_MANY_CONNECTIONS,
  code: "RATE_LIMIT_EXCEEDED",
  retryAfter: 1,
});
const REFUSAL = [
  "HTTP/1.1 429 Too Many Requests",
  "Content-Type: application/json; charset=utf-8",
  `Content-Length: ${Buffer.byteLength(REFUSAL_BODY)}`,
  "Retry-After: 1",
  "Connection: close",
  "",
  REFUSAL_BODY,
].join("\r\n");

/** Counts each client address's open connections and refuses those past the cap. */
export function capConnectionsPerIp(
  server: Server,
  config: Pick<Config, "front" | "trustProxy">,
): void {
  if (config.trustProxy) return;
  const cap = config.front.connectionsPerIp;
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "";
    const count = (open.get(address) ?? 0) + 1;
    if (count > cap) {
      // Nothing of the request is read: the answer goes out, then the socket is gone.
      socket.pause();
      socket.end(REFUSAL);
      setTimeout(() => socket.destroy(), 1000).unref();
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
