/**
 * A counting proxy in front of a local ledger's Stellar RPC (`POST /rpc`): every JSON-RPC call
 * the worker makes is counted by method ("rpc getEvents", "rpc getLatestLedger", ...), as a
 * hosted RPC would count them against a request budget (bench/mainnet.ts). Anything else
 * (the Horizon reads the RPC source delegates) is counted by method and path.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type RpcCountingProxy = {
  url: string;
  counts: () => Record<string, number>;
  total: () => number;
  reset: () => void;
  stop: () => Promise<void>;
};

export async function startRpcProxy(target: string): Promise<RpcCountingProxy> {
  const upstream = new URL(target);
  let counts: Record<string, number> = {};
  const count = (kind: string) => {
    counts[kind] = (counts[kind] ?? 0) + 1;
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (req.method === "POST" && path.endsWith("/rpc")) {
        try {
          const call = JSON.parse(body.toString("utf8")) as
            | { method?: string }[]
            | {
                method?: string;
              };
          for (const c of Array.isArray(call) ? call : [call]) count(`rpc ${c.method}`);
        } catch {
          count("rpc (unparsed)");
        }
      } else {
        count(`${req.method} ${path}`);
      }
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
      out.end(body);
    });
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
