/**
 * `npm run worker`: the background jobs in their own process (for deployments that run the
 * app with WORKER=off). Needs DATABASE_URL: an embedded PGlite database belongs to the one
 * process that opened it, so with PGlite the worker runs inside `npm start` instead.
 */
import v8 from "node:v8";
import { openDatabase } from "../db/client";
import { exitOnConfigError, parseConfig } from "../lib/config";
import { startWorker } from "../lib/jobs/worker";
import { logger } from "../lib/logger";
import { createRateLimiter } from "../lib/runtime";

// As server.ts: after a full collection the old generation may grow to 2x what survived, not
// up to 4x, so the heap settles near twice what is live (ARCHITECTURE.md, Memory).
v8.setFlagsFromString("--heap-growing-percent=100");
const config = exitOnConfigError(() => parseConfig(process.env));
if (!config.databaseUrl) {
  process.stderr.write(
    "npm run worker needs DATABASE_URL (with the embedded database the worker runs inside npm start)\n",
  );
  process.exit(1);
}
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  poolSize: config.databasePoolSize,
});
const rateLimiter = await createRateLimiter(config, database);
const worker = startWorker({ db: database.db, config, logger, rateLimiter });
let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info(`worker: ${signal}, finishing the current pass`);
  await worker.stop();
  await database.close();
  process.exit(0);
};
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
