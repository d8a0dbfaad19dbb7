import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./app";

/**
 * A PostgreSQL cluster of its own, for tests that stop and restart the server (the shared
 * test server must stay up for the other files). Uses the binaries `npm test` installed.
 */
export type PrivatePostgres = {
  url: string;
  stop: () => void;
  start: () => void;
  destroy: () => void;
};

function pgBin(): string {
  if (process.env.TEST_PG_BIN) return process.env.TEST_PG_BIN;
  const base = "/usr/lib/postgresql";
  const version = fs
    .readdirSync(base)
    .sort((a, b) => Number(a) - Number(b))
    .pop();
  return path.join(base, version as string, "bin");
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = pgBin();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "pg-private-"));
  fs.chmodSync(root, 0o755);
  const data = path.join(root, "data");
  const sock = path.join(root, "sock");
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) =>
    asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", path.join(bin, cmd), ...args], {
          stdio: "pipe",
        })
      : execFileSync(path.join(bin, cmd), args, { stdio: "pipe" });
  fs.mkdirSync(data, { mode: 0o700 });
  fs.mkdirSync(sock);
  if (asRoot) execFileSync("chown", ["-R", "postgres:postgres", data, sock]);
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C.UTF-8"]);
  const start = () =>
    run("pg_ctl", [
      "-D",
      data,
      "-l",
      path.join(data, "server.log"),
      "-w",
      "-o",
      `-p ${port} -k ${sock} -c listen_addresses=127.0.0.1 -c fsync=off`,
      "start",
    ]);
  const stop = () => run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy: () => {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } catch {
        // already stopped
      }
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
