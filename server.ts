/**
 * The production server: Next.js behind a thin node:http front that
 * 1. validates the configuration before anything starts (exits naming the bad variable), and
 * 2. records the client's socket address (lib/http/client-ip.ts), discarding any client-sent
 *    forwarding headers unless TRUST_PROXY is set, so IP rate limits cannot be spoofed, and
 * 3. answers a path that does not percent-decode with a JSON 400 (Next.js would answer 500), and
 * 4. bounds slow clients: header and request timeouts, open connections per client address.
 * Production: `npm run build` (next build + this file bundled to dist/server.mjs by esbuild,
 * so no TypeScript loader runs in production), then `npm run serve`. Development:
 * `tsx server.ts --dev`.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import v8 from "node:v8";
import nextEnv from "@next/env";
import next from "next";
import { exitOnConfigError, getConfig, PROXY_HEADERS } from "./lib/config";
import { FRONT_HEADERS, recordSocketAddress } from "./lib/http/client-ip";
import { capConnectionsPerIp, frontServerOptions } from "./lib/http/connections";
import { registeredFront } from "./lib/http/front";

const dev = process.argv.includes("--dev");
// After each full collection V8 lets the old generation grow to as much as 4x what survived
// before it collects again; under load that headroom fills with garbage that stays resident
// once the load stops. 2x costs a few more (mostly concurrent) full collections, no measurable
// throughput (1.5x cost about 20%), and keeps resident memory near twice what is live
// (ARCHITECTURE.md, Memory). Read at every collection, so setting it here works whichever
// command starts the server. Set once the server has answered its first request (or 10 s after
// it listens): while the heap fills from nothing at start-up, 2x only adds full collections
// (about 20 ms of a cold start, docs/decisions.md, Cold start) and holds no garbage back.
let heapGrowthCapped = dev;
function capHeapGrowth() {
  if (heapGrowthCapped) return;
  heapGrowthCapped = true;
  v8.setFlagsFromString("--heap-growing-percent=100");
}
// As Next.js itself does once it starts (and `next start`): the built server is production.
// Set before the configuration is read, so this check and every later read agree.
const env = process.env as Record<string, string | undefined>;
env.NODE_ENV ||= dev ? "development" : "production";
// The .env files first, as Next.js loads them (same files and order), so that the
// configuration, PORT, HOST and TRUST_PROXY below see them: Next.js itself loads them only in
// app.prepare(), after the server is set up (docs/decisions.md, Configuration).
nextEnv.loadEnvConfig(process.cwd(), dev, { info: () => {}, error: console.error });
const config = exitOnConfigError(getConfig);

const port = config.port;
const hostname = process.env.HOST ?? "0.0.0.0";
// npm scripts run from the project root, where .next is (this file runs as dist/server.mjs).
if (!dev) runOnBuiltConfig(process.cwd());
const app = next({ dev, dir: process.cwd(), port, hostname });
const handle = app.getRequestHandler();

await app.prepare();

// Header and request timeouts, and open connections per client address (lib/http/connections.ts).
const server = http.createServer(frontServerOptions(config), (req, res) => {
  for (const name of FRONT_HEADERS) delete req.headers[name];
  if (!config.trustProxy) for (const name of PROXY_HEADERS) delete req.headers[name];
  recordSocketAddress(req.headers, req.socket.remoteAddress);
  if (!heapGrowthCapped) res.once("finish", capHeapGrowth);
  // A path that does not decode (`/api/keys/%FF`) would be a plain-text 500 from Next.js:
  // answer it as the API answers bad input, a JSON 400.
  if (!decodes(req.url ?? "/")) {
    res.writeHead(400, { "content-type": "application/json; charset=utf-8" });
    res.end(
      JSON.stringify({ error: "Invalid request", details: { path: "not a valid URL path" } }),
    );
    return;
  }
  // Long-lived streams skip Next.js once their route has registered (lib/http/front.ts).
  if (registeredFront()?.(req, res)) return;
  handle(req, res);
});

/**
 * Production runs on the configuration `next build` resolved and wrote down
 * (required-server-files.json), handed over as Next.js's own standalone server does, instead
 * of loading next.config.ts again: loading a .ts config compiles it with SWC, whose native
 * binding then stays mapped, 24 MB of resident memory for nothing (ARCHITECTURE.md, Memory).
 * Next.js still reads the .env files (its server does, whatever the config's origin).
 */
function runOnBuiltConfig(dir: string) {
  const file = path.join(dir, process.env.NEXT_DIST_DIR || ".next", "required-server-files.json");
  let built: unknown;
  try {
    built = JSON.parse(fs.readFileSync(file, "utf8")).config;
  } catch {
    return; // not built: Next.js says so in its own words
  }
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(built);
}

function decodes(url: string): boolean {
  try {
    decodeURIComponent(url.split("?")[0]);
    return true;
  } catch {
    return false;
  }
}
server.keepAliveTimeout = 65_000;
capConnectionsPerIp(server, config);
server.listen(port, hostname, () => {
  setTimeout(capHeapGrowth, 10_000).unref();
  process.stdout.write(
    `> Ready on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}\n`,
  );
});

let stopping = false;
function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`> ${signal}: closing\n`);
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 10_000).unref();
}
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
