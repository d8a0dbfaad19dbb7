/**
 * `npm start` and `npm run dev:offline`: run `npm run build` (next build + build:server) only
 * when the build output is not the build of the current sources (scripts/build-stamp.ts).
 * Why skipping is safe: the sources are hashed before building, so an edit made during a
 * build makes the next start rebuild; another build into the folder (`npm run build`,
 * `npm test`) changes BUILD_ID or dist/server.mjs, so the stamp no longer matches; without
 * git (or on any read error) it always builds. `npm run build` and `npm test`
 * (scripts/test.sh) never look at the stamp: they always build fresh.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { isUpToDate, sourcesHash, writeStamp } from "./build-stamp";

const root = path.resolve(import.meta.dirname, "..");
const distDir = path.resolve(root, process.env.NEXT_DIST_DIR || ".next");
const serverBundle = path.join(root, "dist", "server.mjs");

// The prebundled packages (scripts/prebundle.ts) live in node_modules, which `npm install`
// prunes of them: restored first, whether or not the build is current (a no-op when they are).
await import("./prebundle");

let sources: string | null = null;
try {
  sources = sourcesHash(root, process.env);
} catch (err) {
  process.stdout.write(`Cannot hash the sources (${(err as Error).message}); building.\n`);
}

if (sources && isUpToDate(sources, distDir, serverBundle)) {
  process.stdout.write(
    `The build in ${path.relative(root, distDir)} matches the sources: not rebuilding (npm run build forces it).\n`,
  );
  process.exit(0);
}

const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);
if (sources) writeStamp(sources, distDir, serverBundle);
