import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { TEST_JWT_SECRET } from "./app";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** `npm run worker` as a child process (so tests can SIGKILL it). */
export function startWorkerProcess(
  env: Record<string, string>,
): ChildProcess & { output: () => string } {
  let output = "";
  // `--import tsx` keeps the worker in this one process: tsx's CLI runs scripts in a child,
  // and a SIGKILL to the CLI would leave the real worker running.
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      JWT_SECRET: TEST_JWT_SECRET,
      LOG_LEVEL: "warn",
      WATCHER_INTERVAL_MS: "200",
      EXPIRY_INTERVAL_MS: "60000",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  return Object.assign(child, { output: () => output });
}

export function kill(child: ChildProcess, signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill(signal);
  });
}
