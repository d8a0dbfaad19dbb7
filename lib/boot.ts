import { exitOnConfigError, getConfig } from "./config";
import { logger } from "./logger";
import { getRuntime } from "./runtime";

/** Server start-up: configuration, database and migrations, and (unless WORKER=off) the worker. */
export async function boot(): Promise<void> {
  exitOnConfigError(getConfig);
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
