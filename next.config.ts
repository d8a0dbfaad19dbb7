import type { NextConfig } from "next";

const dev = process.env.NODE_ENV === "development";

/**
 * Pages may load only our own scripts, styles and API: wallets talk to the page through the
 * Freighter extension (postMessage), never through a third-party script. Next.js inlines its
 * bootstrap scripts, hence 'unsafe-inline' for scripts; dev mode also needs 'unsafe-eval'.
 */
const csp = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
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
  // PGlite ships WASM and data files that must be loaded from node_modules at run time.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "pdfkit"],
  // Shipped with every function on hosts that deploy only traced files (Vercel): the
  // migrations run at start-up. (The PDF fonts are traced on their own.)
  outputFileTracingIncludes: { "/**": ["./db/migrations/**/*"] },
  poweredByHeader: false,
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
