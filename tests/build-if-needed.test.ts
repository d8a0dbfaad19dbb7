import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isUpToDate, sourcesHash, writeStamp } from "@/scripts/build-stamp";

/**
 * `npm start` rebuilds only when the build is not the build of the current sources
 * (scripts/build-if-needed.ts, scripts/build-stamp.ts).
 */

const ROOT = path.resolve(import.meta.dirname, "..");
let repo: string;
let dist: string;
let bundle: string;

const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
  fs.writeFileSync(path.join(repo, file), text);
};

beforeAll(() => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), "build-stamp-"));
  execFileSync("git", ["init", "-q"], { cwd: repo });
  write(".gitignore", ".next/\ndist/\n");
  write("app/page.tsx", "export default () => null;\n");
  write("package-lock.json", '{"lockfileVersion":3}\n');
  write(
    "tsconfig.json",
    JSON.stringify({ compilerOptions: { strict: true }, include: ["**/*.ts"] }),
  );
  write("README.md", "# app\n");
  write("tests/a.test.ts", "// a test\n");
  execFileSync("git", ["add", "."], { cwd: repo });
  dist = path.join(repo, ".next");
  bundle = path.join(repo, "dist", "server.mjs");
  write(".next/BUILD_ID", "build-1");
  write("dist/server.mjs", "// server\n");
});

afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));

describe("the build stamp", () => {
  it("the sources hash follows what the build reads, and nothing else", () => {
    const env = { PATH: "/bin" };
    const base = sourcesHash(repo, env);
    expect(sourcesHash(repo, env)).toBe(base);

    // Not read by the build: tests, Markdown, the folders next build writes to, tsconfig's
    // include list (next build adds its own folder there).
    write("tests/a.test.ts", "// changed\n");
    write("README.md", "# changed\n");
    write(".next/cache/x", "x");
    write(
      "tsconfig.json",
      JSON.stringify({ compilerOptions: { strict: true }, include: ["**/*.ts", ".next-x/types"] }),
    );
    expect(sourcesHash(repo, env)).toBe(base);

    const changes: [string, () => void, () => void][] = [
      [
        "a source",
        () => write("app/page.tsx", "export default () => 1;\n"),
        () => write("app/page.tsx", "export default () => null;\n"),
      ],
      [
        "a new, untracked source",
        () => write("lib/new.ts", "export {};\n"),
        () => fs.rmSync(path.join(repo, "lib"), { recursive: true }),
      ],
      [
        "the lock file",
        () => write("package-lock.json", "{}\n"),
        () => write("package-lock.json", '{"lockfileVersion":3}\n'),
      ],
      [
        "a .env file",
        () => write(".env", "APP_URL=http://x\n"),
        () => fs.rmSync(path.join(repo, ".env")),
      ],
      [
        "a compiler option",
        () => write("tsconfig.json", JSON.stringify({ compilerOptions: { strict: false } })),
        () => write("tsconfig.json", JSON.stringify({ compilerOptions: { strict: true } })),
      ],
    ];
    for (const [what, change, undo] of changes) {
      change();
      expect(sourcesHash(repo, env), what).not.toBe(base);
      undo();
      expect(sourcesHash(repo, env), `${what} undone`).toBe(base);
    }
    expect(sourcesHash(repo, { ...env, NEXT_PUBLIC_X: "1" })).not.toBe(base);
    expect(sourcesHash(repo, { ...env, HORIZON_TESTNET_URL: "http://127.0.0.1:8001" })).not.toBe(
      base,
    );
    expect(sourcesHash(repo, { ...env, HOME: "/elsewhere" })).toBe(base);
  });

  it("a build is current only with its own stamp: same sources, BUILD_ID and server bundle", () => {
    const sources = sourcesHash(repo, {});
    expect(isUpToDate(sources, dist, bundle)).toBe(false); // never stamped
    writeStamp(sources, dist, bundle);
    expect(isUpToDate(sources, dist, bundle)).toBe(true);
    expect(isUpToDate(`${sources}0`, dist, bundle)).toBe(false);

    write(".next/BUILD_ID", "build-2"); // another build (npm run build, npm test) replaced it
    expect(isUpToDate(sources, dist, bundle)).toBe(false);
    writeStamp(sources, dist, bundle);
    write("dist/server.mjs", "// rebuilt\n");
    expect(isUpToDate(sources, dist, bundle)).toBe(false);
    fs.rmSync(path.join(dist, "BUILD_ID"));
    writeStamp(sources, dist, bundle);
    expect(isUpToDate(sources, dist, bundle)).toBe(false); // no complete build
  });

  it("npm start does not rebuild a current build: build-if-needed returns at once", () => {
    // A build folder of its own, stamped for this tree and environment.
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "next-dist-"));
    const serverBundle = path.join(ROOT, "dist", "server.mjs");
    expect(fs.existsSync(serverBundle), "dist/server.mjs (npm run build)").toBe(true);
    fs.writeFileSync(path.join(folder, "BUILD_ID"), "stamped");
    const env = {
      NODE_ENV: "production" as const,
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NEXT_DIST_DIR: folder,
    };
    writeStamp(sourcesHash(ROOT, env), folder, serverBundle);
    const started = Date.now();
    const run = spawnSync(
      process.execPath,
      ["node_modules/tsx/dist/cli.mjs", "scripts/build-if-needed.ts"],
      {
        cwd: ROOT,
        env,
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    fs.rmSync(folder, { recursive: true, force: true });
    expect(run.stdout).toContain("matches the sources: not rebuilding");
    expect(run.status).toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
