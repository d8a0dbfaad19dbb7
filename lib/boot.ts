import { ConfigError, getConfig } from "./config";
import { logger } from "./logger";
import { getRuntime } from "./runtime";

export async function boot(): Promise<void> {
  try {
    getConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  try {
    await getRuntime();
  } catch (err) {
    logger.error("start-up failed: database not ready", { error: String(err) });
    process.exit(1);
  }
}
