import { type DatabaseHandle, openDatabase } from "@/db/client";
import { type Config, getConfig } from "./config";
import { logger } from "./logger";
import { createPostgresRateLimiter } from "./ratelimit/postgres";
import type { RateLimiter } from "./ratelimit/types";
import { createInvoiceChanges, type InvoiceChanges } from "./realtime/invoice-changes";
import { StatusCache } from "./services/payments/status-cache";

/**
 * Process-wide resources, created once (kept on globalThis so dev-mode reloads and the
 * several bundles Next.js builds share one PGlite instance: PGlite allows one per directory).
 */
export type Runtime = {
  config: Config;
  database: DatabaseHandle;
  rateLimiter: RateLimiter;
  /** Invoice changes from every instance (one LISTEN connection, opened on first use). */
  changes: InvoiceChanges;
  statusCache: StatusCache | undefined;
};

/** The shared rate-limit counters: Upstash when configured, else PostgreSQL. */
export async function createRateLimiter(
  config: Config,
  database: DatabaseHandle,
): Promise<RateLimiter> {
  // The Upstash client is loaded only when configured (ARCHITECTURE.md, Memory).
  return config.upstash
    ? (await import("./ratelimit/upstash")).createUpstashRateLimiter(config.upstash)
    : createPostgresRateLimiter(database);
}

const KEY = Symbol.for("stellar-invoicing.runtime");
type Holder = { [KEY]?: Promise<Runtime> };

export function getRuntime(): Promise<Runtime> {
  const g = globalThis as Holder;
  g[KEY] ??= createRuntime().catch((err) => {
    // Let the next request retry (the database may come back).
    delete g[KEY];
    throw err;
  });
  return g[KEY];
}

async function createRuntime(): Promise<Runtime> {
  const config = getConfig();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
  });
  const rateLimiter = await createRateLimiter(config, database);
  logger.info("runtime ready", {
    database: database.kind,
    rateLimiter: config.upstash ? "upstash" : "postgres",
  });
  const changes = createInvoiceChanges(database, logger);
  return {
    config,
    database,
    rateLimiter,
    changes,
    statusCache: config.statusCache ? new StatusCache(changes) : undefined,
  };
}
