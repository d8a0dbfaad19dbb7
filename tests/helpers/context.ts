import type { DatabaseHandle } from "@/db/client";
import { parseConfig } from "@/lib/config";
import { logger } from "@/lib/logger";
import type { ServiceContext } from "@/lib/services/context";

/**
 * A service context for tests that call services in-process: a real database, the
 * configuration parsed from `env` (with a JWT secret and the database URL), a pinned clock.
 */
export function testContext(
  handle: Pick<DatabaseHandle, "db">,
  databaseUrl: string,
  now: () => Date,
  env: Record<string, string> = {},
): ServiceContext {
  return {
    db: handle.db,
    config: parseConfig({ JWT_SECRET: "s".repeat(40), DATABASE_URL: databaseUrl, ...env }),
    now,
    logger,
    requestId: "test",
  };
}
