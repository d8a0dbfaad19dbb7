import { getRuntime } from "@/lib/runtime";

export type Health = {
  status: "ok" | "degraded";
  database: "reachable" | "unreachable";
  version: string;
};

const PING_TIMEOUT_MS = 2000;

export async function getHealth(): Promise<Health> {
  let database: Health["database"] = "unreachable";
  try {
    const runtime = await withTimeout(getRuntime(), PING_TIMEOUT_MS);
    await withTimeout(runtime.database.ping(), PING_TIMEOUT_MS);
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

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error("timeout")), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}
