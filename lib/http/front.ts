import type { IncomingMessage, ServerResponse } from "node:http";
import type { RouteHandler } from "./route";

/** What server.ts calls for every request: true when it took the request. */
export type Front = (req: IncomingMessage, res: ServerResponse) => boolean;

const FRONT = Symbol.for("stellar-invoicing.front");
type FrontRoute = { pattern: RegExp; param: string; handler: RouteHandler };
type Holder = { [FRONT]?: Front & { routes: Map<string, FrontRoute> } };

/**
 * Serves a long-lived GET (the payment-status stream) from server.ts's node:http front: the
 * same route handler, pipeline and answers, without the Next.js request machinery, which holds
 * tens of kilobytes per open response (bench/results.md, Pushed status). A route module
 * registers itself when Next.js first loads it, so the first request goes through Next.js and
 * the rest through the front. Hosts without server.ts (Vercel) serve every request through
 * Next.js as before. `pattern` matches the path and captures `param`.
 */
export function serveFromFront(pattern: RegExp, param: string, handler: RouteHandler): void {
  const g = globalThis as Holder;
  if (!g[FRONT]) {
    const routes = new Map<string, FrontRoute>();
    const front = ((req, res) => {
      if (req.method !== "GET") return false;
      const path = (req.url ?? "/").split("?")[0];
      for (const route of routes.values()) {
        const match = route.pattern.exec(path);
        if (match) {
          void serve(route, match[1], req, res);
          return true;
        }
      }
      return false;
    }) as Front & { routes: Map<string, FrontRoute> };
    front.routes = routes;
    g[FRONT] = front;
  }
  g[FRONT].routes.set(pattern.source, { pattern, param, handler });
}

/** The front server.ts calls, once a route module has registered one. */
export const registeredFront = (): Front | undefined => (globalThis as Holder)[FRONT];

async function serve(route: FrontRoute, value: string, req: IncomingMessage, res: ServerResponse) {
  const gone = new AbortController();
  res.on("close", () => gone.abort());
  let body: ReadableStream<Uint8Array> | null;
  try {
    const response = await route.handler(requestOf(req, gone.signal), {
      params: Promise.resolve({ [route.param]: decodeURIComponent(value) }),
    });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    body = response.body;
  } catch {
    // The pipeline answers every error itself; this is a bug, answered as one.
    res.writeHead(500, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify({ error: "Internal server error" }));
    return;
  }
  if (body) await pipe(body, res, gone.signal);
  else res.end();
}

/** The web Request the route handler takes, from node's. */
function requestOf(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, v] of Object.entries(req.headers)) {
    if (Array.isArray(v)) for (const one of v) headers.append(name, one);
    else if (v !== undefined) headers.set(name, v);
  }
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  return new Request(url, { headers, signal });
}

/**
 * Writes the body as it comes until it ends or the client goes. Only the reader and the
 * response stay referenced while a stream is open (thousands may be).
 */
async function pipe(body: ReadableStream<Uint8Array>, res: ServerResponse, gone: AbortSignal) {
  res.flushHeaders();
  const reader = body.getReader();
  gone.addEventListener("abort", () => void reader.cancel().catch(() => {}), { once: true });
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // Cancelled: the client went.
  }
  res.end();
}
