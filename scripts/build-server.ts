/**
 * `npm run build:server` (the last step of `npm run build`): `server.ts` and the PDF worker
 * (`lib/services/invoices/pdf-worker.ts`), each bundled by esbuild into one ES module in
 * dist/, so no TypeScript loader runs in production. Packages stay imports from
 * node_modules, except that zod and drizzle-orm are imported from their prebundled copy
 * (scripts/prebundle.ts), as the Next.js build's server code imports them (next.config.ts).
 */
import { build } from "esbuild";
import { PREBUNDLED, PREBUNDLED_PACKAGE } from "../lib/prebundled/specifiers";

const alias = Object.fromEntries(PREBUNDLED.map((s) => [s, `${PREBUNDLED_PACKAGE}/${s}`]));

await Promise.all(
  [
    ["server.ts", "dist/server.mjs"],
    ["lib/services/invoices/pdf-worker.ts", "dist/pdf-worker.mjs"],
  ].map(([entry, outfile]) =>
    build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      platform: "node",
      format: "esm",
      packages: "external",
      alias,
      logLevel: "warning",
    }),
  ),
);
