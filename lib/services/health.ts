import { getRuntime } from "@/lib/runtime";
import { withTimeout } from "@/lib/timeout";

export type Health = {
  status: "ok" | "degraded";
  database: "reachable" | "unreachable";
  version: string;
};

const PING_TIMEOUT_MS = 2000;
const timedOut = () => new Error("timeout");

export async function getHealth(): Promise<Health> {
  let database: Health["database"] = "unreachable";
  try {
    const runtime = await withTimeout(getRuntime(), PING_TIMEOUT_MS, timedOut);
    await withTimeout(runtime.database.ping(), PING_TIMEOUT_MS, timedOut);
    database = "reachable";
  } catch {
    database = "unreachable";
  }
  return {
    status: database === "reachable" ? "ok" : "degraded",
    database,
    version: process.env.npm_package_version ?? "0.1.0",
  };
}
