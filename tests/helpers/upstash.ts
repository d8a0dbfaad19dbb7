import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./app";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

export type LocalUpstash = {
  /** The REST URL and token, as UPSTASH_REDIS_REST_URL / UPSTASH_REDIS_REST_TOKEN take them. */
  url: string;
  token: string;
  /** Runs a command on the Redis server behind it (redis-cli). */
  redis: (...args: string[]) => string;
  /** Stops the REST front (Redis stays up): calls to it fail as in an Upstash outage. */
  stopFront: () => Promise<void>;
  stop: () => Promise<void>;
};

function redisServerPath(): string {
  for (const p of ["/usr/bin/redis-server", "/usr/local/bin/redis-server"]) {
    if (fs.existsSync(p)) return p;
  }
  throw new Error("redis-server is not installed: run the tests with `npm test` (scripts/test.sh)");
}

async function waitFor(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not start`);
}

/**
 * Upstash is a service outside this machine; the stand-in is Debian's redis-server behind
 * @humanwhocodes/upstash-redis-server, which speaks Upstash's REST protocol (single commands,
 * pipelines, base64 responses) to the real @upstash/redis client.
 */
export async function startUpstash(): Promise<LocalUpstash> {
  const redisPort = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redis-"));
  const redis: ChildProcess = spawn(
    redisServerPath(),
    [
      "--port",
      String(redisPort),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      dir,
    ],
    { stdio: "ignore" },
  );
  const cli = (...args: string[]) =>
    execFileSync("redis-cli", ["-p", String(redisPort), ...args], { encoding: "utf8" }).trim();
  await waitFor(async () => cli("ping") === "PONG", "redis-server");

  const token = "upstash-test-token-0123456789";
  const port = await freePort();
  const front: ChildProcess = spawn(
    process.execPath,
    [path.join(ROOT, "node_modules/@humanwhocodes/upstash-redis-server/dist/server.js")],
    {
      env: {
        ...process.env,
        URS_TOKEN: token,
        PORT: String(port),
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      },
      stdio: "ignore",
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => {
    const res = await fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(["PING"]),
    });
    return res.ok;
  }, "upstash-redis-server");

  const kill = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return {
    url,
    token,
    redis: cli,
    stopFront: () => kill(front),
    stop: async () => {
      await Promise.all([kill(front), kill(redis)]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
