/**
 * The minimal Next.js app of bench/minimal-app (a route handler and a page doing the status
 * lookup), copied into a folder of its own outside this project, so Next.js does not pick up
 * this project's files (its instrumentation hook, say), and built with this project's `next`
 * (webpack: Turbopack refuses a node_modules symlinked from outside its root). No network.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
export const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");

/** Builds the minimal app in a temporary folder; returns the folder (remove it when done). */
export function buildMinimal(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "minimal-next-"));
  fs.cpSync(path.join(ROOT, "bench", "minimal-app"), dir, { recursive: true });
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  execFileSync(process.execPath, [NEXT_BIN, "build", "--webpack"], {
    cwd: dir,
    stdio: "ignore",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  return dir;
}

/** `next start` of a built minimal app (not waited for: the caller polls it). */
export function spawnMinimal(
  dir: string,
  dbUrl: string,
  port: number,
  stdio: "ignore" | "pipe" = "ignore",
): ChildProcess {
  return spawn(process.execPath, [NEXT_BIN, "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: dbUrl,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", stdio, stdio],
  });
}
