import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, TEST_JWT_SECRET } from "./helpers/app";
import { createTestDatabase } from "./helpers/postgres";

// The production server reads its configuration from a .env file in the folder it starts in
// (issue 27, item 15): PORT, HOST and the rest before it listens, not only once Next.js has
// loaded the file; and APP_URL, unset, is http://localhost:<PORT>.

const ROOT = path.resolve(import.meta.dirname, "..");
const distDir = process.env.NEXT_DIST_DIR || ".next";

describe("the server started with a .env file and nothing in its environment", () => {
  let dir: string;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let child: ChildProcess | undefined;
  let output = "";

  beforeAll(async () => {
    db = await createTestDatabase();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "env-file-"));
    // The build and the migrations, seen from another folder (the server reads both from the
    // folder it starts in, as it reads .env).
    fs.symlinkSync(path.join(ROOT, distDir), path.join(dir, ".next"));
    fs.symlinkSync(path.join(ROOT, "db"), path.join(dir, "db"));
  });

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child?.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
    await db?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("listens on the .env's PORT and HOST, and APP_URL defaults to that port", async () => {
    const port = await freePort();
    fs.writeFileSync(
      path.join(dir, ".env"),
      [
        `PORT=${port}`,
        "HOST=127.0.0.1",
        `DATABASE_URL=${db.url}`,
        `JWT_SECRET=${TEST_JWT_SECRET}`,
        "WORKER=off",
        "LOG_LEVEL=warn",
        "HORIZON_TESTNET_URL=http://127.0.0.1:9",
        "HORIZON_MAINNET_URL=http://127.0.0.1:9",
        "",
      ].join("\n"),
    );
    child = spawn(process.execPath, [path.join(ROOT, "dist", "server.mjs")], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (d) => {
      output += d;
    });
    child.stderr?.on("data", (d) => {
      output += d;
    });
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}:\n${output}`);
      const ok = await fetch(`${url}/api/health`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`not listening on ${url} in 60 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(output).toContain(`> Ready on http://127.0.0.1:${port}`);
    // APP_URL, unset, is where it listens: stellar.toml's ORG_URL is APP_URL.
    const toml = await (await fetch(`${url}/.well-known/stellar.toml`)).text();
    expect(toml).toContain(`ORG_URL = "http://localhost:${port}"`);
  }, 90_000);
});
