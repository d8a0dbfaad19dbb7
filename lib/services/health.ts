import { isNotNull } from "drizzle-orm";
import type { Database } from "@/db/client";
import { watcherCursors } from "@/db/schema";
import { getRuntime } from "@/lib/runtime";
import type { NetworkName } from "@/lib/schemas/common";
import { withTimeout } from "@/lib/timeout";

/** Ledgers a watcher could not read from its source (Stellar RPC's retention had passed them). */
export type WatcherGap = {
  network: NetworkName;
  source: string;
  /** When the watcher found them gone. */
  since: string;
  fromLedger: number;
  toLedger: number;
  /** `horizon`: being read through Horizon; `skipped`: not read (see the logs). */
  backfill: "horizon" | "skipped";
};

export type Health = {
  status: "ok" | "degraded";
  database: "reachable" | "unreachable";
  /** `degraded` while a watcher has ledgers it could not read (`watcherGaps`). */
  watcher: "ok" | "degraded";
  watcherGaps: WatcherGap[];
  version: string;
};

const PING_TIMEOUT_MS = 2000;
const timedOut = () => new Error("timeout");

export async function getHealth(): Promise<Health> {
  let database: Health["database"] = "unreachable";
  let watcherGaps: WatcherGap[] = [];
  try {
    const runtime = await withTimeout(getRuntime(), PING_TIMEOUT_MS, timedOut);
    await withTimeout(runtime.database.ping(), PING_TIMEOUT_MS, timedOut);
    database = "reachable";
    watcherGaps = await withTimeout(gapsOf(runtime.database.db), PING_TIMEOUT_MS, timedOut);
  } catch {
    if (database !== "reachable") database = "unreachable";
  }
  const watcher = watcherGaps.length > 0 ? "degraded" : "ok";
  return {
    status: database === "reachable" && watcher === "ok" ? "ok" : "degraded",
    database,
    watcher,
    watcherGaps,
    version: process.env.npm_package_version ?? "0.1.0",
  };
}

/** The watcher cursors' open gaps (lib/jobs/watcher.ts, docs/decisions.md, Stellar RPC). */
export async function gapsOf(db: Database): Promise<WatcherGap[]> {
  const rows = await db
    .select()
    .from(watcherCursors)
    .where(isNotNull(watcherCursors.gapFromLedger));
  return rows.map((r) => ({
    network: r.network as NetworkName,
    source: r.source,
    since: (r.gapSince ?? r.updatedAt).toISOString(),
    fromLedger: r.gapFromLedger ?? 0,
    toLedger: r.gapToLedger ?? 0,
    backfill: r.gapBackfill === "skipped" ? "skipped" : "horizon",
  }));
}
