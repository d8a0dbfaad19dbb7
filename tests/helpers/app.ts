import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

export type RunningApp = {
  url: string;
  port: number;
  pid: number;
  logs: () => string;
  stop: () => Promise<void>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === "object" && addr ? resolve(addr.port) : reject()));
    });
  });
}

/** The production server as `npm run serve` runs it (built by `npm run build`). */
export const SERVER_ARGS = [path.join(ROOT, "dist", "server.mjs")];

export const TEST_JWT_SECRET = "test-secret-0123456789abcdef0123456789abcdef";
export const TEST_CRON_SECRET = "test-cron-secret-0123456789";

/** The clean environment the tests run the server in, on `port`, plus `env`. */
export function appEnvironment(
  port: number,
  env: Record<string, string | undefined>,
): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    ...(process.env.NEXT_DIST_DIR ? { NEXT_DIST_DIR: process.env.NEXT_DIST_DIR } : {}),
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: `http://127.0.0.1:${port}`,
    JWT_SECRET: TEST_JWT_SECRET,
    SERVICE_NAME: "Stellar Invoicing Test",
    LOG_LEVEL: "warn",
    // Tests never reach the real Stellar network: Horizon is a local ledger or nothing.
    HORIZON_TESTNET_URL: "http://127.0.0.1:9",
    HORIZON_MAINNET_URL: "http://127.0.0.1:9",
    RPC_TESTNET_URL: "http://127.0.0.1:9",
    RPC_MAINNET_URL: "http://127.0.0.1:9",
    // The whole suite runs with either ledger source (issue 31: LEDGER_SOURCE=rpc npm test).
    ...(process.env.LEDGER_SOURCE ? { LEDGER_SOURCE: process.env.LEDGER_SOURCE } : {}),
    // Nor the real price source: a suite that needs prices starts the local one.
    PRICE_SOURCE_URL: "http://127.0.0.1:9/api/v3/simple/price?ids=stellar&vs_currencies=usd",
    PRICE_SOURCE_EUR_URL:
      "http://127.0.0.1:9/api/v3/simple/price?ids=stellar,euro-coin&vs_currencies=eur,usd",
    WORKER: "off",
    CRON_SECRET: TEST_CRON_SECRET,
    ...env,
  };
}

/**
 * Starts the real server (server.ts over the `next build` output) as a child process and
 * waits until /api/health answers. `env` adds to a clean test environment.
 */
export async function startApp(env: Record<string, string | undefined>): Promise<RunningApp> {
  const port = await freePort();
  let output = "";
  const child: ChildProcess = spawn(process.execPath, SERVER_ARGS, {
    cwd: ROOT,
    env: appEnvironment(port, env),
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
    if (child.exitCode !== null) {
      throw new Error(`app exited with ${child.exitCode} before it was ready:\n${output}`);
    }
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`app did not become ready in 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    url,
    port,
    pid: child.pid as number,
    logs: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      }),
  };
}

/** Runs server.ts expecting it to fail at start-up; returns its exit code and output. */
export async function startAppExpectingFailure(
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; output: string }> {
  const port = await freePort();
  return new Promise((resolve) => {
    let output = "";
    const child = spawn(process.execPath, SERVER_ARGS, {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        PORT: String(port),
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (d) => {
      output += d;
    });
    child.stderr.on("data", (d) => {
      output += d;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
