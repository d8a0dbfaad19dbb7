import type { IncomingMessage, ServerResponse } from "node:http";
import { responseText } from "./response-text";
import type { RouteHandler } from "./route";

/** What server.ts calls for every request: true when it took the request. */
export type Front = (req: IncomingMessage, res: ServerResponse) => boolean;

const FRONT = Symbol.for("stellar-invoicing.front");
type FrontRoute = { pattern: RegExp; param: string | null; handler: RouteHandler };
type Holder = { [FRONT]?: Front & { routes: Map<string, FrontRoute> } };

/**
 * The GETs server.ts's node:http front serves itself once their route module has loaded: the
 * payment-status stream (Next.js holds tens of kilobytes per open response), the two public
 * reads every checkout makes and the invoice list a dashboard or an integration pages through
 * (Next.js's routing costs more than the work), see bench/results.md. Each pattern matches
 * only its own route's paths, not a sibling folder's (lib/http/front.test.ts walks app/api to
 * check), and captures the route's one path parameter, if it has one.
 */
export const FRONT_ROUTES = {
  paymentStatus: { pattern: /^\/api(?:\/v1)?\/payments\/([^/]+)\/status$/, param: "invoiceId" },
  paymentEvents: { pattern: /^\/api(?:\/v1)?\/payments\/([^/]+)\/events$/, param: "invoiceId" },
  publicInvoice: { pattern: /^\/api(?:\/v1)?\/invoices\/(?!stats$)([^/]+)$/, param: "id" },
  invoiceList: { pattern: /^\/api(?:\/v1)?\/invoices$/, param: null },
} as const;

/**
 * Serves a route's GET from server.ts's node:http front: the same route handler, pipeline
 * and answers, without the Next.js request machinery. A route module registers itself when
 * Next.js first loads it, so its first request goes through Next.js and the rest through the
 * front. Hosts without server.ts (Vercel) serve every request through Next.js.
 */
export function serveFromFront(name: keyof typeof FRONT_ROUTES, handler: RouteHandler): void {
  const { pattern, param } = FRONT_ROUTES[name];
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
  g[FRONT].routes.set(name, { pattern, param, handler });
}

/** The front server.ts calls, once a route module has registered one. */
export const registeredFront = (): Front | undefined => (globalThis as Holder)[FRONT];

async function serve(
  route: FrontRoute,
  value: string | undefined,
  req: IncomingMessage,
  res: ServerResponse,
) {
  const gone = new AbortController();
  res.on("close", () => gone.abort());
  let body: ReadableStream<Uint8Array> | null;
  try {
    const response = await route.handler(requestOf(req, gone.signal), {
      params: Promise.resolve(
        route.param && value !== undefined ? { [route.param]: decodeURIComponent(value) } : {},
      ),
    });
    const headers = Object.fromEntries(response.headers);
    const text = responseText(response);
    if (text !== undefined) {
      // Written as the string it is (lib/http/response-text.ts).
      res.writeHead(response.status, {
        ...headers,
        "content-length": String(Buffer.byteLength(text)),
      });
      res.end(text);
      return;
    }
    if (!response.headers.get("content-type")?.startsWith("text/event-stream")) {
      const bytes = Buffer.from(await response.arrayBuffer());
      res.writeHead(response.status, { ...headers, "content-length": String(bytes.length) });
      res.end(bytes);
      return;
    }
    res.writeHead(response.status, headers);
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
