import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { envSchema } from "../lib/config";

/**
 * The stamp scripts/build-if-needed.ts writes into the Next.js build folder after a build, and
 * checks before skipping one. It holds
 *   - `sources`: a SHA-256 over every file git sees (tracked or new, not ignored) except those
 *     the build never reads (tests/, e2e/, docs/, bench/, .ci/, Markdown, *.test.*), plus any
 *     .env file, tsconfig.json without its `include`/`exclude` lists (next build adds its
 *     folder there), the Node.js version and the environment variables that can reach a
 *     build (NODE_ENV, NEXT_*, and every variable lib/config.ts reads);
 *   - `buildId`: the build's own BUILD_ID, and `server`: a hash of dist/server.mjs.
 * A build is skipped only when all three match (docs/decisions.md, Starting).
 */
export type Stamp = { sources: string; buildId: string; server: string };

/** Paths the build never reads. */
const IGNORED = /^(tests|e2e|docs|bench|\.ci)\/|\.md$|\.test\.tsx?$/;
const ENV_FILES = [".env", ".env.local", ".env.production", ".env.production.local"];
const STAMP = "build-stamp.json";

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

function readOrNull(file: string): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch {
    return null;
  }
}

/** tsconfig.json as the build sees it: `next build` edits `include`, never the options. */
function tsconfigText(content: Buffer): string {
  try {
    const { include: _i, exclude: _e, ...rest } = JSON.parse(content.toString("utf8"));
    return JSON.stringify(rest);
  } catch {
    return content.toString("utf8");
  }
}

/** Throws when git cannot list the files (then the caller builds). */
export function sourcesHash(root: string, env: Record<string, string | undefined>): string {
  const listed = execFileSync(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    { cwd: root, maxBuffer: 64 * 1024 * 1024 },
  )
    .toString("utf8")
    .split("\0")
    .filter((f) => f && !IGNORED.test(f));
  const hash = createHash("sha256");
  for (const file of [...new Set([...listed, ...ENV_FILES])].sort()) {
    const content = readOrNull(path.join(root, file));
    if (content === null) continue; // deleted, or no such .env file
    const text = file === "tsconfig.json" ? tsconfigText(content) : content;
    hash.update(`${file}\0${sha256(text)}\n`);
  }
  const names = new Set([...Object.keys(envSchema().shape), "NODE_ENV"]);
  for (const name of Object.keys(env)) if (name.startsWith("NEXT_")) names.add(name);
  for (const name of [...names].sort()) hash.update(`env ${name}=${env[name] ?? ""}\n`);
  hash.update(`node ${process.version}\n`);
  return hash.digest("hex");
}

/** What identifies the build output now, or null when there is no complete build. */
export function currentOutput(
  distDir: string,
  serverBundle: string,
): Omit<Stamp, "sources"> | null {
  const buildId = readOrNull(path.join(distDir, "BUILD_ID"));
  const server = readOrNull(serverBundle);
  if (!buildId || !server) return null;
  return { buildId: buildId.toString("utf8").trim(), server: sha256(server) };
}

export function isUpToDate(sources: string, distDir: string, serverBundle: string): boolean {
  const output = currentOutput(distDir, serverBundle);
  const stamp = readOrNull(path.join(distDir, STAMP));
  if (!output || !stamp) return false;
  try {
    const saved = JSON.parse(stamp.toString("utf8")) as Stamp;
    return (
      saved.sources === sources &&
      saved.buildId === output.buildId &&
      saved.server === output.server
    );
  } catch {
    return false;
  }
}

export function writeStamp(sources: string, distDir: string, serverBundle: string): void {
  const output = currentOutput(distDir, serverBundle);
  if (!output) return;
  fs.writeFileSync(
    path.join(distDir, STAMP),
    `${JSON.stringify({ sources, ...output }, null, 2)}\n`,
  );
}
