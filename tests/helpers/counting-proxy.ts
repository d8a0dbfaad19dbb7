/**
 * A counting (and optionally slow) HTTP proxy in front of a local ledger: every request the
 * worker makes to "Horizon" goes through it, so requests are counted where public Horizon
 * counts them against its 3,600 an hour (bench/mainnet.ts, tests/ledger-stream.test.ts).
 * Streams are piped through as they come.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type CountingProxy = {
  url: string;
  /** Requests by kind ("GET /payments", "STREAM /ledgers", ...), since the last reset. */
  counts: () => Record<string, number>;
  total: () => number;
  reset: () => void;
  stop: () => Promise<void>;
};

/**
 * JSON-RPC calls (`POST .../rpc`, Stellar RPC) counted by method ("rpc getEvents"), as a
 * hosted RPC counts them against a request budget (bench/mainnet.ts); null for other requests.
 */
export function rpcKinds(path: string, method: string | undefined, body: Buffer): string[] | null {
  if (method !== "POST" || !path.endsWith("/rpc")) return null;
  try {
    const call = JSON.parse(body.toString("utf8")) as { method?: string } | { method?: string }[];
    return (Array.isArray(call) ? call : [call]).map((c) => `rpc ${c.method}`);
  } catch {
    return ["rpc (unparsed)"];
  }
}

export async function startProxy(
  target: string,
  delayMs = 0,
  /** Counts a request by its body instead (e.g. `rpcKinds`); null: by method and path. */
  kindsOfBody?: typeof rpcKinds,
): Promise<CountingProxy> {
  const upstream = new URL(target);
  let counts: Record<string, number> = {};
  const count = (kind: string) => {
    counts[kind] = (counts[kind] ?? 0) + 1;
  };
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const stream = (req.headers.accept ?? "").includes("text/event-stream");
    // Collections by name, single resources by their collection ("GET /transactions/:id").
    const parts = path.split("/").filter(Boolean);
    const kind = `${stream ? "STREAM" : req.method} /${parts
      .map((p, i) => (i % 2 === 1 && !/^[a-z_]+$/.test(p) ? ":id" : p))
      .join("/")}`;
    const send = (body?: Buffer) => {
      const out = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on("error", () => res.destroy());
      res.on("close", () => out.destroy());
      if (body) out.end(body);
      else req.pipe(out);
    };
    if (kindsOfBody) {
      // The body is read first (an RPC call says what it is there), then sent on whole.
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks);
        for (const k of kindsOfBody(path, req.method, body) ?? [kind]) count(k);
        send(body);
      });
      return;
    }
    count(kind);
    if (delayMs > 0) setTimeout(send, delayMs);
    else send();
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts: () => ({ ...counts }),
    total: () => Object.values(counts).reduce((a, b) => a + b, 0),
    reset: () => {
      counts = {};
    },
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
