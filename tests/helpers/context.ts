import type { DatabaseHandle } from "@/db/client";
import { parseConfig } from "@/lib/config";
import { logger } from "@/lib/logger";
import type { ServiceContext } from "@/lib/services/context";

/**
 * A service context for tests that call services in-process: a real database, the
 * configuration parsed from `env` (with a JWT secret, the database URL and an unreachable
 * Horizon unless `env` names one), a pinned clock.
 */
export function testContext(
  handle: Pick<DatabaseHandle, "db">,
  databaseUrl: string,
  now: () => Date,
  env: Record<string, string> = {},
): ServiceContext {
  return {
    db: handle.db,
    config: parseConfig({
      JWT_SECRET: "s".repeat(40),
      DATABASE_URL: databaseUrl,
      // Tests never reach the real Stellar network (as tests/helpers/app.ts): a local ledger
      // passed in `env`, or nothing (send's readiness check is then unknown and goes ahead).
      HORIZON_TESTNET_URL: "http://127.0.0.1:9",
      HORIZON_MAINNET_URL: "http://127.0.0.1:9",
      RPC_TESTNET_URL: "http://127.0.0.1:9",
      RPC_MAINNET_URL: "http://127.0.0.1:9",
      ...(process.env.LEDGER_SOURCE ? { LEDGER_SOURCE: process.env.LEDGER_SOURCE } : {}),
      ...env,
    }),
    now,
    logger,
    requestId: "test",
  };
}
