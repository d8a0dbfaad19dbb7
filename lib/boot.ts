import { exitOnConfigError, getConfig } from "./config";
import { logger } from "./logger";

/** Server start-up: configuration, database and migrations, and (unless WORKER=off) the worker. */
export async function boot(): Promise<void> {
  const config = exitOnConfigError(getConfig);
  if (config.databaseUrl && !config.worker.inProcess) {
    // Without the worker, start-up only migrates (one query when there is nothing to do):
    // the app's database handle (schema, query builder, pool) opens with the first request
    // that needs it, from that route's own bundle, instead of being loaded twice on a cold
    // start, once here (docs/decisions.md, Cold start). Requests still never see an older
    // schema: in production Next.js runs this hook in the background while the server listens,
    // and every request waits for it before it is handled (tests/startup-migration.test.ts);
    // opening the handle checks again.
    const { migratePostgres } = await import("@/db/migrate");
    try {
      await migratePostgres(config.databaseUrl);
    } catch (err) {
      logger.error("start-up failed: database not ready", { error: String(err) });
      process.exit(1);
    }
    return;
  }
  const { getRuntime } = await import("./runtime");
  let runtime: Awaited<ReturnType<typeof getRuntime>>;
  try {
    runtime = await getRuntime();
  } catch (err) {
    logger.error("start-up failed: database not ready", { error: String(err) });
    process.exit(1);
  }
  if (runtime.config.worker.inProcess) {
    // Loaded only here: with WORKER=off the server never loads the jobs and what they pull in
    // (Horizon client, mail transport, PDF), ARCHITECTURE.md, Memory.
    const { startWorker } = await import("./jobs/worker");
    const worker = startWorker({
      db: runtime.database.db,
      config: runtime.config,
      logger,
      rateLimiter: runtime.rateLimiter,
    });
    const stop = () => {
      void worker.stop();
    };
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  }
}
