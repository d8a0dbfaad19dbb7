import type { NextConfig } from "next";
import { PREBUNDLED, PREBUNDLED_PACKAGE, prebundledName } from "./lib/prebundled/specifiers";

const dev = process.env.NODE_ENV === "development";
const production = process.env.NODE_ENV === "production";

/**
 * Pages may load only our own scripts, styles and API: wallets talk to the page through the
 * Freighter extension (postMessage), never through a third-party script. Next.js inlines its
 * bootstrap scripts, hence 'unsafe-inline' for scripts; dev mode also needs 'unsafe-eval'.
 */
/**
 * WalletConnect talks to its relay and loads its modal's images and fonts from its own hosts
 * (Reown's CSP guidance). Only when a project id is configured is the policy widened for them;
 * the id is part of the build stamp (scripts/build-stamp.ts), so changing it rebuilds.
 */
const walletConnect = Boolean(process.env.WALLETCONNECT_PROJECT_ID);
const wcHosts = (schemes: string[], names: string[]) =>
  walletConnect
    ? ` ${names.flatMap((n) => ["com", "org"].flatMap((tld) => schemes.map((s) => `${s}://${n}.walletconnect.${tld}`))).join(" ")}`
    : "";
const wcExtra = walletConnect ? " https://api.web3modal.com https://api.web3modal.org" : "";
const csp = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  `img-src 'self' data: blob:${walletConnect ? " https://*.walletconnect.com https://*.walletconnect.org" : ""}`,
  `font-src 'self' data:${walletConnect ? " https://fonts.reown.com" : ""}`,
  `connect-src 'self'${wcHosts(["https", "wss"], ["relay"])}${wcHosts(["https"], ["rpc", "pulse", "keys", "verify"])}${wcExtra}`,
  `frame-src 'self'${wcHosts(["https"], ["verify", "secure"])}`,
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Content-Security-Policy", value: csp },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
];

const nextConfig: NextConfig = {
  // A separate build folder lets parallel builds (and their test runs) not trample each other.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // PGlite ships WASM and data files that must be loaded from node_modules at run time. The
  // Stellar SDK, drizzle-orm and zod are loaded from node_modules too: one copy per process,
  // shared with server.ts (lib/config.ts), instead of one bundled into every route group
  // (ARCHITECTURE.md, Memory). In a production build our server code loads zod, zod-openapi
  // and drizzle-orm prebundled (`@stellar-invoicing/prebundled`, scripts/prebundle.ts): each
  // specifier goes to its file in lib/prebundled, which imports the package's bundled copy,
  // a cold start's first answer about 70 ms sooner (docs/decisions.md, Cold start). zod through
  // `@/lib/zod` only, and only on the server: packages import zod themselves, some their own
  // older version (the wallets' in the browser), and keep it.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "postgres",
    "pdfkit",
    "@stellar/stellar-base",
    "@stellar/stellar-sdk",
    "drizzle-orm",
    "zod",
    PREBUNDLED_PACKAGE,
  ],
  turbopack: {
    resolveAlias: production
      ? Object.fromEntries(
          PREBUNDLED.map((spec) => {
            const file = `./lib/prebundled/${prebundledName(spec)}.ts`;
            return spec === "zod"
              ? ["@/lib/zod", { browser: "./lib/zod.ts", default: file }]
              : [spec, file];
          }),
        )
      : {},
  },
  // Shipped with every function on hosts that deploy only traced files (Vercel): the
  // migrations run at start-up. (The PDF fonts are traced on their own.)
  outputFileTracingIncludes: { "/**": ["./db/migrations/**/*"] },
  poweredByHeader: false,
  // Load a route's code on its first request, not every page and route at start-up: each
  // route group carries its own copy of lib/ (ARCHITECTURE.md, Memory).
  // inlineCss: the one stylesheet (about 8 KB compressed) goes in the HTML, so the first paint
  // waits for no second request (the checkout on a slow phone: bench/lighthouse.ts).
  experimental: { preloadEntriesOnStart: false, inlineCss: true },
  // `tsc --noEmit` is its own gate in `npm test`; the build need not check tests and tools again.
  typescript: { ignoreBuildErrors: true },
  async rewrites() {
    // /api/v1/* is the same API as /api/* (docs/decisions.md, Response forms).
    return [{ source: "/api/v1/:path*", destination: "/api/:path*" }];
  },
  async headers() {
    // Pages only: API responses set their own (no-store, nosniff) in lib/http/endpoint.ts.
    return [{ source: "/((?!api/).*)", headers: securityHeaders }];
  },
};

export default nextConfig;
